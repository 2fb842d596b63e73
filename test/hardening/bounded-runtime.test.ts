/**
 * Issue 13 (runtime half): work a server can make the runtime do is bounded. Storms of
 * `list_changed` are coalesced, Streamable HTTP responses are capped and cut off at a call's
 * end, stdio servers end with their whole process group, and options out of range are refused
 * with a typed error. Every call is answered exactly once.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import { connectServers as connectDirect } from '../../src/runtime/mcp/connect.js';
import { answerCalls } from '../../src/runtime/turn/answer.js';
import { ROOT } from '../cli/helpers.js';
import { type EndlessHttpServer, startEndlessHttpServer } from '../support/endless-http-server.js';
import {
  connectReapedAfterEach,
  exited,
  FAULT_SERVER,
  inMemoryServers,
  pidOf,
} from '../support/runtime-servers.js';

const connectServers = connectReapedAfterEach();

describe('issue 13: list_changed storms are coalesced', () => {
  it('200 list_changed notifications over 10,000 tools cost at most 3 re-lists, not 200', async () => {
    const c = await connectServers(
      {
        mcpServers: {
          fault: { ...FAULT_SERVER, env: { FAULT_TOOL_COUNT: '10000', FAULT_PAGE_SIZE: '1000' } },
        },
      },
      { timeoutMs: 60_000 },
    );
    const client = c.clients.get('fault')!;
    const count = async (): Promise<number> => {
      const result = await client.callTool({ name: 'cancellations', arguments: {} });
      return (result.structuredContent as { lists: number }).lists;
    };
    const pages = await count(); // one full listing: 10,015 tools in pages of 1,000
    expect(pages).toBe(11);
    const changes: unknown[] = [];
    c.onToolsChanged((change) => changes.push(change));
    await client.callTool({ name: 'storm', arguments: { count: 200 } });
    // Queued behind every refresh the storm started: when it is done, so are they.
    await c.refreshTools('fault');
    const relists = Math.ceil((await count()) / pages) - 2; // less the first listing and refreshTools'
    // Bound: one re-list running plus one pending (3 allows a notification split across reads).
    expect(relists).toBeLessThanOrEqual(3);
    expect(changes.length).toBeLessThanOrEqual(3);
    expect(c.toolset.entries.length).toBe(10_015);
  }, 120_000);
});

/** Runs `code` (an ES module importing the built package as `PKG`) in a node with a capped heap. */
function runCapped(code: string, heapMb: number): Promise<{ code: number | null; out: string }> {
  const pkg = JSON.stringify(join(ROOT, 'dist', 'index.js'));
  const source = `const PKG = await import(${pkg});\n${code}`;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${heapMb}`, '--input-type=module', '-e', source],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      out += s;
    });
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      out += s;
    });
    child.on('error', reject);
    child.on('close', (exit) => resolve({ code: exit, out }));
  });
}

describe('issue 13: Streamable HTTP downloads are bounded', () => {
  let server: EndlessHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('an endless SSE event is cut at maxMessageBytes: one answer per call, in a 64 MB heap', async () => {
    server = await startEndlessHttpServer();
    const run = await runCapped(
      `
      const c = await PKG.connectServers({ mcpServers: { web: { url: ${JSON.stringify(server.url)} } } },
        { maxMessageBytes: 1024 * 1024 });
      const turn = { role: 'model', parts: [
        { functionCall: { id: 'a', name: 'endless', args: {} } },
        { functionCall: { id: 'b', name: 'hello', args: {} } },
      ] };
      const content = await PKG.answerCalls(turn, c.toolset, c.clients, { timeoutMs: 30000 });
      await c.close();
      console.log(JSON.stringify({ content, heapMb: process.memoryUsage().heapUsed / 2 ** 20 }));
      `,
      64,
    );
    expect(run.code, run.out.slice(0, 2000)).toBe(0);
    const { content } = JSON.parse(run.out) as {
      content: { parts: { functionResponse: { id: string; response: Record<string, string> } }[] };
    };
    expect(content.parts.map((p) => p.functionResponse.id)).toEqual(['a', 'b']);
    expect(content.parts[0]?.functionResponse.response.error).toMatch(
      /^TRANSPORT: .*passed 1048576 bytes \(maxMessageBytes\); the download was stopped/,
    );
    expect(content.parts[1]?.functionResponse.response.output).toBe('hello');
    // The server stopped writing soon after the cap: at most a few socket buffers past 1 MiB.
    expect(server.written()).toBeLessThan(32 * 1024 * 1024);
    expect(server.open()).toEqual([]);
  });

  it('a timeout aborts the download: the response socket is closed, the body stops', async () => {
    server = await startEndlessHttpServer();
    const c = await connectServers({ mcpServers: { web: { url: server.url } } });
    const content = await answerCalls(
      { role: 'model', parts: [{ functionCall: { id: 't', name: 'trickle', args: {} } }] },
      c.toolset,
      c.clients,
      { timeoutMs: 500 },
    );
    expect(content.parts?.map((p) => p.functionResponse?.id)).toEqual(['t']);
    expect(String(content.parts?.[0]?.functionResponse?.response.error)).toMatch(/^TIMEOUT/);
    // Generous ceiling: the socket closes within 10 s of the TIMEOUT answer (at once, in fact).
    const deadline = Date.now() + 10_000;
    while (server.open().length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(server.open()).toEqual([]);
    const after = server.written();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.written()).toBe(after);
  });

  it("a caller's abort stops the download too", async () => {
    server = await startEndlessHttpServer();
    const c = await connectServers({ mcpServers: { web: { url: server.url } } });
    const abort = new AbortController();
    const running = answerCalls(
      { role: 'model', parts: [{ functionCall: { id: 'c', name: 'trickle', args: {} } }] },
      c.toolset,
      c.clients,
      { timeoutMs: 30_000, signal: abort.signal },
    );
    while (server.open().length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    abort.abort();
    const content = await running;
    expect(String(content.parts?.[0]?.functionResponse?.response.error)).toMatch(/^CANCELLED/);
    const deadline = Date.now() + 10_000;
    while (server.open().length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(server.open()).toEqual([]);
  });
});

describe('issue 13: option edges are refused, typed, naming the option', () => {
  const turn = {
    role: 'model' as const,
    parts: [
      { functionCall: { id: 'a', name: 'echo', args: { text: 'a' } } },
      { functionCall: { id: 'b', name: 'echo', args: { text: 'b' } } },
    ],
  };
  const refused = (option: string) =>
    expect.objectContaining({ code: 'INVALID_INPUT', data: { option } });

  for (const [option, value] of [
    ['concurrency', Number.NaN],
    ['concurrency', 0],
    ['concurrency', 1.5],
    ['timeoutMs', 2 ** 31],
    ['timeoutMs', Number.POSITIVE_INFINITY],
    ['timeoutMs', -1],
  ] as const) {
    it(`answerCalls with ${option}: ${value} is INVALID_INPUT, not a TypeError or an instant TIMEOUT`, async () => {
      const servers = await inMemoryServers();
      try {
        const answering = answerCalls(turn, servers.toolset, servers.clients, { [option]: value });
        await expect(answering).rejects.toBeInstanceOf(GeminiMcpError);
        await expect(answering).rejects.toEqual(refused(option));
      } finally {
        await servers.close();
      }
    });
  }

  it('the largest timer timeout and Infinity concurrency are accepted', async () => {
    const servers = await inMemoryServers();
    try {
      const content = await answerCalls(turn, servers.toolset, servers.clients, {
        timeoutMs: 2 ** 31 - 1,
        concurrency: Number.POSITIVE_INFINITY,
      });
      expect(content.parts?.map((p) => p.functionResponse?.response.output)).toEqual(['a', 'b']);
    } finally {
      await servers.close();
    }
  });

  it('connectServers refuses a bad timeoutMs, probeTimeoutMs or maxMessageBytes before starting anything', async () => {
    const config = { mcpServers: { fault: FAULT_SERVER } };
    await expect(connectDirect(config, { timeoutMs: 2 ** 31 })).rejects.toEqual(
      refused('timeoutMs'),
    );
    await expect(connectDirect(config, { probeTimeoutMs: 0 })).rejects.toEqual(
      refused('probeTimeoutMs'),
    );
    await expect(connectDirect(config, { maxMessageBytes: Number.NaN })).rejects.toEqual(
      refused('maxMessageBytes'),
    );
  });
});

/** The fault server behind `sh -c` (not exec'd: sh stays its parent), ignoring stdin's end. */
function wrappedServer(pidFile: string) {
  const script = join(ROOT, 'test', 'support', 'fault-server.mjs');
  return {
    command: 'sh',
    args: ['-c', `"${process.execPath}" "${script}"; :`],
    env: { FAULT_IGNORE_EOF: '1', FAULT_PID_FILE: pidFile },
  };
}

async function pidFrom(file: string): Promise<number> {
  const deadline = Date.now() + 20_000;
  while (!existsSync(file) || readFileSync(file, 'utf8') === '') {
    if (Date.now() > deadline) throw new Error(`${file} was never written`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Number(readFileSync(file, 'utf8'));
}

describe.skipIf(process.platform === 'win32')(
  'issue 13: stdio servers end with their process group',
  () => {
    let dir = '';
    afterEach(() => {
      if (dir !== '') rmSync(dir, { recursive: true, force: true });
      dir = '';
    });

    it('close() ends a wrapper (sh -c) and the server under it that ignores stdin EOF', async () => {
      dir = mkdtempSync(join(tmpdir(), 'gemini-mcp-pg-'));
      const pidFile = join(dir, 'server.pid');
      const c = await connectDirect(
        { mcpServers: { fault: wrappedServer(pidFile) } },
        { stderr: 'ignore' },
      );
      const wrapper = pidOf(c.clients.get('fault')!)!;
      const server = await pidFrom(pidFile);
      expect(server).not.toBe(wrapper);
      await c.close();
      // Ceiling: stdin closed, 2 s, SIGTERM to the group; both are gone well within 10 s.
      expect(await exited(wrapper, 10_000), `wrapper ${wrapper} still running`).toBe(true);
      expect(await exited(server, 10_000), `server ${server} still running`).toBe(true);
    }, 30_000);

    for (const [signal, code] of [
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const) {
      it(`the CLI on ${signal} closes its servers and exits ${code}`, async () => {
        dir = mkdtempSync(join(tmpdir(), 'gemini-mcp-pg-'));
        const pidFile = join(dir, 'server.pid');
        const config = join(dir, 'mcp.json');
        writeFileSync(config, JSON.stringify({ mcpServers: { fault: wrappedServer(pidFile) } }));
        const turn = join(dir, 'turn.json');
        writeFileSync(
          turn,
          JSON.stringify({
            role: 'model',
            parts: [{ functionCall: { id: 'h', name: 'hang', args: {} } }],
          }),
        );
        const cli = spawn(
          process.execPath,
          [
            join(ROOT, 'dist', 'cli', 'main.js'),
            'answer',
            '--config',
            config,
            '--timeout',
            '600000',
            turn,
          ],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        const ended = new Promise<number | null>((resolve) =>
          cli.on('close', (exit) => resolve(exit)),
        );
        const server = await pidFrom(pidFile);
        await new Promise((resolve) => setTimeout(resolve, 500)); // the call is running
        cli.kill(signal);
        expect(await ended).toBe(code);
        expect(await exited(server, 10_000), `server ${server} still running`).toBe(true);
      }, 60_000);
    }
  },
);
