/**
 * What `gemini-mcp-kit tools`, `answer` and `chat` do, loaded only when one of them runs (so
 * `validate` and `--help` never load the MCP SDK or the runtime).
 */
import { stat } from 'node:fs/promises';
import { apiDialect, type Dialect } from '../../adapter/dialect.js';
import { dialectShapes } from '../../adapter/dialect-shapes.js';
import { resolveBudget } from '../../adapter/limits.js';
import { toolSelection } from '../../adapter/selection/selection.js';
import { type DeclarationWarning, geminiTools } from '../../adapter/tools/declarations.js';
import { isBudgetWarning } from '../../adapter/tools/fit.js';
import { EXPOSED_NAME_PATTERN, type PrefixMode } from '../../adapter/tools/names.js';
import type { ToolSet, ToolSetWarning } from '../../adapter/tools/toolset-types.js';
import { GeminiMcpError } from '../../errors.js';
import type { ReadNotice } from '../../generated/guards-common.js';
import type { Content, GenerateContentResponse, McpTool } from '../../generated/types.js';
import { FileRefusal, readRegularFile } from '../../json/regular-file.js';
import { utf8ByteLength as utf8Bytes } from '../../json/utf8.js';
import type { ServerStatus } from '../../runtime/mcp/connect.js';
import type { SamplingOptions } from '../../runtime/mcp/features/sampling.js';
import type { ServerPlacement } from '../../runtime/mcp/server-side.js';
import { type GenAiClient, genaiGenerate } from '../../runtime/model/generate.js';
import { answerCalls } from '../../runtime/turn/answer.js';
import { runConversation } from '../../runtime/turn/conversation.js';
import { CliError, describeFileError, EXIT } from '../cli-error.js';
import { type CliIo, shownMessage, shownPath, table, terminalSafe } from '../io.js';
import { terminalApproval } from './approval-prompt.js';
import { connect, type ServerFlags } from './connect.js';
import { watchFetch } from './model-endpoint.js';
import { progressLine } from './progress.js';
import { chatContents } from './prompts.js';

/** Gemini's limit on a function name. */
const MAX_EXPOSED_NAME_LENGTH = 64;

/** The options every server-using command shares. */
export interface ServerOpts {
  config?: string;
  server?: string[];
  prefix: PrefixMode;
  timeout: number;
  include?: string[];
  exclude?: string[];
  serverLog?: string;
}

/** The connection flags of a command that talks to servers. */
export const flagsOf = (opts: ServerOpts): ServerFlags => ({
  ...(opts.config === undefined ? {} : { config: opts.config }),
  ...(opts.server === undefined ? {} : { server: opts.server }),
  ...(opts.include === undefined ? {} : { include: opts.include }),
  ...(opts.exclude === undefined ? {} : { exclude: opts.exclude }),
  ...(opts.serverLog === undefined ? {} : { serverLog: opts.serverLog }),
  timeout: opts.timeout,
});

/** `value` as the commands print JSON: indented, C1 controls and bidirectional overrides escaped too. */
const jsonText = (value: unknown): string =>
  terminalSafe(JSON.stringify(value, null, 2), { json: true });

/** The configuration's warnings on stderr (for the commands whose stdout is their result). */
export function writeConfigLines(io: CliIo, lines: readonly string[]): void {
  for (const line of lines) io.stderr.write(`warning: ${terminalSafe(line)}\n`);
}

/** Why a tool was exposed under another name, in words. */
export function renameReasons(name: string, toolset: ToolSet, prefix: PrefixMode): string[] {
  const reasons: string[] = [];
  const servers = new Set(
    toolset.entries.filter((e) => e.tool.name === name).map((e) => e.serverId),
  );
  if (prefix === 'always') reasons.push('--prefix always');
  else if (servers.size > 1) reasons.push(`${servers.size} servers have a tool "${name}"`);
  if (!EXPOSED_NAME_PATTERN.test(name)) {
    if (name.length > MAX_EXPOSED_NAME_LENGTH)
      reasons.push(`longer than ${MAX_EXPOSED_NAME_LENGTH} characters`);
    if (/^[0-9-]/.test(name)) reasons.push('Gemini names start with a letter or _');
    if (/[^A-Za-z0-9_-]/.test(name))
      reasons.push('characters Gemini refuses (only A-Z a-z 0-9 _ -)');
  }
  if (reasons.length === 0) reasons.push('kept unique among the other exposed names');
  return reasons;
}

