/**
 * What `npm run check:generated` does: regenerates `src/generated/` into a temp folder and
 * compares it with the committed one. Any missing, extra or differing file fails (exit 1, each
 * named); a missing or broken input fails too (exit 2): never a vacuous pass.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateAll } from './generate.js';
import { readTree } from './schema-dir.js';
import { treeDifferences } from './tree-diff.js';

/** How the check ended: the exit code, and the lines to print (stdout on 0, stderr otherwise). */
export interface GeneratedCheck {
  code: 0 | 1 | 2;
  lines: string[];
}

/** Checks `generated` (the committed folder) against a fresh generation from `schemas`. */
export async function checkGenerated(schemas: string, generated: string): Promise<GeneratedCheck> {
  let fresh: Map<string, string>;
  try {
    fresh = await generateAll(schemas);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { code: 2, lines: [`check:generated FAILED: ${message}`] };
  }
  const temp = await mkdtemp(join(tmpdir(), 'gemini-mcp-generated-'));
  try {
    for (const [name, text] of fresh) await writeFile(join(temp, name), text);
    const regenerated = await readTree(temp);
    const committed = await readTree(generated);
    const problems = treeDifferences(committed, regenerated).map(({ file, kind, first }) => {
      const where = `${generated}/${file}`;
      if (kind === 'missing') return `${where}: missing`;
      if (kind === 'stale') return `${where}: not generated (remove it)`;
      return `${where}: differs (${first})`;
    });
    if (problems.length > 0) {
      return {
        code: 1,
        lines: [
          'check:generated FAILED: src/generated/ differs from a fresh generation. Run npm run generate.',
          ...problems.map((problem) => `  ${problem}`),
        ],
      };
    }
    return {
      code: 0,
      lines: [`check:generated: ${regenerated.size} files match a fresh generation`],
    };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}
