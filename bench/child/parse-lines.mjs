// P4's anchor: the least a JSONL checker must do. Streams the file in 64 KiB chunks, splits
// lines with Buffer.indexOf as src/cli/lines.ts does, JSON.parses each line, prints the count.
import { createReadStream } from 'node:fs';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: parse-lines.mjs FILE');
let pieces = [];
let pending = 0;
let lines = 0;
const parse = () => {
  const bytes = pieces.length === 1 ? pieces[0] : Buffer.concat(pieces, pending);
  JSON.parse(bytes.toString('utf8'));
  lines++;
  pieces = [];
  pending = 0;
};
for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024 })) {
  let from = 0;
  for (;;) {
    const at = chunk.indexOf(0x0a, from);
    const end = at === -1 ? chunk.length : at;
    if (end > from) {
      pieces.push(chunk.subarray(from, end));
      pending += end - from;
    }
    if (at === -1) break;
    if (pending > 0) parse();
    from = at + 1;
  }
}
if (pending > 0) parse();
process.stdout.write(`${lines} lines\n`);
