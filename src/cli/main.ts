#!/usr/bin/env node
/**
 * The `gemini-mcp-kit` executable: `validate`, `tools`, `answer`, `chat`. See `gemini-mcp-kit --help`.
 */
import { packageVersion } from '../runtime/version.js';

// `gemini-mcp-kit validate big.jsonl | head`: a closed pipe ends the run quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const [, , first, ...rest] = process.argv;
if ((first === '--version' || first === '-V') && rest.length === 0) {
  // Answered before loading the parser and the commands: `--version` starts as fast as node.
  process.stdout.write(`${packageVersion()}\n`);
} else {
  const { main } = await import('./program.js');
  process.exitCode = await main(process.argv, {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  });
}
