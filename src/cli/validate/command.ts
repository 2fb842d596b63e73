/**
 * `gemini-mcp validate`: checks JSON and JSONL payloads against the vendored schemas, line by
 * line, in constant memory, and reports every violation with file, line and JSON pointer. A JSON
 * array (what `gemini-mcp tools` prints) is as many payloads, each named by its index.
 */

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { apiDialect, type Dialect } from '../../adapter/dialect.js';
import type { checkRequest } from '../../adapter/turn/request-checks.js';
import type { ViolationDetail } from '../../errors.js';
import type { ReadNotice, SchemaName } from '../../generated/guards-common.js';
import { MAX_JSON_DEPTH } from '../../json/copy.js';
import { nestedBeyond, tooFewBracketsToNest } from '../../json/depth.js';
import { isJsonObject } from '../../json/object.js';
import { CliError, describeFileError, EXIT } from '../cli-error.js';
import { terminalSafe } from '../io.js';
import { expandInputs } from './inputs.js';
import {
  findKind,
  findNamed,
  guessableSchemas,
  guessKind,
  type Kind,
  SchemaChecks,
  schemaOf,
  similarKinds,
} from './kinds.js';
import { type LineEvent, readLines, type TextLine } from './lines.js';
import {
  arrayElementStarts,
  type ElementStart,
  locatePointer,
  parseErrorOffset,
  positionAt,
} from './locate.js';
import { createReporter, type Finding, type Reporter, type Summary } from './report.js';

/** Options of {@link runValidate}, as the command line gives them. */
export interface ValidateOptions {
  kind: string;
  /**
   * Received kinds too with the write contract: what the read contract tolerates (fields, enum
   * values, kinds of part newer than the vendored schemas) is an error, not a warning.
   */
  strict: boolean;
  dialect: Dialect;
  format: 'text' | 'json' | 'github';
  request: boolean;
  model?: string;
  input: 'auto' | 'json' | 'jsonl';
  maxLineBytes: number;
  /** Payloads one JSON array may hold; a longer array is an input error, not checked. */
  maxItems: number;
  maxErrors: number;
  debug: boolean;
}

/** Where the command reads and writes. */
export interface ValidateIo {
  stdin: Readable;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WriteStream | NodeJS.WritableStream;
}

const STDIN_NAME = '<stdin>';

/** Turns a JSON pointer into the payload into the line (and column) it starts at. */
type Where = (pointer: string) => { line: number; column?: number };

function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

interface Fixed {
  kind: Kind;
  dialect: Dialect;
}

/** The kind `--kind` and `--request` choose, or `undefined` for auto. Throws a usage error. */
function resolveKind(options: ValidateOptions): Fixed | undefined {
  if (options.request) {
    if (options.kind !== 'auto' && findKind(options.kind)?.name !== 'generate-content-request') {
      throw new CliError(
        `--request checks a generate-content-request; drop --kind ${options.kind}`,
      );
    }
    return { kind: findKind('generate-content-request')!, dialect: options.dialect };
  }
  if (options.model !== undefined) {
    throw new CliError(
      '--model only applies with --request (it decides the thought-signature rule)',
    );
  }
  if (options.kind === 'auto') return undefined;
  const named = findNamed(options.kind);
  if (named === undefined) {
    const near = similarKinds(options.kind);
    const hint = near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : '';
    throw new CliError(
      `unknown kind "${options.kind}"${hint}; gemini-mcp validate --list-kinds lists them`,
    );
  }
  const fixed = { kind: named.kind, dialect: named.dialect ?? options.dialect };
  if (schemaOf(fixed.kind, fixed.dialect) === undefined) {
    throw new CliError(
      `${apiDialect(fixed.dialect)} has no ${fixed.kind.name} (its reference lacks the shape)`,
    );
  }
  return fixed;
}

/** Counters and the progress line. */
class Run {
  payloads = 0;
  valid = 0;
  invalid = 0;
  warnings = 0;
  inputErrors = 0;
  files = 0;
  /** How many inputs the run has (globs expanded). */
  total = 0;
  bytes = 0;
  lines = 0;
  readonly kinds = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private shown = false;
  current = '';

