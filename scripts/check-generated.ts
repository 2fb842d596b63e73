/**
 * `npm run check:generated [-- --schemas DIR --generated DIR]`: regenerates into a temp folder and
 * compares it with the committed `src/generated/`. Any missing, extra or differing file fails
 * (exit 1, each named); a missing input fails too (exit 2): never a vacuous pass.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateAll } from './lib/generate.js';
import { readTree } from './lib/schema-dir.js';
import { treeDifferences } from './lib/tree-diff.js';

const { values } = parseArgs({
  options: {
    schemas: { type: 'string', default: 'schemas' },
    generated: { type: 'string', default: 'src/generated' },
  },
});

async function main(): Promise<number> {
  const fresh = await generateAll(values.schemas);
  const temp = await mkdtemp(join(tmpdir(), 'gemini-mcp-generated-'));
  try {
    for (const [name, text] of fresh) await writeFile(join(temp, name), text);
    const regenerated = await readTree(temp);
    const committed = await readTree(values.generated);
    const problems = treeDifferences(committed, regenerated).map(({ file, kind, first }) => {
      const where = `${values.generated}/${file}`;
      if (kind === 'missing') return `${where}: missing`;
      if (kind === 'stale') return `${where}: not generated (remove it)`;
      return `${where}: differs (${first})`;
    });
    if (problems.length > 0) {
      console.error(
        'check:generated FAILED: src/generated/ differs from a fresh generation. Run npm run generate.',
      );
      for (const problem of problems) console.error(`  ${problem}`);
      return 1;
    }
    console.log(`check:generated: ${regenerated.size} files match a fresh generation`);
    return 0;
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(
      `check:generated FAILED: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exitCode = 2;
  },
);
