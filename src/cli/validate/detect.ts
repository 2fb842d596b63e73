/**
 * The format of an input: JSONL (one payload per line) or one JSON document (a pretty-printed
 * file, or a JSON array of payloads). `--input` or the file's extension says so, else its first
 * one or two non-empty lines do.
 */

/** How an input is read. */
export type InputFormat = 'json' | 'jsonl';

/** The format `--input` or the file name declares: `undefined` when the lines must tell. */
export function declaredFormat(input: InputFormat | 'auto', path: string): InputFormat | undefined {
  if (input !== 'auto') return input;
  return /\.(jsonl|ndjson)$/i.test(path) ? 'jsonl' : undefined;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * What the first non-empty line shows: JSONL when it is a JSON value by itself; `undefined` when
 * it is not, and the second non-empty line decides ({@link formatFromSecond}).
 */
export function formatFromFirst(text: string): 'jsonl' | undefined {
  return parses(text) ? 'jsonl' : undefined;
}

/**
 * The format when the first non-empty line is no JSON value by itself: JSONL still (with a
 * broken first line) when the second is an object by itself, else one JSON document.
 */
export function formatFromSecond(text: string): InputFormat {
  const second = text.trim();
  return second.startsWith('{') && parses(second) ? 'jsonl' : 'json';
}