/** One line per warning, what any format prints to explain the tool set: `[CODE] server/tool: ...`. */
export function warningLine(
  warning: ToolSetWarning | DeclarationWarning,
  toolset?: ToolSet,
  prefix: PrefixMode = 'on-collision',
): string {
  const where = `${warning.serverId}${warning.toolName === undefined ? '' : `/${warning.toolName}`}`;
  if ('unchecked' in warning) {
    const { path, keyword, reason } = warning.unchecked;
    return `[${warning.code}] ${where} ${warning.schema}#${schemaPath(path)} (${keyword}): ${shownMessage(reason)}`;
  }
  if ('warning' in warning) {
    const { path, keyword, detail } = warning.warning;
    return `[${warning.code}] ${where} ${warning.schema}#${schemaPath(path)} (${keyword}): ${shownMessage(detail)}`;
  }
  const why =
    warning.code === 'TOOL_RENAMED' && toolset !== undefined && warning.toolName !== undefined
      ? ` (why: ${renameReasons(warning.toolName, toolset, prefix).join('; ')})`
      : '';
  return `[${warning.code}] ${where}: ${shownMessage(warning.message)}${why}`;
}

/** A pointer into a schema after its `#`: empty for the schema itself, bounded otherwise. */
const schemaPath = (path: string): string => (path === '' ? '' : shownPath(path));

/** A tool's title for people (MCP: its `title`, else `annotations.title`), when it has one. */
function titleOf(tool: McpTool): string | undefined {
  if (typeof tool.title === 'string') return tool.title;
  const title = tool.annotations?.title;
  return typeof title === 'string' ? title : undefined;
}

function parameterSummary(inputSchema: unknown): string {
  const schema = inputSchema as { properties?: Record<string, unknown>; required?: unknown };
  const names = Object.keys(schema?.properties ?? {});
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  return names.length === 0
    ? '(none)'
    : names.map((n) => (required.has(n) ? `${n}*` : n)).join(', ');
}

/** Options of `tools`. */
export interface ToolsOpts extends ServerOpts {
  schemaMode: 'json' | 'openapi';
  responseSchema?: boolean;
  dialect: Dialect;
  budget?: boolean;
  format: string;
  runOn?: 'client' | 'gemini';
}

/** Options of `answer`. */
export interface AnswerOpts extends ServerOpts {
  dialect: Dialect;
  validateArgs?: boolean;
  /** Exit 0 even when calls were answered with an error. */
  allowErrors?: boolean;
}

/** Options of `chat`. */
export interface ChatOpts extends ServerOpts {
  model?: string;
  /** `--no-sampling` makes it false. */
  sampling: boolean;
  dialect: Dialect;
  maxTurns: number;
  maxTools?: number;
  schemaMode: 'json' | 'openapi';
  format: string;
  /** The answer's text as the model sent it, control characters and all (default: escaped). */
  raw?: boolean;
  /** Run every call without asking (default: a destructive or open-world call is asked on the terminal). */
  yes?: boolean;
  /** `--prompt server/name`: start from that prompt, the words its `key=value` arguments. */
  prompt?: string;
  /** `--instructions server`: the servers whose instructions go into the system instruction. */
  instructions?: string[];
}

/**
 * Servers do not declare whether they will ask for sampling, so `tools` (which declares no
 * sampling capability: nothing can ask it) says who would serve them.
 */
const SAMPLING_NOTE =
  'sampling: any of these servers may ask for completions; `chat` serves them with its model (--no-sampling: it does not)\n';

/** One line per server: where it runs, and what keeps it on the client (terminal-safe). */
function placementLines(placements: readonly ServerPlacement[]): string[] {
  return placements.map((placement) => {
    const why = placement.obstacles.map((o) => `${o.reason}: ${o.message}`).join('; ');
    const line =
      placement.runOn === 'gemini'
        ? `${placement.serverId}: on Gemini (Tool.mcpServers)${why === '' ? '' : `, although ${why}`}`
        : `${placement.serverId}: on the client${why === '' ? ' (its entry says so)' : `: ${why}`}`;
    return terminalSafe(line);
  });
}

/**
 * The revision each server is spoken to in, one line: `revisions: docs 2026-07-28 (modern,
 * streamable-http), fs 2025-11-25 (legacy, stdio)`, escaped like every server string.
 */
