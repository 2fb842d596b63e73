/** `npm run generate [-- --schemas DIR --out DIR]`: regenerates src/generated/ from schemas/. */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateAll } from './lib/generate.js';

const { values } = parseArgs({
  options: {
    schemas: { type: 'string', default: 'schemas' },
    out: { type: 'string', default: 'src/generated' },
  },
});

try {
  const started = performance.now();
  const files = await generateAll(values.schemas);
  await mkdir(values.out, { recursive: true });
  for (const stale of await readdir(values.out)) {
    if (!files.has(stale)) await rm(join(values.out, stale), { recursive: true });
  }
  for (const [name, text] of files) await writeFile(join(values.out, name), text);
  const ms = Math.round(performance.now() - started);
  console.log(`generate: wrote ${[...files.keys()].join(', ')} to ${values.out} in ${ms} ms`);
} catch (error) {
  console.error(`generate: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
}
