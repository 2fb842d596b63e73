/**
 * Issue 38 (item 10): reading a configuration is bounded, whatever the file holds. Nesting is
 * checked before anything walks the value (a file nested 100,000 levels deep used to overflow
 * the stack: "unexpected error" in the CLI); messages quote a bounded excerpt of a bad value (a
 * 5 MB value used to give a 5 MB message); only the first five unknown keys get a did-you-mean
 * search and a warning of their own (1,000,000 unknown keys used to take over a minute).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import { parseServersConfig, readServersConfig } from '../../src/runtime/mcp/config/index.js';
import type { ConfigWarning } from '../../src/runtime/mcp/config/types.js';

/** What a message may add around the 200 characters it quotes: pointer, file, size. */
const MESSAGE_ROOM = 400;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gemini-mcp-bounded-config-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function refusedFile(name: string, text: string): Promise<GeminiMcpError> {
  const file = join(dir, name);
  await writeFile(file, text);
  const error = await readServersConfig(file).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(GeminiMcpError);
  expect((error as GeminiMcpError).code).toBe('CONFIG_INVALID');
  return error as GeminiMcpError;
}

function refusedValue(config: unknown): GeminiMcpError {
  try {
    parseServersConfig(config);
  } catch (error) {
    expect(error).toBeInstanceOf(GeminiMcpError);
    expect((error as GeminiMcpError).code).toBe('CONFIG_INVALID');
    return error as GeminiMcpError;
  }
  throw new Error('expected CONFIG_INVALID');
}