function revisionsLine(status: ReadonlyMap<string, ServerStatus>): string {
  const each = [...status].map(
    ([serverId, { protocolVersion, era, transport }]) =>
      `${terminalSafe(serverId)} ${terminalSafe(protocolVersion)} (${era}, ${transport})`,
  );
  return each.length === 0 ? '' : `revisions: ${each.join(', ')}\n`;
}

/** `gemini-mcp-kit tools`. */
export async function runTools(io: CliIo, opts: ToolsOpts): Promise<void> {
  const flags = { ...flagsOf(opts), ...(opts.runOn === undefined ? {} : { runOn: opts.runOn }) };
  const connections = await connect(flags, { prefix: opts.prefix }, io);
  try {
    const declarationWarnings: DeclarationWarning[] = [];
    const tools = geminiTools(connections.toolset, {
      schemaMode: opts.schemaMode,
      responseSchema: opts.responseSchema === true,
      budget: { dialect: opts.dialect },
      onWarning: (w) => declarationWarnings.push(w),
      mcpServers: connections.mcpServers,
    });
    const report =
      opts.budget === true
        ? budgetReport(opts.dialect, tools, connections.toolset, declarationWarnings)
        : [];
    const placed = opts.runOn === undefined ? [] : placementLines(connections.placements);
    const warnings = [
      ...connections.configLines,
      ...[...connections.warnings, ...declarationWarnings].map((w) =>
        warningLine(w, connections.toolset, opts.prefix),
      ),
    ].map((line) => terminalSafe(line));
    const servers = [...connections.clients.keys()];
    if (opts.format === 'table') {
      const rows = [
        ['NAME', 'SERVER', 'TOOL', 'TITLE', 'PARAMETERS'],
        ...connections.toolset.entries.map((e) => [
          e.exposedName,
          e.serverId,
          e.tool.name,
          titleOf(e.tool) ?? '-',
          parameterSummary(e.tool.inputSchema),
        ]),
      ];
      io.stdout.write(`${table(rows)}\n\n`);
      const from = connections.example ? ' (the bundled example server)' : '';
      io.stdout.write(
        `${connections.toolset.entries.length} tool(s) from ${servers.length} server(s): ${servers.map((id) => terminalSafe(id)).join(', ')}${from}; schema mode ${opts.schemaMode}\n`,
      );
      io.stdout.write(revisionsLine(connections.status));
      if (placed.length > 0)
        io.stdout.write(`where they run:\n${placed.map((l) => `  ${l}\n`).join('')}`);
      io.stdout.write(
        warnings.length === 0
          ? 'no warnings\n'
          : `${warnings.length} warning(s):\n${warnings.map((w) => `  ${w}\n`).join('')}`,
      );
      for (const line of report) io.stdout.write(`${line}\n`);
      io.stdout.write(SAMPLING_NOTE);
    } else {
      io.stdout.write(`${jsonText(tools)}\n`);
      for (const line of placed) io.stderr.write(`run-on: ${line}\n`);
      for (const warning of warnings) io.stderr.write(`warning: ${warning}\n`);
      for (const line of report) io.stderr.write(`${line}\n`);
    }
  } finally {
    await connections.close();
  }
}

/** A turn file larger than this is refused (read no further): 64 MiB. */
const MAX_TURN_FILE_BYTES = 64 * 1024 * 1024;
/**
 * `tools --budget`: the dialect's limits, how many tools its request declares of the set, and
 * each tool left out with why (the budget warnings, already among the warnings), in a few lines.
 */
function budgetReport(
  dialect: Dialect,
  tools: readonly object[],
  toolset: ToolSet,
  warnings: readonly DeclarationWarning[],
): string[] {
  const budget = resolveBudget({ dialect });
  const declarations = tools.find(
    (tool): tool is { functionDeclarations: readonly unknown[] } => 'functionDeclarations' in tool,
  )?.functionDeclarations;
  const declared = declarations?.length ?? 0;
  const bytes = declarations === undefined ? 0 : utf8Bytes(JSON.stringify(declarations));
  const left = warnings.filter(isBudgetWarning);
  const count = (code: string): number => left.filter((w) => w.code === code).length;
  return [
    `budget for ${budget.dialect}: ${budget.maxDeclarations} declarations, ${budget.maxRequestBytes} bytes of declarations, ${budget.maxDeclarationBytes} bytes and ${budget.maxDepth} JSON levels of schema per declaration`,
    `declared: ${declared} of ${toolset.entries.length} tool(s), ${bytes} bytes; left out: ${left.length} (${count('TOOL_OVER_LIMIT')} over a limit on their own, ${count('TOOL_OVER_BUDGET')} over the request's budget)${left.length === 0 ? '' : ', each named in a warning above'}`,
    ...(left.length === 0
      ? []
      : ['`chat --max-tools N` lets the model search the tools left out (gmk__search_tools)']),
  ];
}

