/**
 * `validate --request`: what no single schema sees in a GenerateContentRequest. Each finding
 * names its rule (`request/...`) and a JSON pointer into the request.
 *
 * Thought signatures, the rule applied (source: https://ai.google.dev/gemini-api/docs/thought-signatures,
 * "Function calling" and "Parallel function calling"): Gemini 3 models validate thought
 * signatures of function calling in the *current turn*, i.e. every content after the last user
 * content that holds something other than functionResponse parts (the user's own message).
 * In that span, each model content with function calls must carry a `thoughtSignature` on its
 * *first* functionCall part (in parallel calls only the first part carries one; sequential
 * steps each carry their own); a missing one is answered with HTTP 400. Earlier turns are not
 * validated, and Gemini 2.5 models accept missing signatures. So a missing signature is an
 * error when the model is known to be Gemini 3 or later (`--model`, or the request's `model`
 * field), a warning when the model is unknown, and nothing for a known earlier model.
 */

import type { ViolationDetail } from '../../errors.js';
import { isJsonObject } from '../../json/object.js';
import {
  type BudgetOptions,
  type DeclarationBudget,
  declarationProblems,
  limitSource,
  measureDeclaration,
  resolveBudget,
} from '../limits.js';
import {
  isGoogleDuration,
  serverNameProblem,
  unreachableFromGoogle,
} from '../tools/server-side.js';
import type { ToolSet } from '../tools/toolset-types.js';

/** A finding of {@link checkRequest}: an error fails the payload, a warning does not. */
export interface RequestFinding extends ViolationDetail {
  readonly severity: 'error' | 'warning';
  /** The function declaration concerned, by the name it is declared under. */
  readonly declaration?: string;
  /** With a tool set: the server of that declaration's tool. */
  readonly serverId?: string;
  /** With a tool set: that tool, as its server names it. */
  readonly toolName?: string;
}

