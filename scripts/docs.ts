/**
 * `npm run docs`: the API reference, generated from the TSDoc comments of the public API
 * (its entries: src/index.ts, src/schemas.ts, src/auth.ts, src/features.ts, src/genai.ts, src/live.ts) with typedoc as Markdown, into docs/api/ (committed, packed and
 * linked from the README). `--check` writes nothing: it fails on warnings (a broken {@link}, an
 * exported type missing from the reference) and when docs/api/ differs from a fresh generation,
 * naming the files, for CI.
 */
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Application, LogLevel, type TypeDocOptions } from 'typedoc';
import type { PluginOptions } from 'typedoc-plugin-markdown';

const OUT = 'docs/api';
const check = process.argv.includes('--check');

/** Every file under `dir`, relative to it, sorted; empty when `dir` does not exist. */
async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
      .sort();
  } catch {
    return [];
  }
}

/** The files that differ between two folders: added, removed or changed. */
async function differences(expected: string, actual: string): Promise<string[]> {
  const [want, have] = await Promise.all([filesUnder(expected), filesUnder(actual)]);
  const names = [...new Set([...want, ...have])].sort();
  const changed: string[] = [];
  for (const name of names) {
    if (!want.includes(name)) changed.push(`${name} (not generated any more: remove it)`);
    else if (!have.includes(name)) changed.push(`${name} (missing)`);
    else {
      const [a, b] = await Promise.all([
        readFile(join(expected, name)),
        readFile(join(actual, name)),
      ]);
      if (!a.equals(b)) changed.push(`${name} (differs)`);
    }
  }
  return changed;
}

// Generated into a scratch folder first: docs/api/ is replaced (or compared) only when all went well.
const scratch = await mkdtemp(join(tmpdir(), 'gemini-mcp-docs-'));
const options: Partial<TypeDocOptions & PluginOptions> = {
  entryPoints: [
    'src/index.ts',
    'src/schemas.ts',
    'src/auth.ts',
    'src/features.ts',
    'src/genai.ts',
    'src/live.ts',
  ],
  tsconfig: 'tsconfig.build.json',
  plugin: ['typedoc-plugin-markdown'],
  outputFileStrategy: 'modules',
  out: scratch,
  name: 'gemini-mcp-kit',
  readme: 'none',
  // Source links would name a commit: the reference would change with every commit.
  disableSources: true,
  excludePrivate: true,
  // Members inherited from the platform (Error's stackTraceLimit, ...) belong to its reference.
  excludeExternals: true,
  hidePageHeader: true,
  excludeInternal: true,
  sort: ['source-order'],
  // The entries in the order of their tiers: the root first.
  sortEntryPoints: false,
  validation: { notExported: true, invalidLink: true, notDocumented: false },
  logLevel: LogLevel.Info,
};
const app = await Application.bootstrapWithPlugins(options);

const project = await app.convert();
if (project === undefined) {
  console.error('docs: typedoc could not convert src/index.ts');
  process.exit(1);
}
app.validate(project);
if (app.logger.hasErrors() || (check && app.logger.hasWarnings())) {
  console.error(`docs: ${check ? 'errors or warnings' : 'errors'} above; nothing written`);
  process.exit(1);
}
try {
  await app.generateOutputs(project);
  if (app.logger.hasErrors()) {
    console.error('docs: errors above; nothing written');
    process.exit(1);
  }
  if (check) {
    const changed = await differences(scratch, OUT);
    if (changed.length > 0) {
      console.error(
        `docs: ${OUT}/ is not what the TSDoc comments generate (run npm run docs):\n${changed.map((c) => `  ${c}`).join('\n')}`,
      );
      process.exit(1);
    }
    console.log(`docs: ${OUT}/ is up to date`);
  } else {
    await rm(OUT, { recursive: true, force: true });
    await cp(scratch, OUT, { recursive: true });
    console.log(`docs: API reference written to ${OUT}/README.md`);
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
