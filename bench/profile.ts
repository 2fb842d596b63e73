/**
 * `npx tsx bench/profile.ts P2|P2set|P3|P4|P5|P6 [--seconds N]`: runs one figure's workload
 * under `node --cpu-prof` and prints where the time goes (markdown). run.ts calls the same
 * code for each figure that misses its target.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { builtCli } from './lib/build-cli.js';
import { loadBuilt } from './lib/built.js';
import { createContext } from './lib/context.js';
import { loadCorpus } from './lib/corpus.js';
import { profileFigure } from './lib/profile-figure.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { seconds: { type: 'string', default: '4' } },
});
const tmp = await mkdtemp(join(tmpdir(), 'gemini-mcp-profile-'));
try {
  const cli = await builtCli(ROOT, tmp);
  const ctx = createContext({
    quick: false,
    tmp,
    root: ROOT,
    corpus: loadCorpus(),
    cli,
    lib: await loadBuilt(cli),
  });
  for (const which of positionals) {
    const lines = await profileFigure(ctx, which, Number(values.seconds));
    process.stdout.write(`${lines.join('\n')}\n\n`);
  }
} finally {
  await rm(tmp, { recursive: true, force: true });
}
