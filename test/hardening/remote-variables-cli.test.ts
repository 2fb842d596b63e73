// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the configuration under test writes ${...} variables literally
/**
 * Issue 38 (item 12, the CLI; integration tier: it runs the built CLI against an HTTP server).
 * A configuration that sends an environment variable's value to a server not named as this
 * machine (here 127.0.0.2: loopback underneath, but not `localhost`, `127.0.0.1` or `[::1]`)
 * gets a printed warning naming the variable and the server, its text escaped (a variable name
 * may hold any character but `=`); a name listed in the file's `allowRemoteVariables` goes
 * silently. It used to go out without a word.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../cli/build.js';
import { runCli } from '../cli/helpers.js';
import { type RunningHttpServer, startStreamableHttpServer } from '../support/http-servers.js';

const NAME = 'GMK_SECRET\u001b[2J';

let dir: string;
let server: RunningHttpServer;
beforeAll(ensureBuilt, 300_000);
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gemini-mcp-remote-variables-'));
  server = await startStreamableHttpServer('127.0.0.2');
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function run(extra: Record<string, unknown>) {
  const file = join(dir, `mcp-${Object.keys(extra).length}.json`);
  const entry = { url: `${server.origin}/mcp`, headers: { 'X-Key': `\${env:${NAME}}` } };
  await writeFile(file, JSON.stringify({ mcpServers: { bitcoin: entry }, ...extra }));
  return runCli(['tools', '--config', file], { env: { [NAME]: 's3cret' } });
}

describe('issue 38 item 12: the CLI prints a warning when a variable goes to a remote server', () => {
  it('names the variable (escaped) and the server; the header still goes', async () => {
    const result = await run({});
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `the value of environment variable GMK_SECRET\\x1b[2J goes to the remote server "bitcoin" (${server.origin}) in its header "X-Key"`,
    );
    expect(result.stderr).not.toContain('\u001b');
  }, 120_000);

  it("a name in the file's allowRemoteVariables goes silently", async () => {
    const result = await run({ allowRemoteVariables: [NAME] });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('environment variable');
  }, 120_000);
});