async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    if ((await stat(path)).isDirectory())
      throw new CliError(`${path}: is a directory, expected a JSON file`);
    text = (await readRegularFile(path, MAX_TURN_FILE_BYTES)).toString('utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    if (error instanceof FileRefusal) throw new CliError(`${path}: ${error.message}`);
    throw new CliError(describeFileError(path, error));
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(`${path}: invalid JSON (${reason})`, EXIT.INVALID);
  }
}

/** A notice of the read contract, as a warning line (the field names in it escaped, its pointer and message bounded). */
function noticeLine(source: string, notice: ReadNotice): string {
  return `warning: ${terminalSafe(`${source} at ${shownPath(notice.path)}: ${shownMessage(notice.message)}`)}\n`;
}

/**
 * A saved model turn (a GenerateContentResponse or a model Content), read with the read
 * contract: what is newer than the vendored revision is kept and warned about on stderr.
 */
function readTurn(
  io: CliIo,
  path: string,
  value: unknown,
  dialect: Dialect,
): GenerateContentResponse | Content {
  const { response, modelContent } = dialectShapes(dialect);
  const asResponse = response.read(value);
  const asContent = modelContent.read(value);
  const hasParts = (value as { parts?: unknown } | null)?.parts !== undefined;
  const [read, turn] =
    asResponse.violations.length === 0 &&
    (value as { candidates?: unknown }).candidates !== undefined
      ? [asResponse, value as GenerateContentResponse]
      : hasParts && asContent.violations.length === 0
        ? [asContent, value as Content]
        : [undefined, undefined];
  if (read === undefined || turn === undefined) {
    const first = asResponse.violations[0] ?? { path: '', message: 'has no candidates' };
    throw new CliError(
      `${path}: not a ${response.schema} (nor a model ${modelContent.schema}): at ${shownPath(first.path)}: ${shownMessage(first.message)}; gemini-mcp-kit validate ${path} lists every problem`,
      EXIT.INVALID,
    );
  }
  for (const notice of read.notices) io.stderr.write(noticeLine(path, notice));
  return turn;
}

/** Calls named in the summary of `answer`'s errors, at most. */
const MAX_NAMED_ERRORS = 5;

/**
 * One line on the calls answered with an error (rejected, failed, timed out), or undefined when
 * every call was answered with its result: how many of how many, and which (with the error's
 * code when it has one: `nope (UNKNOWN_FUNCTION)`).
 */
function errorSummary(parts: readonly { functionResponse?: unknown }[]): string | undefined {
  const failed = parts.flatMap((part) => {
    const { name, response } = (part.functionResponse ?? {}) as {
      name?: string;
      response?: { error?: unknown };
    };
    if (response?.error === undefined) return [];
    const code = /^([A-Z][A-Z_]+): /.exec(String(response.error))?.[1];
    return [code === undefined ? `${name}` : `${name} (${code})`];
  });
  if (failed.length === 0) return undefined;
  const named = failed.slice(0, MAX_NAMED_ERRORS).join(', ');
  const more =
    failed.length > MAX_NAMED_ERRORS ? ` and ${failed.length - MAX_NAMED_ERRORS} more` : '';
  return `${failed.length} of ${parts.length} call(s) answered with an error: ${named}${more}`;
}

