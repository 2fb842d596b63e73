/**
 * Builds dist/ before the CLI tests, which run `node dist/cli/main.js` as a user runs the
 * installed `gemini-mcp-kit`. Skipped when dist/ is newer than every source.
 */
import { buildIfStale } from './build.js';

export default function setup(): void {
  buildIfStale();
}
