// R1's stdio server: for each request line `{"id": n, "params": {"bytes": b}}` on stdin, writes
// one JSON-RPC response of about b bytes to stdout, in 64 KB writes (as a pipe delivers it).
import { createInterface } from 'node:readline';

const lines = createInterface({ input: process.stdin });
for await (const text of lines) {
  const { id, params } = JSON.parse(text);
  const line = `${JSON.stringify({ jsonrpc: '2.0', id, result: { text: 'x'.repeat(params.bytes) } })}\n`;
  for (let at = 0; at < line.length; at += 65536) {
    if (!process.stdout.write(line.slice(at, at + 65536))) {
      await new Promise((resolve) => process.stdout.once('drain', resolve));
    }
  }
}
