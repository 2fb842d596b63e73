/**
 * `gemini-mcp-kit validate`: checks JSON and JSONL payloads against the vendored schemas, line
 * by line, in constant memory, and reports every violation with file, line and JSON pointer. A
 * JSON array (what `gemini-mcp-kit tools` prints) is as many payloads, each named by its index.
 * Here: the kind to check and the run over every input; source.ts reads an input (detect.ts
 * tells its format), checker.ts checks what it holds.
 */

import { apiDialect } from '../../adapter/dialect.js';
import { CliError, EXIT } from '../cli-error.js';
import { Checker, type Fixed, type RequestChecks } from './checker.js';
import { expandInputs } from './inputs.js';
import {
  findKind,
  findNamed,
  guessableSchemas,
  SchemaChecks,
  schemaOf,
  similarKinds,
} from './kinds.js';
import type { ValidateIo, ValidateOptions } from './options.js';
import { createReporter, type Summary } from './report.js';
import { Run } from './run.js';
import { checkSource, STDIN_NAME } from './source.js';

export type { ValidateIo, ValidateOptions };

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
  if (options.toolLists !== undefined) {
    throw new CliError(
      '--tool-lists only applies with --request (it names the server and tool of each declaration)',
    );
  }
  if (options.kind === 'auto') return undefined;
  const named = findNamed(options.kind);
  if (named === undefined) {
    const near = similarKinds(options.kind);
    const hint = near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : '';
    throw new CliError(
      `unknown kind "${options.kind}"${hint}; gemini-mcp-kit validate --list-kinds lists them`,
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

/**
 * The request checks of `--request`, for the dialect (its limits) and model, with the tool set of
 * `--tool-lists` when given (loaded only then: `validate` alone never loads them).
 */
async function requestChecks(options: ValidateOptions): Promise<RequestChecks> {
  const { checkRequest } = await import('../../adapter/turn/request-checks.js');
  // The tool set loads the MCP Tool validators: only with --tool-lists.
  const toolset =
    options.toolLists === undefined
      ? undefined
      : await (await import('./tool-lists.js')).loadToolLists(options.toolLists);
  return (value) =>
    checkRequest(value, {
      budget: {
        dialect: options.dialect,
        ...(options.model === undefined ? {} : { model: options.model }),
      },
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(toolset === undefined ? {} : { toolset }),
    });
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
      'validate needs at least one FILE (or - for stdin); see gemini-mcp-kit validate --help',
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
  const request = options.request ? await requestChecks(options) : undefined;
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
      `debug: ${run.lines} lines, ${run.bytes} bytes in ${ms.toFixed(0)} ms (${mbps.toFixed(1)} MB/s, ${Math.round(lps)} lines/s)\n`,
    );
  }
  if (run.inputErrors > 0) return EXIT.USAGE;
  return run.invalid > 0 ? EXIT.INVALID : EXIT.OK;
}