  constructor(private readonly stderr: ValidateIo['stderr']) {
    if ((stderr as NodeJS.WriteStream).isTTY === true) {
      const started = Date.now();
      this.timer = setInterval(() => {
        if (Date.now() - started < 2000) return;
        this.shown = true;
        const mb = (this.bytes / 1e6).toFixed(1);
        const of = this.total > 1 ? ` (file ${this.files}/${this.total})` : '';
        stderr.write(
          `\r\x1b[Kvalidate: ${terminalSafe(this.current)}${of}: ${this.lines.toLocaleString('en-US')} lines, ${this.payloads.toLocaleString('en-US')} payloads, ${mb} MB, ${this.invalid} invalid`,
        );
      }, 500);
      this.timer.unref();
    }
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    if (this.shown) this.stderr.write('\r\x1b[K');
  }
}

class Checker {
  constructor(
    readonly options: ValidateOptions,
    readonly fixed: Fixed | undefined,
    readonly checks: SchemaChecks,
    /** The request checks, with `--request` (loaded only then). */
    readonly request: typeof checkRequest | undefined,
    readonly run: Run,
    readonly report: Reporter,
  ) {}

  /**
   * Checks one parsed payload found at `at` in its input (`""`, or `/3` for an array's fourth
   * element); `where` turns a pointer into the payload into a line (and column).
   */
  payload(file: string, value: unknown, at: string, where: Where): void {
    const run = this.run;
    run.payloads++;
    const guessed = this.fixed === undefined ? guessKind(value) : undefined;
    const kind = this.fixed?.kind ?? guessed;
    if (kind === undefined) {
      run.invalid++;
      const fields = isJsonObject(value)
        ? `fields: ${Object.keys(value).slice(0, 5).join(', ') || 'none'}`
        : `a JSON ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value}`;
      this.report.finding({
        severity: 'error',
        file,
        ...where(''),
        pointer: at,
        message: `cannot tell the kind of this payload from its shape (${fields}); pass --kind`,
        keyword: 'kind',
      });
      return;
    }
    const dialect = this.fixed?.dialect ?? this.options.dialect;
    const schema = schemaOf(kind, dialect);
    if (schema === undefined) {
      run.invalid++;
      this.report.finding({
        severity: 'error',
        file,
        ...where(''),
        pointer: '',
        message: `this payload looks like a ${kind.name}, which ${apiDialect(dialect)} does not have; pass --kind`,
        keyword: 'kind',
      });
      return;
    }
    if (guessed !== undefined) run.kinds.set(kind.name, (run.kinds.get(kind.name) ?? 0) + 1);
    const read = this.checks.read(schema, value);
    const violations = read === undefined ? this.checks.check(schema, value) : read.violations;
    const notices = read === undefined ? [] : read.notices;
    if (violations.length === 0 && notices.length === 0 && this.request === undefined) {
      run.valid++;
      return;
    }
    this.reportFindings(file, value, at, where, kind, schema, violations, notices);
  }

  /** Reports what {@link payload} found in one payload (the request checks' findings too). */
  private reportFindings(
    file: string,
    value: unknown,
    at: string,
    where: Where,
    kind: Kind,
    schema: SchemaName,
    found: readonly ViolationDetail[],
    notices: readonly ReadNotice[],
  ): void {
    const run = this.run;
    let violations: readonly ViolationDetail[] = found;
    let findings: Finding[] = notices.map((notice) => ({
      severity: this.options.strict ? 'error' : 'warning',
      file,
      ...where(notice.path),
      kind: kind.name,
      schema,
      pointer: at + notice.path,
      message: this.options.strict
        ? `${notice.message} (--strict)`
        : `${notice.message} (tolerated; --strict refuses it)`,
      keyword: notice.code,
    }));
    if (this.request !== undefined) {
      const extra = this.request(
        value,
        this.options.model === undefined ? {} : { model: this.options.model },
      );
      const both = new Set(
        extra.filter((f) => f.keyword === 'request/both-schema-forms').map((f) => f.path),
      );
      // The schema's own "not both" rule says the same at the same place: keep the clearer one.
      violations = violations.filter((v) => !(v.keyword === 'not' && both.has(v.path)));
      findings = extra.map(
        (f): Finding => ({
          severity: f.severity,
          file,
          ...where(f.path),
          kind: kind.name,
          schema,
          pointer: at + f.path,
          message: f.message,
          ...(f.keyword === undefined ? {} : { keyword: f.keyword }),
        }),
      );
    }
    const errors: Finding[] = [
      ...violations.map(
        (v): Finding => ({
          severity: 'error',
          file,
          ...where(v.path),
          kind: kind.name,
          schema,
          pointer: at + v.path,
          message: v.message,
          ...(v.keyword === undefined ? {} : { keyword: v.keyword }),
        }),
      ),
      ...findings,
    ];
    if (errors.some((e) => e.severity === 'error')) run.invalid++;
    else run.valid++;
    for (const finding of errors) {
      if (finding.severity === 'warning') run.warnings++;
      this.report.finding(finding);
    }
  }

