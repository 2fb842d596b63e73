/**
 * `envFile` (VS Code, Cursor): a dotenv file whose variables a stdio server gets, read when the
 * servers are connected. The entry's own `env` wins over the file.
 */
import { GeminiMcpError } from '../../../errors.js';
import { readRegularFile } from '../../../json/regular-file.js';

/** An env file larger than this is refused: 1 MiB. */
const MAX_ENV_FILE_BYTES = 1024 * 1024;

const ASSIGNMENT = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/;

/** A value as dotenv reads it: quotes removed (`\n` in double quotes a newline), ` #` comments cut. */
function unquote(raw: string): string {
  const quote = raw[0];
  if (quote === '"' || quote === "'" || quote === '`') {
    const end = raw.indexOf(quote, 1);
    if (end !== -1) {
      const inner = raw.slice(1, end);
      return quote === '"' ? inner.replaceAll('\\n', '\n') : inner;
    }
  }
  const comment = raw.indexOf(' #');
  return (comment === -1 ? raw : raw.slice(0, comment)).trim();
}

/**
 * The variables of a dotenv text: `KEY=value` lines (`export` allowed), `#` comments and blank
 * lines skipped; a later line wins. Lines that assign nothing are ignored, as dotenv does.
 *
 * @example
 * ```ts
 * parseEnvFile('# tokens\nAPI_KEY="s3cret"\nexport MODE=dev # local\n'); // {API_KEY: 's3cret', MODE: 'dev'}
 * ```
 */
export function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = ASSIGNMENT.exec(line.trim());
    if (match === null) continue;
    Object.defineProperty(values, match[1]!, {
      value: unquote(match[2]!.trim()),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return values;
}

/**
 * The variables of the env file at `path` (absolute), for the entry at `pointer`. A file that
 * cannot be read, is not a regular file (a named pipe, a device: refused at once) or is over
 * 1 MiB (read no further) is a `CONFIG_INVALID` error naming the file and pointing at the
 * `envFile` key.
 *
 * @example
 * ```ts
 * await readEnvFile('/home/me/project/.env', '/servers/api/envFile'); // {API_KEY: '...'}
 * ```
 */
export async function readEnvFile(path: string, pointer: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = (await readRegularFile(path, MAX_ENV_FILE_BYTES)).toString('utf8');
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new GeminiMcpError('CONFIG_INVALID', `${pointer}: cannot read ${path} (${reason})`, {
      path: pointer,
      cause,
      data: { envFile: path },
    });
  }
  return parseEnvFile(text);
}
