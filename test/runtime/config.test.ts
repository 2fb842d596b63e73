/** Reading the configuration formats: detection by shape, checks with pointers, warnings, variables. */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the configurations under test write ${...} variables literally
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import { parseEnvFile, readEnvFile } from '../../src/runtime/mcp/config/env-file.js';
import { parseServersConfig, readServersConfig } from '../../src/runtime/mcp/config/index.js';
import type { ConfigReadOptions, ConfigWarning } from '../../src/runtime/mcp/config/types.js';
import { describeStartFailure } from '../../src/runtime/mcp/transports/index.js';

const env = { TOKEN: 't0k', HOME_DIR: '/home/me' };

function read(config: unknown, options: ConfigReadOptions = {}) {
  const warnings: ConfigWarning[] = [];
  const entries = parseServersConfig(config, {
    env,
    workspaceFolder: '/work/project',
    onWarning: (w) => warnings.push(w),
    ...options,
  });
  return { entries, warnings };
}

function refusal(config: unknown, options: ConfigReadOptions = {}): GeminiMcpError {
  try {
    read(config, options);
  } catch (error) {
    expect(error).toBeInstanceOf(GeminiMcpError);
    expect((error as GeminiMcpError).code).toBe('CONFIG_INVALID');
    return error as GeminiMcpError;
  }
  throw new Error('expected CONFIG_INVALID');
}

