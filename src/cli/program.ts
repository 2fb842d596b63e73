/**
 * The `gemini-mcp-kit` command line: `validate`, `tools`, `prompts`, `answer`, `chat` and `live`, parsed with
 * commander. {@link main} returns the exit code instead of exiting, so stdout is flushed.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { DIALECT_NAMES } from '../adapter/dialect.js';
import { GeminiMcpError } from '../errors.js';
import { packageVersion } from '../runtime/version.js';
import { positiveInteger } from './arguments.js';
import { CliError, EXIT } from './cli-error.js';
import { type CliIo, terminalSafe } from './io.js';
import type { ValidateOptions } from './validate/command.js';
import type { Kind } from './validate/kinds.js';
import { DEFAULT_MAX_LINE_BYTES } from './validate/lines.js';

function byteCount(value: string): number {
  const match = /^(\d+)\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?$/i.exec(value.trim());
  if (match === null)
    throw new InvalidArgumentError('expected a size such as 65536, 512KiB or 64MiB');
  const unit = (match[2] ?? 'b').toLowerCase()[0];
  const scale = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  const n = Number(match[1]) * scale;
  if (n <= 0) throw new InvalidArgumentError('expected a size above 0');
  return n;
}

/** Lists every kind with its schema(s), for `validate --list-kinds`. */
function listKinds(
  KINDS: readonly Kind[],
  received: (schema: Kind['schema']) => boolean,
  out: NodeJS.WritableStream,
): void {
  const width = KINDS.reduce((most, k) => Math.max(most, k.name.length), 0);
  for (const kind of KINDS) {
    const twins = Object.entries(kind.vertex)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([dialect, schema]) => `${dialect}: ${schema}`);
    const schemas = twins.length === 0 ? kind.schema : `${kind.schema} (${twins.join(', ')})`;
    const aliases = kind.aliases.length > 0 ? `  also: ${kind.aliases.join(', ')}` : '';
    const read = received(kind.schema) ? '  (received: read contract)' : '';
    out.write(`${kind.name.padEnd(width)}  ${schemas}${aliases}${read}\n`);
  }
}

function validateCommand(io: CliIo): Command {
  return new Command('validate')
    .summary('check Gemini and MCP payloads (JSON, JSONL, stdin) against the vendored schemas')
    .description(
      [
        'Check Gemini and MCP payloads against the vendored schemas.',
        'FILE is a .json file (one payload, may be pretty-printed), a .jsonl/.ndjson file (one payload per line) or - for stdin; other files are read as JSONL when their first line is a JSON value by itself. Input is streamed: memory stays flat however large the file.',
        "FILE may be a glob, quoted so that gemini-mcp-kit expands it the same under every shell: 'fixtures/**/*.json' (matches sorted; a glob matching no file is an input error).",
        'A JSON array (what gemini-mcp-kit tools prints, say) is as many payloads, each named by its index: /3/parts/0 is in the fourth.',
        'Received kinds (generate-content-response, mcp-tool, list-tools-result, call-tool-result, content blocks and what they hold) are read with the read contract: what is newer than the vendored schemas (a field, an enum value, a kind of part) is a warning; --strict makes it an error. Other kinds (requests, declarations and the like) are what we send: always strict.',
        'Exit status: 0 every payload valid, 1 some payload invalid, 2 usage or input error.',
      ].join('\n\n'),
    )
    .argument('[FILE...]', 'payload files or quoted globs; - reads stdin')
    .addOption(
      new Option(
        '-k, --kind <kind>',
        'payload kind (see --list-kinds), or auto: picked by shape',
      ).default('auto'),
    )
    .addOption(
      new Option(
        '-d, --dialect <dialect>',
        'the API and version whose shapes to check (vertex = vertex-v1beta1)',
      )
        .choices(DIALECT_NAMES)
        .default('gemini'),
    )
    .addOption(
      new Option('-f, --format <format>', 'output format')
        .choices(['text', 'json', 'github'])
        .default('text'),
    )
    .option(
      '--strict',
      'received kinds (responses, MCP tools, tool results, content blocks) with the write contract: fields, enum values and kinds of part newer than the vendored schemas are errors, not warnings',
    )
    .option(
      '--request',
      "check GenerateContentRequests also for what no single schema sees: colliding function names, both parameter forms, functionResponse turns not matching their functionCall turn, missing thought signatures, and what the API enforces beyond its schemas (declarations per request, names, parameter names, nesting depth, size: the limits of --dialect, see the README's API limits)",
    )
    .option(
      '--tool-lists <file>',
      "with --request: the servers' tool lists the request was built from (JSON: [{serverId, tools}], or server id to its tools or tools/list result), so that each finding names its server and tool",
    )
    .option(
      '--model <model>',
      'with --request: the model the request goes to (decides the thought-signature rule)',
    )
    .addOption(
      new Option(
        '--input <format>',
        'how to read FILEs: auto (by extension, then content), json or jsonl',
      )
        .choices(['auto', 'json', 'jsonl'])
        .default('auto'),
    )
    .addOption(
      new Option('--max-line-bytes <size>', 'longest line (and JSON document) read, e.g. 64MiB')
        .argParser(byteCount)
        .default(DEFAULT_MAX_LINE_BYTES, '64MiB'),
    )
    .addOption(
      new Option('--max-items <n>', 'payloads one JSON array may hold at most')
        .argParser(positiveInteger)
        .default(100_000),
    )
    .addOption(
      new Option('--max-errors <n>', 'problems printed (text, github) or kept (json) at most')
        .argParser(positiveInteger)
        .default(1000),
    )
    .option('--list-kinds', 'list every kind and its schema, then exit')
    .action(async (files: string[], opts: Record<string, unknown>, command: Command) => {
      if (opts.listKinds === true) {
        const { KINDS, isReceived } = await import('./validate/kinds.js');
        listKinds(KINDS, isReceived, io.stdout);
        return;
      }
      const globals = command.optsWithGlobals() as { debug?: boolean };
      const options: ValidateOptions = {
        kind: String(opts.kind),
        strict: opts.strict === true,
        dialect: opts.dialect as ValidateOptions['dialect'],
        format: opts.format as ValidateOptions['format'],
        request: opts.request === true,
        input: opts.input as ValidateOptions['input'],
        maxLineBytes: opts.maxLineBytes as number,
        maxItems: opts.maxItems as number,
        maxErrors: opts.maxErrors as number,
        debug: globals.debug === true,
        ...(typeof opts.model === 'string' ? { model: opts.model } : {}),
        ...(typeof opts.toolLists === 'string' ? { toolLists: opts.toolLists } : {}),
      };
      const { runValidate } = await import('./validate/command.js');
      process.exitCode = await runValidate(files, options, io);
    });
}

