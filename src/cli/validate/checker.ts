/**
 * Checks parsed input against the schemas: one payload, each element of a JSON array, a JSONL
 * line or a whole JSON document, and reports every finding with its line (and column).
 */

import { apiDialect, type Dialect } from '../../adapter/dialect.js';
import type { RequestFinding } from '../../adapter/turn/request-checks.js';
import type { ViolationDetail } from '../../errors.js';
import type { ReadNotice, SchemaName } from '../../generated/guards-common.js';
import { MAX_JSON_DEPTH } from '../../json/copy.js';
import { nestedBeyond, tooFewBracketsToNest } from '../../json/depth.js';
import { isJsonObject } from '../../json/object.js';
import { guessKind, type Kind, type SchemaChecks, schemaOf } from './kinds.js';
import type { TextLine } from './lines.js';
import {
  arrayElementStarts,
  type ElementStart,
  locatePointer,
  parseErrorOffset,
  positionAt,
} from './locate.js';
import type { ValidateOptions } from './options.js';
import type { Finding, Reporter } from './report.js';
import type { Run } from './run.js';

/** Turns a JSON pointer into the payload into the line (and column) it starts at. */
type Where = (pointer: string) => { line: number; column?: number };

/** The request checks of `--request`, set up for the run's dialect, model and tool lists. */
export type RequestChecks = (value: unknown) => RequestFinding[];

/** The kind (and its dialect) `--kind` or `--request` fixes for a run. */
export interface Fixed {
  kind: Kind;
  dialect: Dialect;
}

/** Checks what the inputs hold, counting in {@link Run} and reporting to {@link Reporter}. */
export class Checker {
  constructor(
    readonly options: ValidateOptions,
    readonly fixed: Fixed | undefined,
    readonly checks: SchemaChecks,
    /** The request checks, with `--request` (loaded only then). */
    readonly request: RequestChecks | undefined,
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
      const extra = this.request(value);
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
          ...(f.declaration === undefined ? {} : { declaration: f.declaration }),
          ...(f.serverId === undefined ? {} : { serverId: f.serverId }),
          ...(f.toolName === undefined ? {} : { toolName: f.toolName }),
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