describe('EX-5: formats told apart by shape', () => {
  it('EX-5: mcpServers (Claude Desktop, Cursor): url is Streamable HTTP with the SSE fallback', () => {
    const { entries } = read({
      mcpServers: {
        local: { command: 'node', args: ['server.js'] },
        web: { url: 'https://example.com/mcp' },
        typed: { type: 'http', url: 'https://example.com/mcp' },
        strict: { type: 'streamable-http', url: 'https://example.com/mcp' },
        old: { type: 'sse', url: 'https://example.com/sse' },
      },
    });
    expect(entries.map((e) => [e.serverId, e.transport, 'sseFallback' in e])).toEqual([
      ['local', 'stdio', false],
      ['web', 'http', true],
      ['typed', 'http', true],
      ['strict', 'http', false],
      ['old', 'sse', false],
    ]);
    expect(entries.map((e) => e.pointer)).toEqual([
      '/mcpServers/local',
      '/mcpServers/web',
      '/mcpServers/typed',
      '/mcpServers/strict',
      '/mcpServers/old',
    ]);
  });

  it('EX-5: servers (VS Code mcp.json, or settings.json mcp.servers)', () => {
    const config = {
      servers: { fs: { type: 'stdio', command: 'npx' }, old: { type: 'sse', url: 'http://a/sse' } },
    };
    expect(read(config).entries.map((e) => [e.pointer, e.transport])).toEqual([
      ['/servers/fs', 'stdio'],
      ['/servers/old', 'sse'],
    ]);
    expect(read({ mcp: config }).entries.map((e) => e.pointer)).toEqual([
      '/mcp/servers/fs',
      '/mcp/servers/old',
    ]);
  });

  it('EX-5: gemini-cli settings: url is SSE, httpUrl Streamable HTTP (no fallback), filters, timeout, trust read into the entry', () => {
    const { entries, warnings } = read({
      theme: 'GitHub',
      mcpServers: {
        old: { url: 'http://127.0.0.1:1/sse' },
        web: {
          httpUrl: 'http://127.0.0.1:1/mcp',
          headers: { Authorization: 'Bearer $TOKEN' },
          timeout: 5000,
        },
        fs: {
          command: 'npx',
          includeTools: ['read_file'],
          excludeTools: ['write_file'],
          trust: true,
        },
      },
    });
    expect(entries).toEqual([
      {
        serverId: 'old',
        pointer: '/mcpServers/old',
        transport: 'sse',
        config: { url: 'http://127.0.0.1:1/sse' },
      },
      {
        serverId: 'web',
        pointer: '/mcpServers/web',
        transport: 'http',
        timeoutMs: 5000,
        config: { url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer t0k' } },
      },
      {
        serverId: 'fs',
        pointer: '/mcpServers/fs',
        transport: 'stdio',
        filter: { include: ['read_file'], exclude: ['write_file'] },
        trust: true,
        config: { command: 'npx' },
      },
    ]);
    expect(warnings).toEqual([]);
  });

  it('EX-5: a gemini-cli-only key in an entry is enough to tell gemini-cli; format forces a reading', () => {
    const config = { mcpServers: { a: { url: 'http://h/sse', includeTools: ['x'] } } };
    expect(read(config).entries[0]?.transport).toBe('sse');
    expect(read(config, { format: 'mcp-servers' }).entries[0]?.transport).toBe('http');
  });

  it('issue 35: trust is read in every format (never a sign of gemini-cli: a url stays Streamable HTTP); not a boolean is CONFIG_INVALID', () => {
    const claude = read({ mcpServers: { a: { url: 'http://h/mcp', trust: true } } });
    expect(claude.entries[0]).toMatchObject({ transport: 'http', sseFallback: true, trust: true });
    expect(claude.warnings).toEqual([]);
    const vscode = read({ servers: { a: { command: 'x', trust: true } } });
    expect(vscode.entries[0]).toMatchObject({ trust: true });
    expect(
      read({ mcpServers: { a: { command: 'x', trust: false } } }).entries[0],
    ).not.toHaveProperty('trust');
    expect(() => read({ mcpServers: { a: { command: 'x', trust: 'yes' } } })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', path: '/mcpServers/a/trust' }),
    );
  });

  it('EX-5: disabled entries are left out', () => {
    expect(read({ mcpServers: { off: { command: 'x', disabled: true } } }).entries).toEqual([]);
  });
});

describe('EX-5: typos get warnings with pointers and a did-you-mean', () => {
  it('EX-5: an unknown key in an entry (evn -> env)', () => {
    const { warnings } = read({
      mcpServers: { fs: { command: 'npx', evn: { A: '1' }, agrs: [] } },
    });
    expect(warnings).toEqual([
      {
        code: 'UNKNOWN_KEY',
        message: 'unknown key, ignored (did you mean "env"?)',
        path: '/mcpServers/fs/evn',
      },
      {
        code: 'UNKNOWN_KEY',
        message: 'unknown key, ignored (did you mean "args"?)',
        path: '/mcpServers/fs/agrs',
      },
    ]);
  });

  it('EX-5: mcpServer alone is an error at its pointer naming mcpServers; next to mcpServers a warning', () => {
    const error = refusal({ mcpServer: { fs: { command: 'npx' } } });
    expect(error.path).toBe('/mcpServer');
    expect(error.message).toContain('did you mean "mcpServers"?');
    const { warnings } = read({ mcpServers: {}, mcpServer: {} });
    expect(warnings).toEqual([
      {
        code: 'UNKNOWN_KEY',
        message: 'unknown key, ignored (did you mean "mcpServers"?)',
        path: '/mcpServer',
      },
    ]);
  });

  it("EX-5: other top-level keys of a client's settings file are left alone", () => {
    const { warnings } = read({
      globalShortcut: 'Ctrl+Space',
      mcp: { allowed: [] },
      general: {},
      mcpServers: { a: { command: 'x', description: 'a note' } },
    });
    expect(warnings).toEqual([]);
  });
});

describe('EX-5: every error carries a JSON pointer', () => {
  it.each([
    ['not an object', 42, ''],
    ['no servers', { other: {} }, ''],
    ['mcpServers not an object', { mcpServers: [] }, '/mcpServers'],
    ['an entry not an object', { mcpServers: { a: 1 } }, '/mcpServers/a'],
    ['neither command nor url', { mcpServers: { a: { args: [] } } }, '/mcpServers/a'],
    [
      'both command and url',
      { mcpServers: { a: { command: 'x', url: 'http://a' } } },
      '/mcpServers/a',
    ],
    [
      'an arg not a string',
      { mcpServers: { a: { command: 'x', args: ['ok', 1] } } },
      '/mcpServers/a/args/1',
    ],
    [
      'an env value not a string',
      { servers: { a: { command: 'x', env: { A: 1 } } } },
      '/servers/a/env/A',
    ],
    [
      'a header not a string',
      { mcpServers: { a: { url: 'http://a', headers: { H: true } } } },
      '/mcpServers/a/headers/H',
    ],
    ['a bad url', { mcpServers: { a: { url: 'not a url' } } }, '/mcpServers/a/url'],
    [
      'a url that is not http',
      { mcpServers: { a: { url: 'file:///etc/passwd' } } },
      '/mcpServers/a/url',
    ],
    [
      'an unknown type',
      { servers: { a: { type: 'websocket', url: 'http://a' } } },
      '/servers/a/type',
    ],
    [
      'stdio without command',
      { servers: { a: { type: 'stdio', url: 'http://a' } } },
      '/servers/a/type',
    ],
    [
      'includeTools not strings',
      { mcpServers: { a: { command: 'x', includeTools: [3] } } },
      '/mcpServers/a/includeTools/0',
    ],
    [
      'a bad timeout',
      { mcpServers: { a: { httpUrl: 'http://a', timeout: -1 } } },
      '/mcpServers/a/timeout',
    ],
    [
      'url and httpUrl',
      { mcpServers: { a: { url: 'http://a', httpUrl: 'http://a' } } },
      '/mcpServers/a',
    ],
    [
      'disabled not a boolean',
      { mcpServers: { a: { command: 'x', disabled: 'yes' } } },
      '/mcpServers/a/disabled',
    ],
  ])('EX-5: %s', (_name, config, pointer) => {
    const error = refusal(config);
    expect(error.path).toBe(pointer);
    expect(error.message.startsWith(`${pointer || '(root)'}: `)).toBe(true);
  });

  it('EX-5: an unknown type suggests the close one', () => {
    expect(refusal({ servers: { a: { type: 'ssse', url: 'http://a' } } }).message).toContain(
      'did you mean "sse"?',
    );
  });
});

describe('EX-5: variables, expanded by gemini-mcp-kit (no shell)', () => {
  it('EX-5: VS Code and Cursor variables', () => {
    const { entries } = read({
      servers: {
        fs: {
          command: '${workspaceFolder}/bin/server',
          args: [
            '${userHome}',
            '${workspaceFolderBasename}',
            'a${pathSeparator}b',
            '${env:TOKEN}',
            '$(rm -rf /)',
            '$TOKEN',
          ],
          env: { HOME_DIR: '${env:HOME_DIR}' },
          cwd: '${workspaceFolder}',
        },
      },
    });
    expect(entries[0]?.config).toEqual({
      command: '/work/project/bin/server',
      args: [homedir(), 'project', `a${sep}b`, 't0k', '$(rm -rf /)', '$TOKEN'],
      env: { HOME_DIR: '/home/me' },
      cwd: '/work/project',
    });
  });

  it('EX-5: ${input:...} is refused with its description and pointer', () => {
    const error = refusal({
      inputs: [
        { type: 'promptString', id: 'api-key', description: 'Your API key', password: true },
      ],
      servers: { a: { command: 'x', env: { KEY: '${input:api-key}' } } },
    });
    expect(error.path).toBe('/servers/a/env/KEY');
    expect(error.message).toContain('${input:api-key}');
    expect(error.message).toContain('"Your API key"');
    expect(error.message).toContain('${env:NAME}');
  });

  it('EX-5: an unknown variable is refused; ${NAME} in VS Code suggests ${env:NAME}', () => {
    expect(refusal({ servers: { a: { command: '${config:x}' } } }).path).toBe('/servers/a/command');
    expect(refusal({ servers: { a: { command: '${TOKEN}' } } }).message).toContain(
      'did you mean ${env:TOKEN}?',
    );
  });

  it('EX-5: Claude Code ${NAME} and ${NAME:-default}; gemini-cli $NAME; an unset variable warns and expands to ""', () => {
    const claude = read({
      mcpServers: { a: { command: 'x', args: ['${TOKEN}', '${MISSING:-fallback}', '${MISSING}'] } },
    });
    expect(claude.entries[0]?.config).toMatchObject({ args: ['t0k', 'fallback', ''] });
    expect(claude.warnings).toEqual([
      {
        code: 'VARIABLE_UNSET',
        message: 'environment variable MISSING is not set; it expands to ""',
        path: '/mcpServers/a/args/2',
      },
    ]);
    const gemini = read({
      theme: 'GitHub',
      mcpServers: { a: { command: 'x', args: ['$TOKEN/x', '$', '${TOKEN}'] } },
    });
    expect(gemini.entries[0]?.config).toMatchObject({ args: ['t0k/x', '$', 't0k'] });
  });

  it('EX-5: what a variable expands to is not expanded again; an unclosed ${ is kept', () => {
    const { entries } = read(
      { servers: { a: { command: 'x', args: ['${env:LOOP}', 'a${b'] } } },
      { env: { LOOP: '${env:LOOP}' } },
    );
    expect(entries[0]?.config).toMatchObject({ args: ['${env:LOOP}', 'a${b'] });
  });

  it('EX-5: envFile is resolved against the workspace folder', () => {
    const { entries } = read({ servers: { a: { command: 'x', envFile: '.env' } } });
    expect(entries[0]?.config).toMatchObject({ envFile: join('/work/project', '.env') });
  });

  it('EX-5: env files as dotenv reads them', () => {
    expect(
      parseEnvFile(
        '# comment\nA=1\nexport B="two words"\nC=three # note\n\nnot an assignment\nD=\'x#y\'\r\nA=again\n__proto__=p',
      ),
    ).toEqual(JSON.parse('{"A":"again","B":"two words","C":"three","D":"x#y","__proto__":"p"}'));
  });
});

describe('EX-5: readServersConfig', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gemini-mcp-config-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('EX-5: errors name the file, the line and column, and keep the pointer; not JSON and missing files too', async () => {
    const file = join(dir, 'mcp.json');
    await writeFile(file, JSON.stringify({ mcpServers: { a: { command: 1 } } }));
    const error = (await readServersConfig(file).catch((e: unknown) => e)) as GeminiMcpError;
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.path).toBe('/mcpServers/a/command');
    expect(error.message).toBe(`${file}:1:31: /mcpServers/a/command: must be a string, got 1`);
    expect(error.data).toMatchObject({ file, line: 1, column: 31 });
    await writeFile(file, '{nope');
    await expect(readServersConfig(file)).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      path: '',
    });
    await expect(readServersConfig(file)).rejects.toThrow(
      `${file}:1:2: (root): unexpected character`,
    );
    await expect(readServersConfig(join(dir, 'none.json'))).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
    });
  });
});

