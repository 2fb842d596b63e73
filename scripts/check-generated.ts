/**
 * `npm run check:generated [-- --schemas DIR --generated DIR]`: regenerates into a temp folder and
 * compares it with the committed `src/generated/`. Any missing, extra or differing file fails
 * (exit 1, each named); a missing input fails too (exit 2): never a vacuous pass.
 */
import { parseArgs } from 'node:util';
import { checkGenerated } from './lib/check-generated.js';

const { values } = parseArgs({
  options: {
    schemas: { type: 'string', default: 'schemas' },
    generated: { type: 'string', default: 'src/generated' },
  },
});

checkGenerated(values.schemas, values.generated).then(
  ({ code, lines }) => {
    for (const line of lines) (code === 0 ? console.log : console.error)(line);
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(
      `check:generated FAILED: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exitCode = 2;
  },
);