/** `gemini-mcp-kit answer`. */
export async function runAnswer(io: CliIo, file: string, opts: AnswerOpts): Promise<void> {
  const turn = readTurn(io, file, await readJsonFile(file), opts.dialect);
  const connections = await connect(flagsOf(opts), { prefix: opts.prefix }, io);
  writeConfigLines(io, connections.configLines);
  const progress = progressLine(io.stderr);
  try {
    const content = await answerCalls(turn, connections.toolset, connections.clients, {
      dialect: opts.dialect,
      timeoutMs: opts.timeout,
      ...(opts.validateArgs === true ? { validateArgs: true } : {}),
      ...progress.callOptions,
    });
    progress.clear();
    io.stdout.write(`${jsonText(content)}\n`);
    const summary = errorSummary(content.parts);
    if (summary !== undefined) {
      io.stderr.write(`gemini-mcp-kit answer: ${terminalSafe(summary)}\n`);
      if (opts.allowErrors !== true) process.exitCode = EXIT.INVALID;
    }
  } catch (error) {
    if (error instanceof GeminiMcpError && error.code === 'INVALID_INPUT') {
      throw new CliError(`${file}: ${error.message}`, EXIT.INVALID, { cause: error });
    }
    throw error;
  } finally {
    progress.clear();
    await connections.close();
  }
}

const DEFAULT_MODEL = 'gemini-2.5-flash';

/** The client, its replies typed as the schema has them once `genaiGenerate` checked them. */
type ChatClient = GenAiClient<GenerateContentResponse>;

/** What the chat gives @google/genai's constructor: an API key, or Vertex AI and its version. */
type ClientOptions = { apiKey: string } | { vertexai: true; apiVersion: string };

async function loadGenAi(options: ClientOptions): Promise<ChatClient> {
  let module: { GoogleGenAI: new (options: ClientOptions) => ChatClient };
  try {
    module = (await import('@google/genai')) as unknown as typeof module;
  } catch (error) {
    throw new CliError(
      'chat needs the @google/genai package: npm install @google/genai',
      EXIT.USAGE,
      {
        cause: error,
      },
    );
  }
  return new module.GoogleGenAI(options);
}

/**
 * How `chat` serves its servers' sampling requests: with the chat's own model, each request
 * shown on stderr as it is accepted (within the default limits), each loss warned.
 */
function chatSampling(
  io: CliIo,
  generate: SamplingOptions['generate'],
  model: string,
  opts: ChatOpts,
): SamplingOptions {
  return {
    generate,
    model,
    declarations: { schemaMode: opts.schemaMode },
    onSamplingRequest: ({ serverId, params }) => {
      const last = params.messages.at(-1)?.content;
      const text = [last ?? []].flat().find((block) => block.type === 'text')?.text ?? '';
      io.stderr.write(
        `<- sampling request from ${terminalSafe(serverId)} (${params.messages.length} message(s), maxTokens ${params.maxTokens}): ${terminalSafe(text.slice(0, 200))}\n`,
      );
      return { action: 'accept' };
    },
    onWarning: (warning, { serverId }) =>
      io.stderr.write(
        `warning: ${terminalSafe(`sampling for ${serverId} at ${shownPath(warning.path)}: ${shownMessage(warning.message)}`)}\n`,
      ),
  };
}

/**
 * The client options for a dialect: the Gemini API with GEMINI_API_KEY, or Vertex AI at the
 * dialect's version, @google/genai reading its project, location or express-mode key from the
 * environment (GOOGLE_CLOUD_PROJECT, GOOGLE_CLOUD_LOCATION, GOOGLE_API_KEY).
 */
function clientOptions(dialect: Dialect): ClientOptions {
  const api = apiDialect(dialect);
  if (api !== 'gemini') return { vertexai: true, apiVersion: api.slice('vertex-'.length) };
  const apiKey = process.env.GEMINI_API_KEY;
  if (apiKey === undefined || apiKey === '') {
    throw new CliError(
      'chat needs a Gemini API key: set GEMINI_API_KEY (get one at https://aistudio.google.com/apikey)',
    );
  }
  return { apiKey };
}

/**
 * The chat's tool selection: when the set holds more tools than `--max-tools` or the dialect's
 * limit on declarations, the model searches them (said on stderr); else every tool is declared.
 */
function chatSelection(io: CliIo, toolset: ToolSet, opts: ChatOpts) {
  if (opts.maxTools !== undefined && opts.maxTools < 2) {
    throw new CliError(
      '--max-tools must be at least 2 (gmk__search_tools takes one declaration)',
      EXIT.USAGE,
    );
  }
  const most = Math.min(
    opts.maxTools ?? Number.POSITIVE_INFINITY,
    resolveBudget({ dialect: opts.dialect }).maxDeclarations,
  );
  const count = toolset.entries.length;
  if (count <= most) return undefined;
  io.stderr.write(
    `${count} tools, more than the ${most} a request declares here: the model searches them (gmk__search_tools)\n`,
  );
  return toolSelection(opts.maxTools === undefined ? {} : { maxTools: opts.maxTools });
}

