/**
 * `gemini-mcp-kit tools --config` with the configuration file of each client, as it writes it,
 * against real servers; tool filters; the servers' stderr after the output (or in a file),
 * bounded; HTTP failures that name the URL and the cause.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONFIG_FILES,
  type ConfigWorld,
  JSONC_FILES,
  MISSING_COMMA,
  openConfigWorld,
} from '../support/config-files.js';
import { ensureBuilt } from './build.js';
import { EXAMPLE_SERVER, expectOneLine, lines, runCli } from './helpers.js';

const SLOW = 120_000;

let world: ConfigWorld;

beforeAll(ensureBuilt, 300_000);
beforeAll(async () => {
  world = await openConfigWorld();
});
afterAll(() => world?.close());

function declared(stdout: string): string[] {
  const tools = JSON.parse(stdout) as { functionDeclarations: { name: string }[] }[];
  return tools.flatMap((tool) => tool.functionDeclarations.map((d) => d.name));
}

describe('tools --config: each client format, real servers', () => {
  it.each(CONFIG_FILES)(
    '%s (%s): the tools of every server; their stderr after the output, prefixed by name',
    async (fixture, at) => {
      const path = await world.place(fixture, at);
      const run = await runCli(['tools', '--config', path], { env: world.env });
      expect(run.code, run.stderr).toBe(0);
      const names = declared(run.stdout);
      expect(names).toEqual(
        expect.arrayContaining(['read_graph', 'echo', 'list_allowed_directories']),
      );
      if (fixture !== 'claude_desktop_config.json') {
        expect(names).toEqual(expect.arrayContaining(['remote__hello', 'legacy__hello']));
      }
      if (fixture === 'gemini-cli-settings.json') {
        expect(names).not.toContain('get-tiny-image');
        expect(names).not.toContain('delete_entities');
        expect(run.stderr).not.toContain('/mcpServers/filesystem/trust');
      }
      // What the servers wrote to stderr comes after the warnings, each line prefixed.
      expect(run.stderr).toMatch(/^\[filesystem\] Secure MCP Filesystem Server running on stdio$/m);
      expect(run.stderr).toMatch(/^\[memory\] Knowledge Graph MCP Server running on stdio$/m);
      const serverLines = lines(run.stderr).filter((l) => /^\[[a-z]+\] /.test(l));
      const firstServerLine = lines(run.stderr).indexOf(serverLines[0]!);
      expect(
        lines(run.stderr)
          .slice(firstServerLine)
          .every((l) => /^\[[a-z]+\] /.test(l)),
      ).toBe(true);
    },
    SLOW,
  );

  it(
    '--server-log FILE: the servers stderr goes to the file, not the terminal',
    async () => {
      const path = await world.place('claude_desktop_config.json', 'claude.json');
      const log = join(world.workspace, 'servers.log');
      const run = await runCli(
        ['tools', '--config', path, '--server-log', log, '--format', 'table'],
        { env: world.env },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).not.toContain('Secure MCP Filesystem Server');
      expect(readFileSync(log, 'utf8')).toContain(
        '[filesystem] Secure MCP Filesystem Server running on stdio\n',
      );
    },
    SLOW,
  );
});

describe('tools --config: files as editors write them (JSONC)', () => {
  it.each(JSONC_FILES)(
    '%s (%s), with comments: the example server over stdio',
    async (fixture, at) => {
      const path = await world.place(fixture, at);
      const run = await runCli(['tools', '--config', path]);
      expect(run.code, run.stderr).toBe(0);
      expect(declared(run.stdout)).toEqual(['hello', 'bitcoin_price']);
      expect(run.stderr).toBe('');
    },
    SLOW,
  );

  it('a missing comma at line 7: one line naming file:7:7 and the entry, exit 2', async () => {
    const path = await world.place(MISSING_COMMA[0], MISSING_COMMA[1]);
    const run = await runCli(['tools', '--config', path]);
    expect(run.code).toBe(2);
    expect(expectOneLine(run.stderr)).toBe(
      `gemini-mcp-kit: ${path}:7:7: /servers/example: comma expected`,
    );
  });

  it('issue 38.10: a file nested 100,000 levels deep: one line naming the place, exit 2 (no "unexpected error")', async () => {
    const path = join(world.workspace, 'deep.json');
    const deep = 100_000;
    writeFileSync(
      path,
      `{"mcpServers": {"a": {"command": ${'['.repeat(deep)}${']'.repeat(deep)}}}}`,
    );
    const run = await runCli(['tools', '--config', path]);
    expect(run.code).toBe(2);
    expect(expectOneLine(run.stderr)).toBe(
      `gemini-mcp-kit: ${path}:1:544: nested deeper than 512 levels`,
    );
  });
});

describe('tools: typos in a configuration', () => {
  it('an unknown key is a warning with the file, the pointer and a did-you-mean', async () => {
    const path = join(world.workspace, 'typo.json');
    writeFileSync(
      path,
      JSON.stringify({ mcpServers: { hi: { command: 'node', args: [EXAMPLE_SERVER], evn: {} } } }),
    );
    const run = await runCli(['tools', '--config', path]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(
      `warning: [CONFIG] ${path}#/mcpServers/hi/evn: unknown key, ignored (did you mean "env"?)\n`,
    );
  });

  it('mcpServer: one line naming the place, the pointer and mcpServers, exit 2', async () => {
    const path = join(world.workspace, 'typo-top.json');
    writeFileSync(path, JSON.stringify({ mcpServer: { hi: { command: 'node' } } }));
    const run = await runCli(['tools', '--config', path]);
    expect(run.code).toBe(2);
    expect(expectOneLine(run.stderr)).toContain(`${path}:1:14: /mcpServer: expected {"mcpServers"`);
    expect(run.stderr).toContain('did you mean "mcpServers"?');
  });
});

describe('tools --include / --exclude', () => {
  const two = ['--server', `a=node ${EXAMPLE_SERVER}`, '--server', `b=node ${EXAMPLE_SERVER}`];

  it('SERVER/TOOL and TOOL, exact names: only the included, minus the excluded', async () => {
    const only = await runCli(['tools', ...two, '--include', 'a/hello']);
    expect(only.code, only.stderr).toBe(0);
    expect(declared(only.stdout)).toEqual(['hello']);
    const minus = await runCli([
      'tools',
      ...two,
      '--exclude',
      'bitcoin_price',
      '--exclude',
      'b/hello',
    ]);
    expect(declared(minus.stdout)).toEqual(['hello']);
    expect(minus.stderr).toBe('');
  });

  it('a name no server has: one warning naming the flag', async () => {
    const run = await runCli(['tools', ...two, '--include', 'hello', '--include', 'nope']);
    expect(run.code, run.stderr).toBe(0);
    expect(declared(run.stdout)).toEqual(['a__hello', 'b__hello']);
    const warnings = lines(run.stderr).filter((l) => l.includes('FILTER_UNMATCHED'));
    expect(warnings).toEqual([
      'warning: [FILTER_UNMATCHED] */nope: --include nope: no server lists a tool "nope"',
    ]);
  });
});