  /**
   * Checks one payload like {@link payload}, unless it nests deeper than MAX_JSON_DEPTH levels
   * (no API payload does; the checks would overflow the stack): that payload is reported as
   * too deep, with its line, and the input goes on. `shallow`: its text has too few brackets to
   * nest that deep (see `tooFewBracketsToNest`), so the walk that looks is skipped.
   */
  bounded(file: string, value: unknown, at: string, where: Where, shallow: boolean): void {
    const deep = shallow ? undefined : nestedBeyond(value, MAX_JSON_DEPTH);
    if (deep === undefined) {
      try {
        this.payload(file, value, at, where);
        return;
      } catch (error) {
        // The stack ran out inside a check: payload() had counted the payload, reported nothing.
        if (!(error instanceof RangeError)) throw error;
      }
    } else this.run.payloads++;
    this.run.invalid++;
    this.report.finding({
      severity: 'error',
      file,
      ...where(''),
      pointer: at + (deep ?? ''),
      message: `nested deeper than ${MAX_JSON_DEPTH} levels${deep === undefined ? '' : ` (at ${deep.slice(0, 80)}${deep.length > 80 ? '...' : ''})`}: not checked`,
      keyword: 'too-deep',
    });
  }

  invalidJson(file: string, line: number, column: number | undefined, error: unknown): void {
    this.run.payloads++;
    this.run.invalid++;
    const reason = (error instanceof Error ? error.message : String(error)).replace(
      / in JSON at position \d+.*$/s,
      '',
    );
    this.report.finding({
      severity: 'error',
      file,
      line,
      ...(column === undefined ? {} : { column }),
      pointer: '',
      message: `invalid JSON: ${reason}`,
      keyword: 'json',
    });
  }

  inputError(file: string, message: string, line?: number): void {
    this.run.inputErrors++;
    this.report.inputError({ file, message, ...(line === undefined ? {} : { line }) });
  }

  /**
   * Checks a parsed input value: one payload, or, when it is an array, each element as one
   * payload named by its index (`/3/parts/0`). An array longer than `--max-items` is an input
   * error and none of it is checked; an empty one holds no payload, which is no pass.
   * `element(i)` gives the `Where` of the i-th element.
   */
  value(
    file: string,
    value: unknown,
    where: Where,
    element: (index: number) => Where,
    shallow: boolean,
  ): void {
    if (!Array.isArray(value)) {
      this.bounded(file, value, '', where, shallow);
      return;
    }
    const cap = this.options.maxItems;
    if (value.length > cap) {
      this.inputError(
        file,
        `a JSON array of ${value.length.toLocaleString('en-US')} payloads, more than ${cap.toLocaleString('en-US')} (--max-items): not checked; write one payload per line (JSONL) or raise --max-items`,
        where('').line,
      );
      return;
    }
    if (value.length === 0) {
      this.run.payloads++;
      this.run.invalid++;
      this.report.finding({
        severity: 'error',
        file,
        ...where(''),
        pointer: '',
        message: 'no payload: an empty array',
        keyword: 'empty',
      });
      return;
    }
    for (let index = 0; index < value.length; index++) {
      this.bounded(file, value[index], `/${index}`, element(index), shallow);
    }
  }

