/**
 * `npm run docs`: the API reference, generated from the TSDoc comments of the public API
 * (src/index.ts, src/genai.ts) with typedoc, into docs/api/ (gitignored). `--check` also fails on warnings
 * (a broken {@link}, an exported type missing from the reference), for CI.
 */
import { rm } from 'node:fs/promises';
import { Application, LogLevel } from 'typedoc';

const OUT = 'docs/api';
const check = process.argv.includes('--check');

const app = await Application.bootstrapWithPlugins({
  entryPoints: ['src/index.ts', 'src/genai.ts'],
  tsconfig: 'tsconfig.build.json',
  out: OUT,
  name: 'gemini-mcp',
  readme: 'none',
  // Source links need a hosted repository; a clone of a local path has none to link to.
  disableSources: true,
  excludePrivate: true,
  excludeInternal: true,
  sort: ['source-order'],
  validation: { notExported: true, invalidLink: true, notDocumented: false },
  logLevel: LogLevel.Info,
});

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
await rm(OUT, { recursive: true, force: true });
await app.generateDocs(project, OUT);
console.log(`docs: API reference written to ${OUT}/index.html`);
