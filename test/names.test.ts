/**
 * Issue 33: the README's map of names (its "Names" section) against what the package is. The
 * package and bin rows against package.json, the entries table against `exports` both ways (a
 * row marked "reserved (not yet exported)" must not be exported, every other row must be, and
 * every exported subpath must have a row), the versioned one-line forms against the version,
 * and the identifiers that keep the old spelling against the code that uses them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_ID_BASE } from '../scripts/lib/schema-set.js';
import { generatedCallId, THOUGHT_SIGNATURE_META } from '../src/adapter/sampling/ids.js';
import { defaultTokenDir } from '../src/runtime/mcp/auth/file-store.js';

const ROOT = join(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  exports: Record<string, unknown>;
  repository: { url: string };
};

const RESERVED = 'reserved (not yet exported)';

/** The README's "## Names" section, up to the next second-level heading. */
function namesSection(): string {
  const start = README.indexOf('\n## Names\n');
  expect(start, 'README.md has a "## Names" section').toBeGreaterThan(-1);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end === -1 ? undefined : end);
}

/** The rows of the section's table whose header's first cell is `header`, as trimmed cells. */
function table(header: string): string[][] {
  const lines = namesSection().split('\n');
  const at = lines.findIndex((line) => line.startsWith(`| ${header} |`));
  expect(at, `the Names section has a table headed "${header}"`).toBeGreaterThan(-1);
  const rows: string[][] = [];
  for (const line of lines.slice(at + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** The text between the first pair of backticks of a cell. */
function code(cell: string): string {
  const match = /`([^`]+)`/.exec(cell);
  expect(match, `a name in backticks in "${cell}"`).not.toBeNull();
  return match![1]!;
}

describe('issue 33: the README map of names', () => {
  it('names the package, its one bin and the repository as package.json does', () => {
    const rows = new Map(table('What').map(([what, name]) => [what!, name!]));
    expect([...rows.keys()]).toEqual([
      'npm package',
      "command (the package's one bin)",
      'repository and GitHub Action',
    ]);
    expect(code(rows.get('npm package')!)).toBe(manifest.name);
    expect(Object.keys(manifest.bin)).toEqual([manifest.name]);
    expect(code(rows.get("command (the package's one bin)")!)).toBe(manifest.name);
    expect(manifest.repository.url).toBe(
      `git+https://github.com/${code(rows.get('repository and GitHub Action')!)}.git`,
    );
  });

  it('lists every exported entry, and exports every entry it does not mark reserved', () => {
    const listed = table('Entry (`import ... from`)').map(([entry, holds]) => ({
      subpath: `.${code(entry!).slice(manifest.name.length)}`,
      reserved: holds!.startsWith(RESERVED),
    }));
    for (const { subpath } of listed)
      expect(`${manifest.name}${subpath.slice(1)}`).toMatch(/^gemini-mcp-kit(\/[a-z]+)?$/);
    const exported = Object.keys(manifest.exports).filter((key) => key !== './package.json');
    expect(
      listed
        .filter((e) => !e.reserved)
        .map((e) => e.subpath)
        .sort(),
    ).toEqual(exported.sort());
    for (const { subpath, reserved } of listed) {
      if (reserved) expect(exported, `${subpath} is marked "${RESERVED}"`).not.toContain(subpath);
    }
    expect(listed.find((e) => e.subpath === './live')).toEqual({
      subpath: './live',
      reserved: false,
    });
  });

  it('gives one-line forms the version of package.json, and imports only exported entries', () => {
    const versioned = [...README.matchAll(/gemini-mcp-kit@v?(\d[^\s'"`]*)/g)].map((m) => m[1]);
    expect(versioned.length).toBeGreaterThanOrEqual(3);
    for (const version of versioned) expect(version).toBe(manifest.version);
    const imported = [...README.matchAll(/from '(gemini-mcp-kit[^']*)'/g)].map((m) => m[1]!);
    expect(imported.length).toBeGreaterThan(5);
    for (const entry of imported) {
      expect(Object.keys(manifest.exports), entry).toContain(
        `.${entry.slice(manifest.name.length)}`,
      );
    }
  });

  it("never tells the user to install, run or import the old name, which is a stranger's package", () => {
    const stale = README.split('\n').filter((line) =>
      /(npm (install|i) |npx (--yes |-y )?|from '|^\s*)gemini-mcp(?!-kit)[\s@/']/.test(line),
    );
    expect(stale).toEqual([]);
  });

  it('lists the identifiers that keep the old spelling as the code spells them', () => {
    const kept = table('Identifier').map(([identifier]) => code(identifier!));
    expect(kept).toEqual([
      `_meta["${THOUGHT_SIGNATURE_META}"]`,
      generatedCallId(() => '<uuid>'),
      expect.stringMatching(/^~\/\.config\//),
      'GEMINI_MCP_AUTH_DIR',
      SCHEMA_ID_BASE,
    ]);
    expect(defaultTokenDir().replaceAll('\\', '/')).toMatch(
      new RegExp(`/${kept[2]!.slice('~/.config/'.length)}$`),
    );
    const cliAuth = readFileSync(join(ROOT, 'src', 'cli', 'servers', 'auth.ts'), 'utf8');
    expect(cliAuth).toContain(`process.env[AUTH_DIR_VARIABLE]`);
    expect(cliAuth).toContain(`const AUTH_DIR_VARIABLE = '${kept[3]}';`);
  });
});
