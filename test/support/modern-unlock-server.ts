/**
 * The unlock server of `unlock-server.ts` on the v2 SDK (`@modelcontextprotocol/server`),
 * speaking only the 2026-07-28 revision (`legacy: 'reject'`: `initialize` is refused): `unlock`
 * adds `open_vault`, and the change reaches a client only over its `subscriptions/listen`
 * stream. Over stdio with `node --import tsx test/support/modern-unlock-server.ts` (one server
 * for the connection, `serveStdio`), or over Streamable HTTP on 127.0.0.1 with
 * {@link startModernHttpServer} (`createMcpHandler`, a server per request, the change told
 * through the handler's `notify`).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';
import { UNLOCKED_TOOL } from './unlock-server.js';

const root = join(import.meta.dirname, '..', '..');

/** A stdio entry that runs a server script of `test/support` (with tsx), with `args`. */
export function supportServerStdio(file: string, args: string[] = []) {
  return {
    command: process.execPath,
    args: ['--import', 'tsx', join(root, 'test', 'support', file), ...args],
    cwd: root,
  };
}

/** This server over stdio: 2026-07-28 only. */
export const MODERN_UNLOCK_STDIO = supportServerStdio('modern-unlock-server.ts');

/** Builds one server; `unlocked` says whether `open_vault` is there, `unlock` what it adds. */
function createModernUnlockServer(
  unlocked: () => boolean,
  unlock: (server: McpServer) => void,
  toolsTtlMs?: number,
): McpServer {
  const server = new McpServer(
    { name: 'modern-unlock-test', version: '2.0.0' },
    toolsTtlMs === undefined
      ? {}
      : { cacheHints: { 'tools/list': { ttlMs: toolsTtlMs, cacheScope: 'private' } } },
  );
  const addVault = (): void => {
    server.registerTool(UNLOCKED_TOOL, { description: 'Opens the vault.' }, async () => ({
      content: [{ type: 'text', text: 'the vault is open' }],
    }));
  };
  server.registerTool('unlock', { description: 'Unlocks the vault tools.' }, async () => {
    if (!unlocked()) {
      unlock(server);
      addVault();
    }
    return { content: [{ type: 'text', text: 'unlocked' }] };
  });
  server.registerTool(
    'echo',
    { description: 'Echoes its text.', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  if (unlocked()) addVault();
  return server;
}

/** A running modern-only HTTP server: its MCP URL, the methods it was asked, and its end. */
export interface RunningModernServer {
  /** `http://127.0.0.1:PORT/mcp` */
  readonly url: string;
  /** The JSON-RPC method of each POST (`initialize` included, though refused), in order. */
  readonly methods: string[];
  close(): Promise<void>;
}

/** The request's body, whole. */
async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A v2 SDK fetch handler (`createMcpHandler`'s) behind `node:http` on 127.0.0.1, at `/mcp`:
 * responses streamed as they are written (a `subscriptions/listen` stream stays open), the
 * method of each POST recorded.
 */
export async function serveFetchHandler(handler: {
  fetch: (request: Request) => Promise<Response>;
  close?: () => Promise<void>;
}): Promise<RunningModernServer> {
  const methods: string[] = [];
  const http = createServer((request, response) => {
    void (async () => {
      const body = request.method === 'POST' ? await bodyOf(request) : undefined;
      if (body !== undefined) {
        const { method } = JSON.parse(body.toString('utf8') || '{}') as { method?: string };
        if (method !== undefined) methods.push(method);
      }
      const answer = await handler.fetch(
        new Request(`http://127.0.0.1${request.url}`, {
          method: request.method ?? 'GET',
          headers: request.headers as Record<string, string>,
          ...(body === undefined ? {} : { body }),
        }),
      );
      response.writeHead(answer.status, Object.fromEntries(answer.headers));
      if (answer.body === null) response.end();
      else Readable.fromWeb(answer.body as never).pipe(response);
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    methods,
    async close() {
      await handler.close?.();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/**
 * The unlock server, 2026-07-28 only, over Streamable HTTP at `/mcp` on 127.0.0.1 (see
 * {@link serveFetchHandler}). With `toolsTtlMs`, its tool lists say they stay fresh that long
 * (`ttlMs`, `cacheScope: 'private'`).
 */
export function startModernHttpServer(
  options: { toolsTtlMs?: number } = {},
): Promise<RunningModernServer> {
  let unlocked = false;
  const handler = createMcpHandler(
    () =>
      createModernUnlockServer(
        () => unlocked,
        () => {
          unlocked = true;
          // Told after this call's server is built: the next server per request has the tool.
          setImmediate(() => handler.notify.toolsChanged());
        },
        options.toolsTtlMs,
      ),
    { legacy: 'reject' },
  );
  return serveFetchHandler(handler);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let unlocked = false;
  serveStdio(
    () =>
      createModernUnlockServer(
        () => unlocked,
        () => {
          unlocked = true;
        },
      ),
    { legacy: 'reject' },
  );
}
