#!/usr/bin/env node
/**
 * The `gemini-mcp` executable: `validate`, `tools`, `answer`, `chat`. See `gemini-mcp --help`.
 */
import { main } from './program.js';

// `gemini-mcp validate big.jsonl | head`: a closed pipe ends the run quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main(process.argv, {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