/** `gemini-mcp-kit chat`. */
export async function runChat(io: CliIo, words: string[], opts: ChatOpts): Promise<void> {
  const model = opts.model ?? process.env.GEMINI_MODEL ?? DEFAULT_MODEL;
  const ai = await loadGenAi(clientOptions(opts.dialect));
  // A variable, so that the response type is inferred from it before onTurn is typed.
  const generate = genaiGenerate(ai, { model, dialect: opts.dialect });
  const connections = await connect(
    {
      ...flagsOf(opts),
      ...(opts.instructions === undefined ? {} : { instructions: opts.instructions }),
    },
    { prefix: opts.prefix },
    io,
    opts.sampling ? chatSampling(io, generate, model, opts) : undefined,
  );
  writeConfigLines(io, connections.configLines);
  const progress = progressLine(io.stderr);
  const watch = watchFetch();
  try {
    const contents = await chatContents(io, connections, words, opts.prompt, opts.timeout);
    const selection = chatSelection(io, connections.toolset, opts);
    const systemInstruction = connections.systemInstruction();
    const result = await runConversation({
      generate:
        systemInstruction === undefined
          ? generate
          : genaiGenerate(ai, { model, dialect: opts.dialect, config: { systemInstruction } }),
      toolset: connections, // each request waits for tool refreshes a call started
      clients: connections.clients,
      contents,
      maxTurns: opts.maxTurns,
      dialect: opts.dialect,
      timeoutMs: opts.timeout,
      declarations: { schemaMode: opts.schemaMode },
      ...(selection === undefined ? {} : { selection }),
      ...(opts.yes === true ? {} : { onToolCall: terminalApproval(io) }),
      onNotice: (notice) => io.stderr.write(noticeLine('the model', notice)),
      ...progress.callOptions,
      onTurn: (turn) => {
        progress.clear();
        for (const part of turn.model.parts ?? []) {
          if (part.functionCall === undefined) continue;
          const { name, args } = part.functionCall;
          io.stderr.write(`-> ${terminalSafe(`${name}(${JSON.stringify(args ?? {})})`)}\n`);
        }
        for (const part of turn.answer.parts ?? []) {
          const response = part.functionResponse?.response as Record<string, unknown> | undefined;
          if (response === undefined) continue;
          const shown = JSON.stringify(response.error ?? response.output ?? response);
          const tag = response.error === undefined ? '<-' : '<- error:';
          io.stderr.write(
            `${tag} ${terminalSafe(`${part.functionResponse?.name}: ${shown.slice(0, 200)}`)}\n`,
          );
        }
      },
    }).catch((error: unknown) => {
      throw watch.describe(error, endpointHint(opts.dialect)) ?? error;
    });
    if (opts.format === 'json') {
      io.stdout.write(
        `${jsonText({ stop: result.stop, turns: result.turns, contents: result.contents })}\n`,
      );
    } else if (result.stop.reason === 'answered') {
      const { text } = result.stop;
      io.stdout.write(`${opts.raw === true ? text : terminalSafe(text, { keepLines: true })}\n`);
    }
    const { stop } = result;
    if (stop.reason === 'answered') return;
    const why =
      stop.reason === 'max-turns'
        ? `stopped after ${stop.maxTurns} model turns with calls still coming (--max-turns)`
        : stop.reason === 'call-failure'
          ? `the model's function calling failed: ${stop.finish.reason}${stop.finish.message === undefined ? '' : ` (${stop.finish.message})`}`
          : stop.reason === 'no-content'
            ? `the model returned no content${stop.finishReason === undefined ? '' : ` (finish reason ${stop.finishReason})`}`
            : 'cancelled';
    io.stderr.write(`gemini-mcp-kit chat: ${terminalSafe(why)}\n`);
    process.exitCode = EXIT.INVALID;
  } finally {
    watch.restore();
    progress.clear();
    await connections.close();
  }
}

/** Where the chat's endpoint came from, when an environment variable moved it. */
function endpointHint(dialect: Dialect): string {
  const variable =
    apiDialect(dialect) === 'gemini' ? 'GOOGLE_GEMINI_BASE_URL' : 'GOOGLE_VERTEX_BASE_URL';
  return (process.env[variable] ?? '') === '' ? '' : ` (set by ${variable})`;
}