  line(file: string, line: TextLine): void {
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch (error) {
      const offset = parseErrorOffset(error);
      this.invalidJson(file, line.number, offset === undefined ? undefined : offset + 1, error);
      return;
    }
    const where: Where = () => ({ line: line.number });
    this.value(file, value, where, () => where, tooFewBracketsToNest(line.text, MAX_JSON_DEPTH));
  }

  document(file: string, text: string, firstLine: number): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const offset = parseErrorOffset(error) ?? text.length;
      const { line, column } = positionAt(text, offset);
      this.invalidJson(file, line + firstLine - 1, column, error);
      return;
    }
    const shift = (line: number): number => line + firstLine - 1;
    // An array's element starts, found in one pass the first time a finding needs a line.
    let starts: ElementStart[] | undefined;
    const element =
      (index: number): Where =>
      (pointer) => {
        starts ??= arrayElementStarts(text);
        const start = starts[index];
        if (start === undefined) return { line: shift(1) };
        const end = starts[index + 1]?.offset ?? text.length;
        const inside = locatePointer(text.slice(start.offset, end), pointer);
        return {
          line: shift(start.line + inside.line - 1),
          column: inside.line === 1 ? start.column + inside.column - 1 : inside.column,
        };
      };
    this.value(
      file,
      value,
      (pointer) => {
        const { line, column } = locatePointer(text, pointer);
        return { line: shift(line), column };
      },
      element,
      tooFewBracketsToNest(text, MAX_JSON_DEPTH),
    );
  }
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

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/**
 * The rest of a JSONL input: each non-blank line one payload, a line over the cap reported and
 * skipped. Its own small function, so the loop every line goes through stays small to optimise.
 */
async function checkLines(
  lines: AsyncIterator<LineEvent>,
  checker: Checker,
  file: string,
  tooLong: (number: number) => void,
): Promise<void> {
  const run = checker.run;
  for (let next = await lines.next(); !next.done; next = await lines.next()) {
    const event = next.value;
    if (event.kind === 'too-long') {
      tooLong(event.number);
      continue;
    }
    run.lines++;
    run.bytes += event.bytes;
    if (event.text.trim() !== '') checker.line(file, event);
  }
}