describe('tools --server', () => {
  it('takes the command as the shell left it: no variables expanded or refused', async () => {
    const run = await runCli([
      'tools',
      '--server',
      `lit=node ${EXAMPLE_SERVER} \${config:x} $HOME`,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(declared(run.stdout)).toEqual(['hello', 'bitcoin_price']);
  });
});

describe('tools: failures', () => {
  it('a refused HTTP connection names the URL and the cause', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const url = `http://127.0.0.1:${port}/mcp`;
    const run = await runCli(['tools', '--server', `web=${url}`]);
    expect(run.code).toBe(2);
    const line = expectOneLine(run.stderr);
    expect(line).toContain(
      `server "web" could not be started: ${url} (Streamable HTTP, SSE on 4xx): `,
    );
    expect(line).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
  });

  it('a server that fails to start: its stderr is shown, bounded to 64 KiB per server', async () => {
    const noisy = 'process.stderr.write("x".repeat(100000) + "\\n", () => process.exit(1))';
    const run = await runCli(['tools', '--server', `noisy=node -e '${noisy}'`]);
    expect(run.code).toBe(2);
    const all = lines(run.stderr);
    expect(all[0]).toBe(`[noisy] ${'x'.repeat(64 * 1024)}`);
    // It closed on the server/discover probe, so it was started again for initialize alone
    // (a legacy server may exit on the probe): both runs wrote their 100,001 characters.
    expect(all[1]).toBe(`[noisy] ... ${2 * 100_001 - 64 * 1024} more characters not kept`);
    expect(all[2]).toMatch(/^gemini-mcp-kit: server "noisy" exited before answering/);
  });
});
