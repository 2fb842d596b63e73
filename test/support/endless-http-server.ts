/**
 * A hostile Streamable HTTP MCP server on node:http (no SDK): its `endless` tool answers with
 * one SSE event that never ends, its `trickle` tool with keep-alive comments forever and no
 * answer, `hello` answers at once. It counts the bytes it wrote and knows which responses'
 * sockets are still open.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const TOOLS = ['endless', 'trickle', 'hello'].map((name) => ({
  name,
  inputSchema: { type: 'object' },
}));

/** The running server. */
export interface EndlessHttpServer {
  url: string;
  /** Bytes written to tool responses so far. */
  written(): number;
  /** Tool responses (by tool name) whose connection is still open. */
  open(): string[];
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');

function endless(res: ServerResponse, count: (n: number) => void): void {
  res.write('data: ');
  const pump = (): void => {
    while (!res.destroyed && res.writable) {
      count(CHUNK.length);
      if (!res.write(CHUNK)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

function trickle(res: ServerResponse, count: (n: number) => void): void {
  const timer = setInterval(() => {
    count(14);
    res.write(': keep-alive\n\n');
  }, 10);
  res.on('close', () => clearInterval(timer));
}

/** Starts the server on a free port of 127.0.0.1. */
export async function startEndlessHttpServer(): Promise<EndlessHttpServer> {
  let written = 0;
  const open = new Set<{ name: string }>();
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (s: string) => {
      body += s;
    });
    req.on('end', () => {
      const message = JSON.parse(body) as {
        id?: number;
        method: string;
        params?: { name?: string; protocolVersion?: string };
      };
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const answer = (result: object): void => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      };
      if (message.method === 'initialize') {
        answer({
          protocolVersion: message.params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'endless', version: '1.0.0' },
        });
      } else if (message.method === 'tools/list') answer({ tools: TOOLS });
      else if (message.method === 'tools/call' && message.params?.name === 'hello') {
        answer({ content: [{ type: 'text', text: 'hello' }] });
      } else if (message.method === 'tools/call') {
        const entry = { name: String(message.params?.name) };
        open.add(entry);
        res.on('close', () => open.delete(entry));
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const count = (n: number): void => {
          written += n;
        };
        if (entry.name === 'endless') endless(res, count);
        else trickle(res, count);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32601, message: 'no' },
          }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    written: () => written,
    open: () => [...open].map((entry) => entry.name),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
