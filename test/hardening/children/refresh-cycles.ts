/**
 * Child process of the issue-13 leak test, run with a capped heap: `cycles` list_changed-style
 * refreshes, each a new tool set whose inputSchema is a new object with new content (an enum
 * of `enumSize` values naming the refresh, so nothing is reused and each compiled schema is
 * worth keeping an eye on), each followed by a validated call. Prints the calls rejected and
 * the heap used after the last cycle, in MB.
 */

import { buildToolSet } from '../../../src/adapter/tools/toolset.js';
import { functionCalls } from '../../../src/adapter/turn/calls.js';

const cycles = Number(process.argv[2] ?? 1_500);
const enumSize = Number(process.argv[3] ?? 500);
let rejected = 0;
for (let i = 0; i < cycles; i += 1) {
  const { toolset } = buildToolSet([
    {
      serverId: 's',
      tools: [
        {
          name: 'lookup',
          inputSchema: {
            type: 'object',
            properties: {
              q: {
                enum: Array.from({ length: enumSize }, (_, k) =>
                  `refresh ${i} value ${k} `.repeat(2),
                ),
              },
            },
            required: ['q'],
          },
        },
      ],
    },
  ]);
  const parts = [{ functionCall: { name: 'lookup', args: { q: 'too long a query' } } }];
  rejected += functionCalls(parts, toolset, { validateArgs: true }).rejected.length;
}
globalThis.gc?.();
process.stdout.write(
  JSON.stringify({ rejected, heapMB: process.memoryUsage().heapUsed / 1_048_576 }),
);
