/** How `validate` reports: plain text, GitHub workflow annotations, or one JSON document. */

import { terminalSafe } from '../io.js';

/** One problem with a payload: an error (fails it) or a warning (does not). */
export interface Finding {
  severity: 'error' | 'warning';
  /** The input's name as given (`<stdin>` for `-`). */
  file: string;
  /** 1-based line in the input where the problem is (the payload's line in JSONL). */
  line: number;
  column?: number;
  /** The kind checked (`content`), absent when the payload was no JSON or of unknown kind. */
  kind?: string;
  /** The schema checked (`Content`, `VertexContent`). */
  schema?: string;
  /** JSON pointer into the payload (`""` for the root). */
  pointer: string;
  message: string;
  /** The schema keyword or rule that failed (`required`, `json`, `request/response-count`, ...). */
  keyword?: string;
  /** With `--request`: the function declaration concerned, by its declared name. */
  declaration?: string;
  /** With `--request --tool-lists`: the server of that declaration's tool. */
  serverId?: string;
  /** With `--request --tool-lists`: that tool, as its server names it. */
  toolName?: string;
}

/** An input that could not be read (missing, a directory, a line over the cap, ...). */
interface InputError {
  file: string;
  line?: number;
  message: string;
}

/** The totals of a run. */
export interface Summary {
  inputs: number;
  payloads: number;
  valid: number;
  invalid: number;
  warnings: number;
  inputErrors: number;
  /** With `--kind auto`: how many payloads were taken for each kind. */
  kinds: Record<string, number>;
  auto: boolean;
  kind?: string;
  schema?: string;
}

/** Receives findings as they come and prints them. */
export interface Reporter {
  finding(finding: Finding): void;
  inputError(error: InputError): void;
  finish(summary: Summary): void;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function summaryLine(s: Summary): string {
  const parts = [
    `${plural(s.payloads, 'payload')} in ${plural(s.inputs, 'input')}: ${s.valid} valid, ${s.invalid} invalid`,
  ];
  if (s.warnings > 0) parts.push(plural(s.warnings, 'warning'));
  if (s.inputErrors > 0) parts.push(plural(s.inputErrors, 'input error'));
  let line = parts.join(', ');
  if (s.auto) {
    const kinds = Object.entries(s.kinds).map(([k, n]) => `${k} ${n}`);
    if (kinds.length > 0) line += `; kind picked by shape (--kind auto): ${kinds.join(', ')}`;
  } else if (s.kind !== undefined) {
    line += `; kind ${s.kind} (${s.schema})`;
  }
  return line;
}

function where(f: { file: string; line?: number; column?: number }): string {
  if (f.line === undefined) return f.file;
  return f.column === undefined ? `${f.file}:${f.line}` : `${f.file}:${f.line}:${f.column}`;
}

function subject(f: Finding): string {
  const at = f.pointer === '' ? '(root)' : f.pointer;
  return f.kind === undefined ? '' : `${f.kind} at ${at}: `;
}

/** GitHub's escaping of workflow command data and properties. */
const escapeData = (s: string): string =>
  s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string): string =>
  escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

interface Limited {
  shown: number;
  hidden: number;
}

function textReporter(out: NodeJS.WritableStream, maxErrors: number, github: boolean): Reporter {
  const count: Limited = { shown: 0, hidden: 0 };
  const print = (line: string): void => {
    if (count.shown >= maxErrors) {
      count.hidden++;
      return;
    }
    count.shown++;
    out.write(`${github ? line : terminalSafe(line)}\n`);
  };
  return {
    finding(f) {
      if (github) {
        const props = [`file=${escapeProperty(f.file)}`, `line=${f.line}`];
        if (f.column !== undefined) props.push(`col=${f.column}`);
        const title =
          f.kind === undefined ? 'gemini-mcp-kit validate' : `${f.kind} ${f.pointer || '(root)'}`;
        props.push(`title=${escapeProperty(title)}`);
        print(`::${f.severity} ${props.join(',')}::${escapeData(f.message)}`);
      } else {
        const label = f.severity === 'warning' ? 'warning: ' : '';
        print(`${where(f)}: ${label}${subject(f)}${f.message}`);
      }
    },
    inputError(e) {
      if (github) {
        const props = [`file=${escapeProperty(e.file)}`];
        if (e.line !== undefined) props.push(`line=${e.line}`);
        print(`::error ${props.join(',')},title=gemini-mcp-kit validate::${escapeData(e.message)}`);
      } else {
        print(e.message.startsWith(e.file) ? e.message : `${e.file}: ${e.message}`);
      }
    },
    finish(summary) {
      if (count.hidden > 0) {
        out.write(
          `... ${plural(count.hidden, 'more problem')} not shown (--max-errors ${maxErrors})\n`,
        );
      }
      out.write(`${summaryLine(summary)}\n`);
    },
  };
}

function jsonReporter(out: NodeJS.WritableStream, maxErrors: number): Reporter {
  const findings: Finding[] = [];
  const inputErrors: InputError[] = [];
  let omitted = 0;
  return {
    finding(f) {
      if (findings.length < maxErrors) findings.push(f);
      else omitted++;
    },
    inputError(e) {
      if (inputErrors.length < maxErrors) inputErrors.push(e);
      else omitted++;
    },
    finish(summary) {
      const { kinds, auto, kind, schema, ...counts } = summary;
      const report = {
        ok: summary.invalid === 0 && summary.inputErrors === 0,
        counts,
        auto,
        ...(kind === undefined ? {} : { kind, schema }),
        kinds,
        findings,
        inputErrors,
        omitted,
      };
      out.write(`${terminalSafe(JSON.stringify(report, null, 2), { json: true })}\n`);
    },
  };
}

/** The reporter for a `--format`. At most `maxErrors` problems are kept or printed. */
export function createReporter(
  format: 'text' | 'json' | 'github',
  out: NodeJS.WritableStream,
  maxErrors: number,
): Reporter {
  return format === 'json'
    ? jsonReporter(out, maxErrors)
    : textReporter(out, maxErrors, format === 'github');
}