/** Options of {@link checkRequest}. */
export interface RequestCheckOptions {
  /** The model the request goes to (`gemini-3-pro-preview`, `models/gemini-2.5-flash`). */
  model?: string;
  /**
   * The budget the declarations are checked against: the API limits of `budget.dialect` (default
   * `'gemini'`) with any figure overridden (see `resolveBudget`).
   */
  budget?: BudgetOptions;
  /**
   * The tool set the request's declarations were built from: findings about a declaration then
   * name its server and tool (`serverId`, `toolName`).
   */
  toolset?: ToolSet;
  /**
   * Whether the request goes to a streaming method (`streamGenerateContent`,
   * `generateContentStream`) or a unary one (`generateContent`): the body is the same either
   * way, so only the caller can say. With `false`, a request asking for streamed function-call
   * arguments (`toolConfig.functionCallingConfig.streamFunctionCallArguments`) is flagged; left
   * out, that rule says nothing.
   */
  streamed?: boolean;
}

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => isJsonObject(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Gemini's major version in a model name (`models/gemini-3-pro-preview` -> 3), if it has one. */
function geminiMajorVersion(model: string): number | undefined {
  const match = /(?:^|\/)gemini-(\d+)(?:[.-]|$)/.exec(model);
  return match === null ? undefined : Number(match[1]);
}

const SIGNATURE_DOCS = 'https://ai.google.dev/gemini-api/docs/thought-signatures';

/** Call ids a message quotes, at most; the rest are counted. */
const MAX_QUOTED_IDS = 5;

/** Findings of one rule in one turn, at most; one more finding counts the rest. */
const MAX_FINDINGS_PER_RULE = 20;

/** The first {@link MAX_QUOTED_IDS} ids, comma-separated, and how many more there are. */
function quoteIds(ids: readonly string[]): string {
  const shown = ids.slice(0, MAX_QUOTED_IDS).join(', ');
  const more = ids.length - MAX_QUOTED_IDS;
  return more > 0 ? `${shown}, and ${more} more` : shown;
}

/** What a finding about one declaration says of it: its name, and its server and tool when known. */
function about(declaration: Json, toolset: ToolSet | undefined): Partial<RequestFinding> {
  const { name } = declaration;
  if (typeof name !== 'string') return {};
  const entry = toolset?.resolve(name);
  return {
    declaration: name,
    ...(entry === undefined ? {} : { serverId: entry.serverId, toolName: entry.tool.name }),
  };
}

/** ` (server "s", tool "t")` for a finding that knows them, else nothing. */
function whose(found: Partial<RequestFinding>): string {
  return found.serverId === undefined
    ? ''
    : ` (server "${found.serverId}", tool "${found.toolName}")`;
}

function checkDeclarations(
  request: Json,
  budget: DeclarationBudget,
  toolset: ToolSet | undefined,
  out: RequestFinding[],
): void {
  const seen = new Map<string, string>();
  let count = 0;
  let bytes = 0;
  let sizeReported = false;
  list(request.tools).forEach((tool, t) => {
    if (!isRecord(tool)) return;
    if (Array.isArray(tool.functionDeclarations) && tool.functionDeclarations.length === 0) {
      out.push({
        severity: 'error',
        path: `/tools/${t}/functionDeclarations`,
        keyword: 'request/function-declarations-not-empty',
        message: `an empty functionDeclarations list, which the API refuses: leave the Tool out (${limitSource('function-declarations-not-empty', budget.dialect)})`,
      });
    }
    list(tool.functionDeclarations).forEach((declaration, d) => {
      if (!isRecord(declaration)) return;
      const at = `/tools/${t}/functionDeclarations/${d}`;
      const named = about(declaration, toolset);
      const label = `declaration "${String(declaration.name)}"${whose(named)}`;
      count++;
      if (count === budget.maxDeclarations + 1) {
        const total = list(request.tools).reduce<number>(
          (sum, each) => sum + (isRecord(each) ? list(each.functionDeclarations).length : 0),
          0,
        );
        out.push({
          severity: 'error',
          path: at,
          keyword: 'request/declarations-per-request',
          message: `${total} function declarations in this request, over the ${budget.maxDeclarations} ${budget.dialect} takes in one request (${limitSource('declarations-per-request', budget.dialect)}): ${label} is the first over it, and ${total - budget.maxDeclarations - 1} more follow`,
          ...named,
        });
      }
      const { name } = declaration;
      if (typeof name === 'string') {
        const first = seen.get(name);
        if (first === undefined) seen.set(name, at);
        else {
          out.push({
            severity: 'error',
            path: `${at}/name`,
            keyword: 'request/function-name-collision',
            message: `function name "${name}" is declared twice (first at ${first}); the model could not tell the two apart (${limitSource('function-names-unique', budget.dialect)})`,
            ...named,
          });
        }
      }
      for (const [a, b] of [
        ['parameters', 'parametersJsonSchema'],
        ['response', 'responseJsonSchema'],
      ] as const) {
        if (Object.hasOwn(declaration, a) && Object.hasOwn(declaration, b)) {
          out.push({
            severity: 'error',
            path: at,
            keyword: 'request/both-schema-forms',
            message: `${label} has both "${a}" (OpenAPI subset) and "${b}" (JSON Schema); send one`,
            ...named,
          });
        }
      }
      for (const problem of declarationProblems(declaration, budget)) {
        if (problem.rule === 'parameters-exclusive') continue; // request/both-schema-forms
        out.push({
          severity: problem.severity,
          path: `${at}${problem.path}`,
          keyword: `request/${problem.rule}`,
          message: `${label}: ${problem.message}`,
          ...named,
        });
      }
      bytes += measureDeclaration(declaration).bytes;
      if (!sizeReported && bytes > budget.maxRequestBytes) {
        sizeReported = true;
        out.push({
          severity: 'error',
          path: at,
          keyword: 'request/request-declaration-bytes',
          message: `the declarations reach ${bytes} bytes at ${label}, over the ${budget.maxRequestBytes} of the budget for one request (a stand-in for "too many states for serving"; ${limitSource('request-declaration-bytes', budget.dialect)})`,
          ...named,
        });
      }
    });
  });
}

/**
 * The MCP servers Gemini runs (`Tool.mcpServers`). What the reference states: `McpServer {name,
 * streamableHttpTransport}`, the transport's `url` ("The full URL for the MCPServer endpoint",
 * its example an `https:` one), `timeout` and `sseReadTimeout` in `google-duration` form; the
 * Vertex AI references have no such field, and js-genai refuses it there. What it does not state
 * and is ours: the name must start the model's function names (`{server}_{tool}`, as js-genai's
 * tests show), be unique, and the URL reachable by Google (no loopback, private or link-local
 * host). Servers are not function declarations: they count toward no declaration limit.
 */
function checkMcpServers(request: Json, budget: DeclarationBudget, out: RequestFinding[]): void {
  const names = new Map<string, string>();
  const declared: { name: string; path: string }[] = [];
  list(request.tools).forEach((tool, t) => {
    if (!isRecord(tool)) return;
    list(tool.functionDeclarations).forEach((declaration, d) => {
      if (isRecord(declaration) && typeof declaration.name === 'string') {
        declared.push({
          name: declaration.name,
          path: `/tools/${t}/functionDeclarations/${d}/name`,
        });
      }
    });
    list(tool.mcpServers).forEach((server, m) => {
      if (!isRecord(server)) return;
      const at = `/tools/${t}/mcpServers/${m}`;
      const error = (path: string, rule: string, message: string): void => {
        out.push({ severity: 'error', path, keyword: `request/${rule}`, message });
      };
      if (budget.dialect !== 'gemini') {
        error(
          at,
          'mcp-server-dialect',
          `${budget.dialect} takes no Tool.mcpServers: only the Gemini API runs MCP servers itself (${limitSource('mcp-servers-gemini-only', budget.dialect)})`,
        );
      }
      const nameProblem = serverNameProblem(server.name);
      if (nameProblem !== undefined)
        error(`${at}/name`, 'mcp-server-name', `the MCP server: ${nameProblem}`);
      else {
        const name = server.name as string;
        const first = names.get(name);
        if (first === undefined) names.set(name, at);
        else
          error(
            `${at}/name`,
            'mcp-server-name',
            `MCP server "${name}" is named twice (first at ${first}); the model's names for their tools would collide`,
          );
      }
      const transport = server.streamableHttpTransport;
      const url = isRecord(transport) ? transport.url : undefined;
      if (typeof url !== 'string') {
        error(
          at,
          'mcp-server-url',
          `the MCP server has no streamableHttpTransport.url: Gemini reaches a server by its Streamable HTTP URL only (${limitSource('mcp-server-url', 'gemini')})`,
        );
        return;
      }
      const unreachable = unreachableFromGoogle(url);
      if (unreachable !== undefined)
        error(
          `${at}/streamableHttpTransport/url`,
          'mcp-server-url',
          `the MCP server: ${unreachable} (${limitSource('mcp-server-url', 'gemini')})`,
        );
      for (const field of ['timeout', 'sseReadTimeout'] as const) {
        const value = (transport as Json)[field];
        if (value !== undefined && !isGoogleDuration(value)) {
          error(
            `${at}/streamableHttpTransport/${field}`,
            'mcp-server-duration',
            `${field} must be a google-duration ("30s", "1.5s"), got ${JSON.stringify(value).slice(0, 40)} (${limitSource('mcp-server-duration', 'gemini')})`,
          );
        }
      }
    });
  });
  for (const { name, path } of declared) {
    const server = [...names.keys()].find((prefix) => name.startsWith(`${prefix}_`));
    if (server === undefined) continue;
    out.push({
      severity: 'warning',
      path,
      keyword: 'request/mcp-server-name-clash',
      message: `declaration "${name}" starts like the tools of MCP server "${server}" on Gemini ({server}_{tool}): a call of that name is told apart only by the functionResponse Gemini puts beside its own calls`,
    });
  }
}

interface Turn {
  index: number;
  role: unknown;
  parts: unknown[];
  calls: { part: number; value: Json; signed: boolean }[];
  responses: { part: number; value: Json }[];
  other: number;
  /** The turn's first call for the signature rule, when calls Gemini ran were set aside. */
  signatureCall?: { part: number; value: Json; signed: boolean } | undefined;
}

function turnsOf(request: Json): Turn[] {
  return list(request.contents).map((content, index) => {
    const parts = isRecord(content) ? list(content.parts) : [];
    const turn: Turn = {
      index,
      role: isRecord(content) ? content.role : undefined,
      parts,
      calls: [],
      responses: [],
      other: 0,
    };
    parts.forEach((part, p) => {
      if (!isRecord(part)) return;
      if (isRecord(part.functionCall)) {
        const signed = typeof part.thoughtSignature === 'string' && part.thoughtSignature !== '';
        turn.calls.push({ part: p, value: part.functionCall, signed });
      } else if (isRecord(part.functionResponse)) {
        turn.responses.push({ part: p, value: part.functionResponse });
      } else turn.other++;
    });
    if (turn.role === 'model') setAsideRanByGemini(turn);
    return turn;
  });
}

/**
 * A model turn's calls that Gemini ran itself (an MCP server of `Tool.mcpServers`): each is
 * followed, in the same Content, by its functionResponse (by id, or by name without one). They
 * are answered already: neither they nor those responses are the next turn's to answer. The
 * first call keeps its place for the thought-signature rule (it may be one of them).
 */
function setAsideRanByGemini(turn: Turn): void {
  if (turn.responses.length === 0) return;
  const answered = new Set<number>();
  const used = new Set<number>();
  for (const [r, response] of turn.responses.entries()) {
    const { id, name } = response.value;
    const at = turn.calls.findIndex(
      (call, c) =>
        !answered.has(c) &&
        call.part < response.part &&
        (typeof id === 'string' ? call.value.id === id : call.value.name === name),
    );
    if (at < 0) continue;
    answered.add(at);
    used.add(r);
  }
  turn.signatureCall = turn.calls[0];
  turn.calls = turn.calls.filter((_, c) => !answered.has(c));
  turn.responses = turn.responses.filter((_, r) => !used.has(r));
}

/**
 * Collects one turn's findings, at most {@link MAX_FINDINGS_PER_RULE} per rule, then one that
 * says how many more there were: a request with thousands of mismatched calls gets a report
 * of bounded size.
 */
class TurnFindings {
  readonly #counts = new Map<string, { count: number; path: string }>();
  constructor(readonly out: RequestFinding[]) {}

  error(path: string, rule: string, message: string): void {
    const seen = this.#counts.get(rule) ?? { count: 0, path };
    seen.count++;
    this.#counts.set(rule, seen);
    if (seen.count <= MAX_FINDINGS_PER_RULE) {
      this.out.push({ severity: 'error', path, keyword: `request/${rule}`, message });
    }
  }

  /** Adds the "and N more" findings of the turn `at`. */
  close(at: string): void {
    for (const [rule, { count }] of this.#counts) {
      if (count <= MAX_FINDINGS_PER_RULE) continue;
      this.out.push({
        severity: 'error',
        path: at,
        keyword: `request/${rule}`,
        message: `and ${count - MAX_FINDINGS_PER_RULE} more request/${rule} finding(s) in this turn (${MAX_FINDINGS_PER_RULE} shown)`,
      });
    }
    this.#counts.clear();
  }
}

function checkResponses(turns: Turn[], out: RequestFinding[]): void {
  const findings = new TurnFindings(out);
  turns.forEach((turn, k) => {
    checkTurnResponses(turns, k, findings);
    findings.close(`/contents/${turn.index}`);
  });
}

function checkTurnResponses(turns: Turn[], k: number, findings: TurnFindings): void {
  const error = (path: string, rule: string, message: string): void =>
    findings.error(path, rule, message);
  const turn = turns[k]!;
  const previous = turns[k - 1];
  const at = `/contents/${turn.index}`;
  if (turn.role === 'model' && turn.calls.length > 0) {
    const next = turns[k + 1];
    if (next !== undefined && next.responses.length === 0) {
      error(
        `/contents/${next.index}`,
        'missing-function-responses',
        `the model turn ${at} made ${turn.calls.length} function call(s), but this turn holds no functionResponse`,
      );
    }
  }
  if (turn.responses.length === 0) return;
  if (previous === undefined || previous.role !== 'model' || previous.calls.length === 0) {
    error(
      at,
      'orphan-function-responses',
      'functionResponse parts must follow a model turn with function calls (the content just before)',
    );
    return;
  }
  const from = `/contents/${previous.index}`;
  if (turn.responses.length !== previous.calls.length) {
    error(
      at,
      'response-count',
      `${turn.responses.length} functionResponse part(s) answer ${previous.calls.length} functionCall part(s) of ${from}; the API needs exactly one response per call`,
    );
  }
  const callIds = previous.calls.flatMap((c) =>
    typeof c.value.id === 'string' ? [c.value.id] : [],
  );
  if (callIds.length > 0) {
    const byId = new Map<unknown, (typeof previous.calls)[number]>();
    for (const call of previous.calls) if (!byId.has(call.value.id)) byId.set(call.value.id, call);
    const quoted = quoteIds(callIds);
    const answered = new Set<unknown>();
    for (const response of turn.responses) {
      const { id, name } = response.value;
      const path = `${at}/parts/${response.part}/functionResponse`;
      const call = byId.get(id);
      if (call === undefined) {
        error(
          `${path}/id`,
          'response-id',
          id === undefined
            ? `functionResponse "${String(name)}" has no id; the calls of ${from} have ids (${quoted})`
            : `functionResponse id "${String(id)}" matches no functionCall id of ${from} (${quoted})`,
        );
      } else {
        answered.add(id);
        if (call.value.name !== name) {
          error(
            `${path}/name`,
            'response-name',
            `functionResponse "${String(name)}" answers call id "${String(id)}", which called "${String(call.value.name)}"`,
          );
        }
      }
    }
    for (const call of previous.calls) {
      if (typeof call.value.id === 'string' && !answered.has(call.value.id)) {
        error(
          at,
          'unanswered-call',
          `functionCall id "${call.value.id}" (${from}/parts/${call.part}) has no functionResponse`,
        );
      }
    }
    return;
  }
  const unanswered = new Map<unknown, number>();
  for (const call of previous.calls) {
    unanswered.set(call.value.name, (unanswered.get(call.value.name) ?? 0) + 1);
  }
  for (const response of turn.responses) {
    const left = unanswered.get(response.value.name) ?? 0;
    if (left === 0) {
      error(
        `${at}/parts/${response.part}/functionResponse/name`,
        'response-name',
        `functionResponse "${String(response.value.name)}" answers no functionCall of ${from}`,
      );
    } else unanswered.set(response.value.name, left - 1);
  }
}

/**
 * A content with no parts: the API answers "contents.parts must not be empty" (reported in
 * vercel/ai#3775; the Vertex AI Content reference: a Content has at least one Part). The
 * schemas cannot say it, since a response candidate may carry a content without parts.
 */
function checkEmptyContents(request: Json, out: RequestFinding[]): void {
  list(request.contents).forEach((content, index) => {
    if (isRecord(content) && list(content.parts).length === 0) {
      out.push({
        severity: 'error',
        path: `/contents/${index}/parts`,
        keyword: 'request/empty-parts',
        message:
          'a content must hold at least one part (the API refuses "contents.parts must not be empty")',
      });
    }
  });
}

function checkSignatures(
  request: Json,
  turns: Turn[],
  options: RequestCheckOptions,
  out: RequestFinding[],
): void {
  const model = options.model ?? (typeof request.model === 'string' ? request.model : undefined);
  const major = model === undefined ? undefined : geminiMajorVersion(model);
  if (major !== undefined && major < 3) return;
  let start = 0;
  turns.forEach((turn, k) => {
    if (turn.role !== 'model' && turn.other > 0) start = k + 1;
  });
  for (const turn of turns.slice(start)) {
    if (turn.role !== 'model') continue;
    const first = turn.signatureCall ?? turn.calls[0];
    if (first === undefined || first.signed) continue;
    const path = `/contents/${turn.index}/parts/${first.part}`;
    const name = String(first.value.name);
    if (major !== undefined) {
      out.push({
        severity: 'error',
        path,
        keyword: 'request/thought-signature',
        message: `the first functionCall ("${name}") of this model step in the current turn has no thoughtSignature; ${model} refuses that with HTTP 400 (${SIGNATURE_DOCS})`,
      });
    } else {
      out.push({
        severity: 'warning',
        path,
        keyword: 'request/thought-signature',
        message: `the first functionCall ("${name}") of this model step in the current turn has no thoughtSignature; Gemini 3 models refuse that with HTTP 400 (pass --model to decide; ${SIGNATURE_DOCS})`,
      });
    }
  }
}

/**
 * Streamed function-call arguments asked of a unary request: only a stream delivers the pieces
 * (the option streams "arguments of a single function call in multiple parts/contents/
 * responses", Vertex AI's FunctionCallingConfig reference), so a unary reply either ignores the
 * option or carries a call in pieces no client joins.
 */
function checkStreamedArguments(
  request: Json,
  options: RequestCheckOptions,
  out: RequestFinding[],
): void {
  if (options.streamed !== false) return;
  const { toolConfig } = request;
  const calling = isRecord(toolConfig) ? toolConfig.functionCallingConfig : undefined;
  if (!isRecord(calling) || calling.streamFunctionCallArguments !== true) return;
  out.push({
    severity: 'warning',
    path: '/toolConfig/functionCallingConfig/streamFunctionCallArguments',
    keyword: 'request/stream-function-call-arguments',
    message:
      'streamFunctionCallArguments asks for function-call arguments in pieces over a stream, but this request is not streamed: leave it out, or send the request with a streaming method (streamGenerateContent)',
  });
}

/**
 * The cross-field findings for one GenerateContentRequest (already parsed; shape errors are
 * the schema's job, so anything unexpected here is skipped, never thrown on):
 * - `request/function-name-collision`: two declarations with one name, across or within tools;
 * - `request/empty-parts`: a content without parts;
 * - `request/both-schema-forms`: `parameters` with `parametersJsonSchema` (or `response` with
 *   `responseJsonSchema`) on one declaration;
 * - what the API enforces beyond its schemas (schemas/limits.json, for `budget.dialect`), each
 *   named by its limit: `request/declarations-per-request` (at the first declaration over the
 *   cap, counting every Tool of the request), `request/function-declarations-not-empty`,
 *   `request/request-declaration-bytes` (at the declaration that crosses the budget), and per
 *   declaration `request/function-name`, `request/parameter-name`, `request/schema-depth`,
 *   `request/declaration-bytes`, `request/object-properties-not-empty`, `request/enum-strings`;
 *   each finding about a declaration names it (`declaration`) and, given the `toolset` it was
 *   built from, its server and tool (`serverId`, `toolName`);
 * - `request/response-count`, `request/response-id`, `request/response-name`,
 *   `request/unanswered-call`, `request/orphan-function-responses`,
 *   `request/missing-function-responses`: functionResponse turns that do not answer the
 *   preceding model turn's functionCalls one for one (by id when the calls have ids); at most
 *   20 findings per rule and turn, then one that counts the rest, and at most 5 call ids
 *   quoted per message, so the report stays linear in the request's size;
 * - `request/thought-signature`: see the module comment;
 * - `request/stream-function-call-arguments` (a warning): with `streamed: false`, a request that
 *   sets `toolConfig.functionCallingConfig.streamFunctionCallArguments`.
 * - `request/mcp-server-name`, `request/mcp-server-url`, `request/mcp-server-duration`,
 *   `request/mcp-server-dialect` (errors) and `request/mcp-server-name-clash` (a warning): the
 *   MCP servers Gemini runs itself (`Tool.mcpServers`: a name that can start the model's
 *   `{server}_{tool}` function names, unique; a Streamable HTTP URL Google can reach; durations
 *   in google-duration form; the Gemini API only). A model turn's calls that Gemini ran, each
 *   followed by its functionResponse in the same Content, are answered there: the next turn
 *   answers only the others.
 *
 * @example
 * ```ts
 * const errors = checkRequest(request, { model: 'gemini-3-pro-preview' }).filter((f) => f.severity === 'error');
 * // e.g. [{ keyword: 'request/response-count', path: '/contents/2', message: '1 functionResponse part(s) answer 2 ...' }]
 * ```
 */
export function checkRequest(
  request: unknown,
  options: RequestCheckOptions = {},
): RequestFinding[] {
  if (!isRecord(request)) return [];
  const out: RequestFinding[] = [];
  const budget = resolveBudget({
    ...options.budget,
    ...(options.model === undefined || options.budget?.model !== undefined
      ? {}
      : { model: options.model }),
  });
  checkDeclarations(request, budget, options.toolset, out);
  checkMcpServers(request, budget, out);
  checkEmptyContents(request, out);
  const turns = turnsOf(request);
  checkResponses(turns, out);
  checkSignatures(request, turns, options, out);
  checkStreamedArguments(request, options, out);
  return out;
}