async function checkSource(path: string, checker: Checker, io: ValidateIo): Promise<void> {
  const { options, run } = checker;
  const file = path === '-' ? STDIN_NAME : path;
  run.current = file;
  run.files++;
  const cap = options.maxLineBytes;
  const source = await openInput(path, io.stdin);
  const lines = readLines(source, cap)[Symbol.asyncIterator]();
  let mode: 'auto' | 'json' | 'jsonl' =
    options.input !== 'auto' ? options.input : /\.(jsonl|ndjson)$/i.test(path) ? 'jsonl' : 'auto';
  const before = run.payloads;
  const inputErrorsBefore = run.inputErrors;
  const tooLong = (number: number): void =>
    checker.inputError(
      file,
      `line ${number}: longer than ${formatBytes(cap)} (--max-line-bytes)`,
      number,
    );

  // Document mode: the whole input is one JSON value (pretty-printed files), capped like a line.
  const documentFrom = async (held: TextLine[]): Promise<void> => {
    const parts = held.map((l) => l.text);
    let total = held.reduce((n, l) => n + l.bytes, 0);
    // The text starts at the first line held (blank lines included): its line 1 is that line.
    const firstLine = held[0]?.number ?? 1;
    for (let next = await lines.next(); !next.done; next = await lines.next()) {
      const event = next.value;
      if (event.kind === 'too-long') {
        tooLong(event.number);
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
        await lines.return(undefined);
        return;
      }
      parts.push(event.text);
    }
    const text = parts.join('\n');
    if (text.trim() !== '') checker.document(file, text, firstLine);
  };

  const held: TextLine[] = [];
  try {
    if (mode !== 'jsonl') {
      for (let next = await lines.next(); !next.done; next = await lines.next()) {
        const event = next.value;
        if (event.kind === 'too-long') {
          tooLong(event.number);
          await lines.return(undefined);
          break;
        }
        run.lines++;
        run.bytes += event.bytes;
        held.push(event);
        const nonEmpty = held.filter((l) => l.text.trim() !== '');
        if (mode === 'json') {
          await documentFrom(held);
          break;
        }
        // auto: the first non-empty line decides; if it is no JSON value by itself, a second
        // line that is one (an object) still means JSONL with a broken first line.
        if (nonEmpty.length === 1) {
          if (parses(nonEmpty[0]!.text)) {
            mode = 'jsonl';
            checker.line(file, nonEmpty[0]!);
            break;
          }
          continue;
        }
        if (nonEmpty.length === 2) {
          const second = nonEmpty[1]!.text.trim();
          if (second.startsWith('{') && parses(second)) {
            mode = 'jsonl';
            for (const line of nonEmpty) checker.line(file, line);
            break;
          }
          await documentFrom(held);
          break;
        }
      }
    }
    if (mode === 'jsonl') await checkLines(lines, checker, file, tooLong);
    if (mode === 'auto') {
      const nonEmpty = held.filter((l) => l.text.trim() !== '');
      if (nonEmpty.length === 1) {
        // One line that is no JSON by itself: an invalid payload.
        checker.line(file, nonEmpty[0]!);
      }
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

/**
 * Runs `validate` over `files` (`-` is stdin) and returns the exit code: 0 when every payload
 * is valid, 1 when some payload is invalid, 2 when an input could not be read (or a line was
 * over the cap); reading goes on with the other inputs either way.
 */
export async function runValidate(
  files: readonly string[],
  options: ValidateOptions,
  io: ValidateIo,
): Promise<number> {
  if (files.length === 0) {
    throw new CliError(
      'validate needs at least one FILE (or - for stdin); see gemini-mcp validate --help',
    );
  }
  const fixed = resolveKind(options);
  const started = process.hrtime.bigint();
  // Only the validators of the kind asked for (with auto, of every kind a guess may pick).
  const checks = await SchemaChecks.load(
    fixed === undefined
      ? guessableSchemas(options.dialect)
      : [schemaOf(fixed.kind, fixed.dialect)!],
  );
  const request = options.request
    ? (await import('../../adapter/turn/request-checks.js')).checkRequest
    : undefined;
  const inputs = await expandInputs(files);
  const run = new Run(io.stderr);
  run.total = inputs.paths.length;
  const report = createReporter(options.format, io.stdout, options.maxErrors);
  const checker = new Checker(options, fixed, checks, request, run, report);
  for (const pattern of inputs.unmatched) {
    checker.inputError(
      pattern,
      `no file matches the glob ${JSON.stringify(pattern)} (in ${process.cwd()})`,
    );
  }
  try {
    for (const file of inputs.paths) {
      try {
        await checkSource(file, checker, io);
      } catch (error) {
        if (!(error instanceof CliError)) throw error;
        checker.inputError(file === '-' ? STDIN_NAME : file, error.message);
      }
    }
  } finally {
    run.stop();
  }
  const summary: Summary = {
    inputs: run.files,
    payloads: run.payloads,
    valid: run.valid,
    invalid: run.invalid,
    warnings: run.warnings,
    inputErrors: run.inputErrors,
    kinds: Object.fromEntries([...run.kinds].sort(([a], [b]) => a.localeCompare(b))),
    auto: fixed === undefined,
    ...(fixed === undefined
      ? {}
      : { kind: fixed.kind.name, schema: schemaOf(fixed.kind, fixed.dialect)! }),
  };
  report.finish(summary);
  if (options.debug) {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const mbps = ms > 0 ? run.bytes / 1e6 / (ms / 1000) : 0;
    const lps = ms > 0 ? run.lines / (ms / 1000) : 0;
    io.stderr.write(
      `debug: ${run.lines} lines, ${run.bytes} bytes in ${ms.toFixed(0)} ms (${mbps.toFixed(1)} MB/s, ${Math.round(lps)} lines/s); maxRSS ${process.resourceUsage().maxRSS} KiB\n`,
    );
  }
  if (run.inputErrors > 0) return EXIT.USAGE;
  return run.invalid > 0 ? EXIT.INVALID : EXIT.OK;
}