/** Builds the program of `commands`; each command's action sets `process.exitCode`. */
function buildProgram(io: CliIo, commands: ((io: CliIo) => Command)[]): Command {
  const program = new Command('gemini-mcp-kit')
    .description(
      'Connect MCP servers to Gemini function calling; check payloads against the API schemas.',
    )
    .version(packageVersion(), '-V, --version', 'print the version')
    .option(
      '--debug',
      "on stderr: a failure's stack trace and causes, and the run's time, CPU and peak memory",
    )
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(`gemini-mcp-kit: ${s.replace(/^error: /, '')}`),
    });
  for (const make of commands) {
    const command = make(io);
    command
      .exitOverride()
      .showSuggestionAfterError(true)
      .configureOutput({
        writeOut: (s) => io.stdout.write(s),
        writeErr: (s) => io.stderr.write(s),
        outputError: (s, write) =>
          write(
            `gemini-mcp-kit ${command.name()}: ${s.replace(/^error: /, '').trimEnd()} (see --help)\n`,
          ),
      });
    program.addCommand(command);
  }
  return program;
}

function describe(error: unknown, debug: boolean): string {
  if (error instanceof CliError || error instanceof GeminiMcpError) return error.message;
  if (error instanceof Error)
    return `unexpected error: ${error.message}${debug ? '' : ' (run with --debug for details)'}`;
  return `unexpected error: ${String(error)}`;
}

/** Causes followed at most, in `--debug`'s stack traces. */
const MAX_CAUSES = 5;

/** `--debug`: the failure's stack trace, then each cause's. */
function writeStacks(io: CliIo, error: unknown): void {
  let at = error;
  for (let depth = 0; depth <= MAX_CAUSES && at !== undefined && at !== null; depth++) {
    const text = at instanceof Error ? (at.stack ?? `${at.name}: ${at.message}`) : String(at);
    io.stderr.write(`${depth === 0 ? '' : 'cause: '}${text}\n`);
    at = at instanceof Error ? at.cause : undefined;
  }
}

/** `--debug`: what the run cost, on one line (every command, whatever its outcome). */
function writeResourceUse(io: CliIo, startedAt: bigint): void {
  const ms = Number(process.hrtime.bigint() - startedAt) / 1e6;
  const { userCPUTime, systemCPUTime, maxRSS } = process.resourceUsage();
  io.stderr.write(
    `debug: ${ms.toFixed(0)} ms, CPU ${(userCPUTime / 1000).toFixed(0)} ms user + ${(systemCPUTime / 1000).toFixed(0)} ms system; maxRSS ${maxRSS} KiB\n`,
  );
}

/** Runs the command line and returns its exit code (never throws). */
export async function main(
  argv: readonly string[],
  io: CliIo,
  extra: ((io: CliIo) => Command)[] = [],
): Promise<number> {
  const debug = argv.includes('--debug');
  // `validate` (run in CI, on large files, where start-up counts) builds no other command: a
  // subcommand's parsing, errors and help never read its siblings.
  const commands =
    argv[2] === 'validate'
      ? [validateCommand]
      : [validateCommand, ...(await import('./servers/commands.js')).SERVER_COMMANDS, ...extra];
  const program = buildProgram(io, commands);
  if (argv.length <= 2) {
    io.stdout.write(program.helpInformation());
    return EXIT.OK;
  }
  process.exitCode = undefined;
  const startedAt = process.hrtime.bigint();
  try {
    await program.parseAsync([...argv]);
    const code = process.exitCode;
    return typeof code === 'number' ? code : EXIT.OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    }
    io.stderr.write(`gemini-mcp-kit: ${terminalSafe(describe(error, debug))}\n`);
    if (debug) writeStacks(io, error);
    if (error instanceof CliError) return error.exitCode;
    if (error instanceof GeminiMcpError) {
      return error.code === 'INVALID_PAYLOAD' ? EXIT.INVALID : EXIT.USAGE;
    }
    return EXIT.USAGE;
  } finally {
    if (debug) writeResourceUse(io, startedAt);
  }
}