describe('EX-5: bounds on what reading and failing may hold', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gemini-mcp-envfile-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('EX-5: an env file over 1 MiB is refused at the envFile pointer', async () => {
    const file = join(dir, 'big.env');
    await writeFile(file, `A=${'x'.repeat(1024 * 1024)}\n`);
    await expect(readEnvFile(file, '/servers/a/envFile')).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      path: '/servers/a/envFile',
    });
  });

  it("EX-5: a start failure's reason is cut at 1000 characters (a server's error page)", () => {
    const [entry] = parseServersConfig({ mcpServers: { web: { url: 'http://127.0.0.1:1/mcp' } } });
    const text = describeStartFailure(entry!, new Error('<html>'.repeat(1000)));
    expect(text.startsWith('http://127.0.0.1:1/mcp (Streamable HTTP, SSE on 4xx): <html>')).toBe(
      true,
    );
    expect(text.length).toBeLessThan(1100);
    expect(text.endsWith('...')).toBe(true);
  });
});

describe('EX-5: configuration files as editors write them (JSONC)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gemini-mcp-jsonc-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function readText(text: string, name = 'mcp.json') {
    const file = join(dir, name);
    await writeFile(file, text);
    const warnings: ConfigWarning[] = [];
    const entries = await readServersConfig(file, {
      env,
      workspaceFolder: '/work/project',
      onWarning: (w) => warnings.push(w),
    });
    return { file, entries, warnings };
  }

  async function refusedText(text: string, name = 'mcp.json') {
    const file = join(dir, name);
    await writeFile(file, text);
    const error = await readServersConfig(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GeminiMcpError);
    expect((error as GeminiMcpError).code).toBe('CONFIG_INVALID');
    return { file, error: error as GeminiMcpError };
  }

  // Each format with `//` and `/* */` comments and trailing commas, and the same without.
  const FORMATS: [string, string, unknown][] = [
    [
      'Claude Desktop',
      `{
        // Claude Desktop's own settings sit beside the servers
        "globalShortcut": "Ctrl+Space",
        "mcpServers": {
          "fs": { "command": "npx", "args": ["-y", "server-filesystem", "/tmp",], }, /* a note */
        },
      }`,
      {
        globalShortcut: 'Ctrl+Space',
        mcpServers: { fs: { command: 'npx', args: ['-y', 'server-filesystem', '/tmp'] } },
      },
    ],
    [
      'Cursor',
      `{"mcpServers": {"web": {"url": "https://example.com/mcp", /* Streamable HTTP */},},}`,
      { mcpServers: { web: { url: 'https://example.com/mcp' } } },
    ],
    [
      'Claude Code',
      `{
        "mcpServers": {
          // project scope
          "api": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer \${TOKEN}", }, },
        },
      }`,
      {
        mcpServers: {
          api: {
            type: 'http',
            url: 'https://example.com/mcp',
            headers: { Authorization: 'Bearer ${TOKEN}' },
          },
        },
      },
    ],
    [
      'VS Code mcp.json',
      `{
        // VS Code writes this one
        "inputs": [/* none yet */],
        "servers": {
          "fs": {
            "type": "stdio",
            "command": "npx", // the package runner
            "args": ["-y", "server-filesystem", "\${workspaceFolder}",],
          },
        },
      }`,
      {
        inputs: [],
        servers: {
          fs: {
            type: 'stdio',
            command: 'npx',
            args: ['-y', 'server-filesystem', '${workspaceFolder}'],
          },
        },
      },
    ],
    [
      'VS Code settings.json',
      `{
        "editor.fontSize": 14, // user settings around mcp.servers
        "mcp": { "servers": { "fs": { "command": "npx", }, }, },
      }`,
      { 'editor.fontSize': 14, mcp: { servers: { fs: { command: 'npx' } } } },
    ],
    [
      'gemini-cli settings.json',
      `{
        // gemini-cli reads comments in its settings
        "theme": "GitHub",
        "mcpServers": {
          "remote": {
            "httpUrl": "https://example.com/mcp", /* Streamable HTTP */
            "timeout": 30000,
          },
        },
      }`,
      {
        theme: 'GitHub',
        mcpServers: { remote: { httpUrl: 'https://example.com/mcp', timeout: 30000 } },
      },
    ],
  ];

  it.each(FORMATS)(
    'EX-5: %s with comments and trailing commas reads as its JSON',
    async (_, text, json) => {
      const { entries, warnings } = await readText(text);
      expect(entries).toEqual(read(json).entries);
      expect(warnings).toEqual(read(json).warnings);
    },
  );

  it('EX-5: a byte order mark is skipped; __proto__ is an own key, as JSON.parse makes it', async () => {
    const { entries } = await readText('\ufeff{"mcpServers": {"__proto__": {"command": "x"}}}');
    expect(entries.map((e) => [e.serverId, e.pointer])).toEqual([
      ['__proto__', '/mcpServers/__proto__'],
    ]);
    const polluted = await readText(
      '{"__proto__": {"mcpServers": {"a": {"command": "x"}}}, "servers": {}}',
    );
    expect(polluted.entries).toEqual([]);
  });

  const BROKEN = `{
  // VS Code
  "servers": {
    "fs": {
      "type": "stdio",
      "command": "npx"
      "args": ["-y", "server-filesystem"]
    }
  }
}
`;

  it.each([
    ['a missing comma at line 7', BROKEN, 7, 7, '/servers/fs', 'comma expected'],
    [
      'the same with CRLF line ends',
      BROKEN.replaceAll('\n', '\r\n'),
      7,
      7,
      '/servers/fs',
      'comma expected',
    ],
    [
      'a missing value in an array',
      '{"mcpServers": {"a": {"args": [1,,2]}}}',
      1,
      34,
      '/mcpServers/a/args',
      'value expected',
    ],
    [
      'a string not closed',
      '{\n  "servers": {\n    "a": "x',
      3,
      10,
      '/servers/a',
      'string not closed',
    ],
    ['a comment not closed', '{\n  /* note\n  "servers": {}\n}', 2, 3, '', 'comment not closed'],
    [
      'a second value',
      '{"servers": {}}\n{}',
      2,
      1,
      undefined,
      'end of file expected (one value per file)',
    ],
    ['a single-quoted string', "{'servers': {}}", 1, 2, '', 'unexpected character'],
  ] as const)(
    'EX-5: %s: the file, line and column, and the pointer of the value it lies in',
    async (_, text, line, column, pointer, what) => {
      const { file, error } = await refusedText(text);
      const where = pointer === undefined ? '' : `${pointer || '(root)'}: `;
      expect(error.message).toBe(`${file}:${line}:${column}: ${where}${what}`);
      expect(error.path).toBe(pointer);
      expect(error.data).toMatchObject({ file, line, column });
    },
  );

  it('EX-5: a file of nothing but a comment: value expected where the text ends', async () => {
    const { file, error } = await refusedText('  // nothing\n');
    expect(error.message).toBe(`${file}:2:1: value expected`);
  });

  it('EX-5: errors found after parsing name the line and column of the bad value', async () => {
    const text = `{
  "servers": {
    "fs": {
      "command": "npx",
      "args": ["-y", 42],
    },
  },
}`;
    const { file, error } = await refusedText(text);
    expect(error.message).toBe(`${file}:5:22: /servers/fs/args/1: must be a string, got 42`);
    expect(error.path).toBe('/servers/fs/args/1');
    const top = await refusedText('{\n  // a typo\n  "mcpServer": {}\n}');
    expect(top.error.message).toMatch(new RegExp(`^${top.file}:3:16: /mcpServer: expected`));
    // The last of duplicate keys is the value read, and the place named.
    const twice = await refusedText('{"mcpServers": {"a": {"command": "x"}, "a": {"command": 1}}}');
    expect(twice.error.message).toBe(
      `${twice.file}:1:57: /mcpServers/a/command: must be a string, got 1`,
    );
  });
});
