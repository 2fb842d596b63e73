/**
 * Reads one input of `validate` (a file, or stdin) line by line in constant memory, and gives
 * the checker what it holds: each line of JSONL, or the whole of one JSON document.
 */

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { CliError, describeFileError, EXIT } from '../cli-error.js';
import type { Checker } from './checker.js';
import { declaredFormat, formatFromFirst, formatFromSecond, type InputFormat } from './detect.js';
import { type LineEvent, readLines, type TextLine } from './lines.js';
import type { ValidateIo } from './options.js';

/** What findings in stdin (`-`) name as their file. */
export const STDIN_NAME = '<stdin>';

function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

async function openInput(path: string, stdin: Readable): Promise<AsyncIterable<Buffer>> {
  if (path === '-') return stdin;
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (error) {
    throw new CliError(describeFileError(path, error));
  }
  if (info.isDirectory()) throw new CliError(`${path}: is a directory (give the files in it)`);
  return createReadStream(path, { highWaterMark: 64 * 1024 });
}

/** One input being read. */
interface Source {
  /** Its name in findings. */
  readonly file: string;
  readonly lines: AsyncGenerator<LineEvent>;
  readonly checker: Checker;
  /** `--max-line-bytes`: the cap on a line, and on a whole JSON document. */
  readonly cap: number;
}

/** Reports a line of `source` over the cap (its bytes were skipped). */
function tooLong(source: Source, number: number): void {
  source.checker.inputError(
    source.file,
    `line ${number}: longer than ${formatBytes(source.cap)} (--max-line-bytes)`,
    number,
  );
}

/** The lines read before the format is known, and the format they show. */
interface Head {
  /** Every line read, blank ones included (a JSON document's text starts at the first). */
  readonly held: readonly TextLine[];
  /** The non-empty lines among them: none, one or two. */
  readonly nonEmpty: readonly TextLine[];
  /** `undefined`: the input ended, or a line was over the cap, before its lines told. */
  readonly format: InputFormat | undefined;
}

/** `iterator` for a loop that may stop early without closing it: a later loop goes on from there. */
function unclosed<T>(iterator: AsyncIterator<T>): AsyncIterable<T> {
  return { [Symbol.asyncIterator]: () => ({ next: () => iterator.next() }) };
}

/** Reads lines until the first one or two non-empty ones show the format (see detect.ts). */
async function readHead(source: Source): Promise<Head> {
  const { run } = source.checker;
  const held: TextLine[] = [];
  const nonEmpty: TextLine[] = [];
  for await (const event of unclosed(source.lines)) {
    if (event.kind === 'too-long') {
      tooLong(source, event.number);
      break;
    }
    run.lines++;
    run.bytes += event.bytes;
    held.push(event);
    if (event.text.trim() === '') continue;
    nonEmpty.push(event);
    const format =
      nonEmpty.length === 1 ? formatFromFirst(event.text) : formatFromSecond(event.text);
    if (format !== undefined) return { held, nonEmpty, format };
  }
  return { held, nonEmpty, format: undefined };
}

/**
 * The rest of a JSONL input: each non-blank line one payload, a line over the cap reported and
 * skipped. Its own small function, so the loop every line goes through stays small to optimise.
 */
async function checkLines(source: Source): Promise<void> {
  const { checker, file } = source;
  const { run } = checker;
  for await (const event of source.lines) {
    if (event.kind === 'too-long') {
      tooLong(source, event.number);
      continue;
    }
    run.lines++;
    run.bytes += event.bytes;
    if (event.text.trim() !== '') checker.line(file, event);
  }
}

/**
 * The rest of a JSON input, after the lines `held`: one document (pretty-printed files), capped
 * like a line. A line over the cap ends the input unchecked.
 */
async function checkDocument(source: Source, held: readonly TextLine[]): Promise<void> {
  const { checker, file, cap } = source;
  const { run } = checker;
  const parts = held.map((l) => l.text);
  let total = held.reduce((n, l) => n + l.bytes, 0);
  // The text starts at the first line held (blank lines included): its line 1 is that line.
  const firstLine = held[0]?.number ?? 1;
  for await (const event of source.lines) {
    if (event.kind === 'too-long') {
      tooLong(source, event.number);
      return;
    }
    run.lines++;
    run.bytes += event.bytes;
    total += event.bytes;
    if (total > cap) {
      checker.inputError(
        file,
        `one JSON document longer than ${formatBytes(cap)}: split it into JSONL (one payload per line) or raise --max-line-bytes`,
      );
      return;
    }
    parts.push(event.text);
  }
  const text = parts.join('\n');
  if (text.trim() !== '') checker.document(file, text, firstLine);
}

/**
 * Checks the input at `path` (`-`: stdin) in its format: declared (`--input`, a `.jsonl` or
 * `.ndjson` name), else shown by its first lines. An input that holds no payload and gave no
 * input error is reported as empty.
 */
export async function checkSource(path: string, checker: Checker, io: ValidateIo): Promise<void> {
  const { options, run } = checker;
  const file = path === '-' ? STDIN_NAME : path;
  run.current = file;
  run.files++;
  const lines = readLines(await openInput(path, io.stdin), options.maxLineBytes);
  const source: Source = { file, lines, checker, cap: options.maxLineBytes };
  const before = run.payloads;
  const inputErrorsBefore = run.inputErrors;
  try {
    const declared = declaredFormat(options.input, path);
    const head: Head =
      declared === undefined
        ? await readHead(source)
        : { held: [], nonEmpty: [], format: declared };
    if (head.format === 'json') {
      await checkDocument(source, head.held);
    } else {
      // JSONL, or an input that ended on one line that is no JSON value: an invalid payload.
      for (const line of head.nonEmpty) checker.line(file, line);
      if (head.format === 'jsonl') await checkLines(source);
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(describeFileError(file, error), EXIT.USAGE, { cause: error });
  } finally {
    await lines.return(undefined);
  }
  if (run.payloads === before && run.inputErrors === inputErrorsBefore) {
    run.payloads++;
    run.invalid++;
    checker.report.finding({
      severity: 'error',
      file,
      line: 1,
      pointer: '',
      message: 'no payload: the input is empty',
      keyword: 'empty',
    });
  }
}
