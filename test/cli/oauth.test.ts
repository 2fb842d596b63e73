/**
 * `gemini-mcp-kit tools --server name=http://...` against the MCP SDK's own OAuth-protected example
 * server (`simpleStreamableHttp --oauth`, its demo authorization server on a second port): the
 * CLI prints the authorization URL, the test plays the browser (GETs it and follows the
 * redirects back to the CLI's loopback listener), the CLI finishes the flow and prints the tools.
 * The tokens land in a 0600 file under GEMINI_MCP_AUTH_DIR and the next run uses them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playBrowser } from '../support/oauth-server.js';
import { ensureBuilt } from './build.js';
import { CLI, ROOT, runCli, tempDir } from './helpers.js';

const EXAMPLE = join(
  ROOT,
  'node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js',
);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves when `child`'s stdout has said every one of `phrases`. */
function waitFor(child: ChildProcess, phrases: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      seen += text;
      if (phrases.every((p) => seen.includes(p))) resolve();
    });
    child.on('exit', (code) => reject(new Error(`example server exited (${code}):\n${seen}`)));
  });
}

let server: ChildProcess;
let mcpUrl: string;
let authDir: { dir: string; remove: () => void };

beforeAll(async () => {
  ensureBuilt();
  const [mcpPort, authPort] = [await freePort(), await freePort()];
  mcpUrl = `http://localhost:${mcpPort}/mcp`;
  server = spawn(process.execPath, [EXAMPLE, '--oauth'], {
    cwd: ROOT,
    env: { ...process.env, MCP_PORT: String(mcpPort), MCP_AUTH_PORT: String(authPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stderr?.resume();
  await waitFor(server, [
    'OAuth Authorization Server listening',
    'MCP Streamable HTTP Server listening',
  ]);
  authDir = tempDir();
});

afterAll(() => {
  server?.kill();
  authDir?.remove();
});

describe('gemini-mcp-kit tools against an OAuth-protected server', () => {
  it('AU-2: completes the authorization code flow through the loopback redirect, the test playing the browser', async () => {
    const child = spawn(process.execPath, [CLI, 'tools', '--server', `demo=${mcpUrl}`], {
      cwd: ROOT,
      env: { ...process.env, GEMINI_MCP_AUTH_DIR: authDir.dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    const opened: string[] = [];
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      for (const match of text.matchAll(/^(http:\/\/localhost:\d+\/authorize\?\S+)$/gm)) {
        opened.push(match[1]!);
        void playBrowser(match[1]!);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toContain('server "demo" asks for authorization; open this URL in a browser:');
    expect(code, stderr).toBe(0);
    expect(opened).toHaveLength(1);
    const url = new URL(opened[0]!);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/,
    );
    const tools = JSON.parse(stdout) as { functionDeclarations: { name: string }[] }[];
    expect(tools[0]?.functionDeclarations.map((d) => d.name)).toContain('greet');

    const files = readdirSync(authDir.dir);
    expect(files).toHaveLength(1);
    if (process.platform !== 'win32') {
      expect(statSync(join(authDir.dir, files[0]!)).mode & 0o777).toBe(0o600);
    }
  });

  it('AU-2: the next run uses the stored token: no authorization URL, same tools', async () => {
    const run = await runCli(['tools', '--server', `demo=${mcpUrl}`], {
      env: { GEMINI_MCP_AUTH_DIR: authDir.dir },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('asks for authorization');
    expect(run.stdout).toContain('"greet"');
  });

  it('AU-2: a SIGTERM while the CLI waits for the browser ends it (the loopback listener does not keep it alive)', async () => {
    const fresh = tempDir();
    try {
      const child = spawn(process.execPath, [CLI, 'tools', '--server', `demo=${mcpUrl}`], {
        cwd: ROOT,
        env: { ...process.env, GEMINI_MCP_AUTH_DIR: fresh.dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (text: string) => {
        stderr += text;
        if (stderr.includes('/authorize?')) child.kill('SIGTERM');
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr).toContain('asks for authorization');
      expect(code).not.toBe(0);
    } finally {
      fresh.remove();
    }
  });
});