/** An array nested `depth` levels inside itself: `[[[...]]]`. */
function nestedArray(depth: number): unknown {
  let value: unknown[] = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

describe('issue 38.10: nesting is checked before the value is walked', () => {
  it('a file nested 100,000 levels deep: CONFIG_INVALID at the line and column of the first bracket too deep, no stack overflow', async () => {
    const deep = 100_000;
    const text = `{\n  "mcpServers": {"a": {"command": ${'['.repeat(deep)}${']'.repeat(deep)}}}\n}`;
    const error = await refusedFile('deep.json', text);
    // Levels 0-2 are the objects; the arrays open at column 35 of line 2, level 513 at 35 + 510.
    expect(error.message).toBe(`${join(dir, 'deep.json')}:2:545: nested deeper than 512 levels`);
    expect(error.data).toMatchObject({ line: 2, column: 545, maxDepth: 512 });
  });

  it('512 levels are read, 513 refused; brackets in strings and comments do not count', async () => {
    const at = (depth: number) =>
      `{"mcpServers": {"a": {"command": "x", "note": ${JSON.stringify(nestedArray(depth - 3))}}}}`;
    const file = join(dir, 'edge.json');
    await writeFile(file, `// [[[[ ${'['.repeat(600)}\n${at(513)}`);
    await expect(readServersConfig(file)).resolves.toHaveLength(1);
    await expect(refusedFile('over.json', at(514))).resolves.toMatchObject({
      data: { maxDepth: 512 },
    });
    await writeFile(file, `{"mcpServers": {"a": {"command": "${'['.repeat(100_000)}"}}}`);
    await expect(readServersConfig(file)).resolves.toHaveLength(1);
  });

  it('mismatched brackets (`[}` repeated 100,000 times) cannot nest the parser past the bound', async () => {
    const error = await refusedFile('mismatched.json', `{"mcpServers": ${'[},'.repeat(100_000)}}`);
    expect(error.message).toContain('nested deeper than 512 levels');
  });

  it('an object nested 100,000 levels deep given as a value: CONFIG_INVALID quoting at most 200 characters of it', () => {
    const error = refusedValue({ mcpServers: { a: { command: nestedArray(100_000) } } });
    expect(error.path).toBe('/mcpServers/a/command');
    expect(error.message).toBe(
      `/mcpServers/a/command: must be a string, got ${'['.repeat(200)}… (1 item)`,
    );
  });
});

describe('issue 38.10: messages quote a bounded excerpt', () => {
  const big = 'x'.repeat(5_000_000);

  it('a 5 MB value in a file: the message quotes 200 characters of it and its size', async () => {
    const error = await refusedFile(
      'big.json',
      JSON.stringify({ mcpServers: { a: { command: [big] } } }),
    );
    expect(error.message.length).toBeLessThan(MESSAGE_ROOM);
    expect(error.message).toMatch(
      /: \/mcpServers\/a\/command: must be a string, got \["x{198}… \(1 item\)$/,
    );
  });

  it.each([
    [
      'a 5 MB command (an object)',
      { mcpServers: { a: { command: { big } } } },
      '/mcpServers/a/command',
    ],
    ['a 5 MB url', { mcpServers: { a: { url: big } } }, '/mcpServers/a/url'],
    ['a 5 MB type', { mcpServers: { a: { type: big, command: 'x' } } }, '/mcpServers/a/type'],
    ['a 5 MB server name', { mcpServers: { [big]: 1 } }, `/mcpServers/${big}`],
    ['a 5 MB variable', { servers: { a: { command: `\${${big}}` } } }, '/servers/a/command'],
    ['a 5 MB input id', { servers: { a: { command: `\${input:${big}}` } } }, '/servers/a/command'],
  ])('%s: the message is bounded, the pointer whole', (_, config, pointer) => {
    const error = refusedValue(config);
    expect(error.path).toBe(pointer);
    expect(error.message.length).toBeLessThan(MESSAGE_ROOM + 300);
    expect(error.message).toMatch(/… \((5,000,0\d\d characters|1 key)\)/);
  });
});

describe('issue 38.10: did-you-mean for the first few unknown keys only', () => {
  it('200,000 unknown keys: five warnings with a did-you-mean, one counting the rest', () => {
    const entry: Record<string, unknown> = { command: 'node', evn: {} };
    for (let i = 0; i < 200_000; i++) entry[`unknown${i}`] = 1;
    const warnings: ConfigWarning[] = [];
    parseServersConfig({ mcpServers: { a: entry } }, { onWarning: (w) => warnings.push(w) });
    expect(warnings).toEqual([
      { code: 'UNKNOWN_KEY', path: '/mcpServers/a/evn', message: 'unknown key, ignored (did you mean "env"?)' },
      { code: 'UNKNOWN_KEY', path: '/mcpServers/a/unknown0', message: 'unknown key, ignored' },
      { code: 'UNKNOWN_KEY', path: '/mcpServers/a/unknown1', message: 'unknown key, ignored' },
      { code: 'UNKNOWN_KEY', path: '/mcpServers/a/unknown2', message: 'unknown key, ignored' },
      { code: 'UNKNOWN_KEY', path: '/mcpServers/a/unknown3', message: 'unknown key, ignored' },
      {
        code: 'UNKNOWN_KEY',
        path: '/mcpServers/a/unknown4',
        message:
          '199,996 more unknown keys, from this one on, ignored (only the first 5 are listed, with a did-you-mean)',
      },
    ]);
  }, 60_000);

  it('the budget is per configuration, across entries; one more unknown key is named as one', () => {
    const warnings: ConfigWarning[] = [];
    const servers = Object.fromEntries(
      ['a', 'b', 'c'].map((name) => [name, { command: 'x', agrs: [], evn: {} }]),
    );
    parseServersConfig({ mcpServers: servers }, { onWarning: (w) => warnings.push(w) });
    expect(warnings.map((w) => w.path)).toEqual([
      '/mcpServers/a/agrs',
      '/mcpServers/a/evn',
      '/mcpServers/b/agrs',
      '/mcpServers/b/evn',
      '/mcpServers/c/agrs',
      '/mcpServers/c/evn',
    ]);
    expect(warnings.at(-1)?.message).toBe(
      'one more unknown key, ignored (only the first 5 are listed, with a did-you-mean)',
    );
  });

  it('top-level keys: only the first 1,000 are searched for a near miss of mcpServers', () => {
    const settings: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) settings[`editor.setting${i}`] = 1;
    expect(refusedValue({ mcpServer: {}, ...settings }).message).toContain(
      'did you mean "mcpServers"?',
    );
    expect(refusedValue({ ...settings, mcpServer: {} }).message).not.toContain('did you mean');
  });
});
