/**
 * The conversation loop: ask the model, keep its turn exactly as returned, answer its calls,
 * and go on until it answers without calls or the turn limit is reached.
 */

import { apiDialect } from '../../adapter/dialect.js';
import { Discovery, type ToolSelection, withSearch } from '../../adapter/selection/selection.js';
import type {
  AnswerContent,
  ContentInput,
  FunctionTool,
  ResponseInput,
  SchemaMode,
} from '../../adapter/shapes.js';
import type { FunctionDeclarationsOptions } from '../../adapter/tools/declarations.js';
import { declaredToolSet } from '../../adapter/tools/fit.js';
import { withOwnFunctions } from '../../adapter/tools/own-functions.js';
import { mcpServerTools } from '../../adapter/tools/server-side.js';
import type { ToolSet } from '../../adapter/tools/toolset-types.js';
import type { CallFinish, GeminiRanCall } from '../../adapter/turn/calls.js';
import { functionCalls } from '../../adapter/turn/calls.js';
import type { GenerateContentResponse, McpServer } from '../../generated/types.js';
import { DEFAULT_TOOLS_REFRESH_TIMEOUT_MS, type ToolSetSource } from '../mcp/live-toolset.js';
import { type GatherOptions, gatherTurn } from '../model/gather.js';
import type { ContentOf, Generate, ReadOptions } from '../model/generate.js';
import { checkTimeout } from '../options.js';
import { type AnswerOptions, answerTurn, discoveryFunctions, type OwnFunctions } from './answer.js';
import {
  DeclarationPlan,
  type PlannedRequest,
  type RefusalOptions,
  recoverRefusal,
} from './declare.js';
import type { ClientMap } from './execute.js';
import { type ResourceAccess, resourceFunctions } from './resource-functions.js';
import { type SkillAccess, skillFunctions } from './skill-functions.js';

export type { ResourceAccess } from './resource-functions.js';
export type { SkillAccess } from './skill-functions.js';

/**
 * Options of {@link runConversation}. `R` is the response type `generate` returns (inferred:
 * gemini-mcp-kit's own, @google/genai's `GenerateContentResponse`, or a script's object
 * literals); `C` is the Content type of the history given (inferred from `contents`: genai's
 * `Content`, say), which may differ from `R`'s; `M` is the schema mode of `declarations`.
 * `onNotice` hears every tolerance used in reading the model's replies (fields, enum values,
 * kinds of part newer than the vendored revision).
 */
export interface ConversationOptions<
  R extends ResponseInput = GenerateContentResponse,
  M extends SchemaMode = 'json',
  C extends ContentInput = ContentOf<R>,
> extends AnswerOptions,
    ReadOptions,
    RefusalOptions {
  /**
   * Asks the model for one turn; see `genaiGenerate` and `genaiGenerateStream`. Its request
   * holds the given Contents, the model's and the answers.
   */
  generate: Generate<R, M, C>;
  /**
   * The tools offered to the model. Pass what `connectServers` returned (a
   * {@link ToolSetSource}) and each request first waits, at most `toolsRefreshTimeoutMs`, for
   * the tool refreshes in flight, so a tool that a call of the previous turn made its server add
   * (`tools/list_changed`) is declared in the very next request. A function is asked again
   * before each turn without waiting; a ToolSet is used as it is.
   */
  toolset: ToolSet | (() => ToolSet) | ToolSetSource;
  /**
   * The longest wait, before each request, for tool refreshes in flight (with a
   * {@link ToolSetSource} as `toolset`), in ms; when it passes, the request declares the
   * current set.
   *
   * @defaultValue 5000
   */
  toolsRefreshTimeoutMs?: number;
  clients: ClientMap;
  /** The conversation so far, ending with the user's turn (not modified). */
  contents: readonly C[];
  /** Model turns at most (calls to `generate`). Default 10. */
  maxTurns?: number;
  /**
   * How the tool set is declared to the model, and the budget each request fits: the limits of
   * `dialect` by default (see `FunctionDeclarationsOptions.budget`), its `select` hook choosing
   * what to declare each turn. Tools left out (over the budget, over a limit, refused by the
   * API) are reported to `onWarning`. Declarations keep a stable order: a tool declared once
   * keeps its place in later requests, new ones come after it.
   */
  declarations?: FunctionDeclarationsOptions<M>;
  /**
   * Tool selection for a tool set past the budget (see `toolSelection`): progressive discovery.
   * Each request declares `gmk__search_tools` (gemini-mcp-kit's own, never sent to a server)
   * and the tools the model's searches loaded, in the order loaded, from the request after the
   * search on; the tool set's other tools are not declared. Without it every tool is declared
   * that fits the budget.
   */
  selection?: ToolSelection;
  /**
   * Opt-in model access to the servers' resources (off by default): each request declares
   * `gmk__read_resource` (a URI in, the resource's contents out; so a `resource_link` a tool
   * returned can be opened) and, unless `list: false`, `gmk__list_resources`. They are
   * gemini-mcp-kit's own functions (the reserved `gmk__` namespace, counted in the budget),
   * answered from `resources.servers`, never sent to a server as tool calls; each call gets its
   * one response, rendered, capped and proven like every other.
   */
  resources?: ResourceAccess;
  /**
   * Opt-in model access to the servers' skills (MCP skills extension; off by default): each
   * request declares `gmk__load_skill`, naming the skills `skills.servers` lists (sanitized, one
   * line each). It is gemini-mcp-kit's own function (the reserved `gmk__` namespace, counted in the
   * budget), never sent to a server: a call loads the skill with `loadSkill` (verified against its
   * listing: size, digest, frontmatter) or, with `file`, reads one supporting file of a skill
   * loaded in this conversation (verified the same way; so is a `gmk__read_resource` of a URI
   * under a loaded skill's root, when `resources` is offered too). A refusal is answered to the model,
   * naming what failed. Skill text is attributed to its server, invisible characters removed,
   * capped at `maxTextBytes`.
   */
  skills?: SkillAccess;
  /**
   * MCP servers Gemini runs itself (`Tool.mcpServers`; `connectServers` with `runOn: 'gemini'`
   * gives them as `connections.mcpServers`): every request carries them as one more Tool,
   * beside the tool set's declarations. The calls Gemini ran come back with their
   * functionResponse in the model's Content: they are never run again, and are reported in
   * `ranByGemini`. Only the Gemini API takes them: with a Vertex AI `dialect` they are refused
   * (CONFIG_INVALID, reason `dialect`) before the first request.
   */
  mcpServers?: readonly McpServer[];
  /** Called after each model turn whose calls were answered. */
  onTurn?: (turn: AnsweredTurn<R, C>) => void;
  /**
   * Hears the arguments of each streamed function call as they arrive (Vertex AI's
   * `streamFunctionCallArguments` with a streaming `generate`): the call opening, each piece and
   * the arguments so far, the call closing (see `gatherTurn`). A UI can show them.
   */
  onPartialArgs?: GatherOptions['onPartialArgs'];
}

/** A model turn with calls, and the answer sent back; `C` is the given history's Content type. */
export interface AnsweredTurn<
  R extends ResponseInput = GenerateContentResponse,
  C extends ContentInput = ContentOf<R>,
> {
  /** 1 for the first model turn. */
  turn: number;
  response: R;
  /**
   * The model's Content as returned (for a stream: every chunk's parts, in order, each streamed
   * call assembled into one part).
   */
  model: ContentOf<R>;
  /** The user Content answering each call. */
  answer: AnswerContent;
  /** The calls of this turn Gemini ran itself (an MCP server of `mcpServers`), not answered here. */
  ranByGemini: readonly GeminiRanCall[];
  /** The history so far, ending with `answer`: the contents of the next request. */
  contents: readonly (C | ContentOf<R> | AnswerContent)[];
}

/** Why the conversation stopped; `R` is the response type (for `promptFeedback`). */
export type ConversationStop<R extends ResponseInput = GenerateContentResponse> =
  /**
   * The model answered without calling a tool: `text` is its answer (thoughts left out).
   * `finishReason` is the API's raw value, also when it is newer than the vendored revision
   * (then `onNotice` heard of it).
   */
  | { reason: 'answered'; text: string; finishReason?: string }
  /** `maxTurns` model turns were played; the last one's calls were answered but not yet sent. */
  | { reason: 'max-turns'; maxTurns: number }
  /** The model's function calling failed (FC-6): nothing of that turn was kept. */
  | { reason: 'call-failure'; finish: CallFinish }
  /** The model gave no content: the prompt was blocked, or the candidate came back empty. */
  | {
      reason: 'no-content';
      finishReason?: string;
      promptFeedback?: NonNullable<R['promptFeedback']>;
    }
  /** The signal fired. */
  | { reason: 'cancelled' };

/** The result of {@link runConversation}; `C` is the given history's Content type. */
export interface ConversationResult<
  R extends ResponseInput = GenerateContentResponse,
  C extends ContentInput = ContentOf<R>,
> {
  /**
   * The whole history: the given contents, then each model turn and each answer; typed so that
   * it goes back into the next request as it is.
   */
  contents: (C | ContentOf<R> | AnswerContent)[];
  stop: ConversationStop<R>;
  /** Model turns played. */
  turns: number;
  /** The last model response (gathered, for a stream). */
  lastResponse?: R;
  /**
   * Every call Gemini ran itself (an MCP server of `mcpServers`), in order, with the turn it came
   * in: recognised by the functionResponse that follows it in the model's Content, never run
   * again.
   */
  ranByGemini: (GeminiRanCall & { readonly turn: number })[];
}

/** The tool set to declare now: after the refreshes in flight, for a source. */
async function currentToolset(
  toolset: ConversationOptions<ResponseInput, SchemaMode>['toolset'],
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<ToolSet> {
  if (typeof toolset === 'function') return toolset();
  if (!('toolsSettled' in toolset)) return toolset;
  await toolset.toolsSettled({ timeoutMs, ...(signal === undefined ? {} : { signal }) });
  return toolset.toolset;
}

function answerText(content: ContentInput): string {
  return (content.parts ?? [])
    .filter((part) => part.thought !== true && typeof part.text === 'string')
    .map((part) => part.text)
    .join('');
}

/**
 * Plays a conversation with tools: calls `generate` with the history and the tool set as
 * Gemini tools, appends the model's Content exactly as returned (thought signatures and every
 * other field untouched; a stream's chunks gathered into one Content, so parallel calls stay
 * together, and a call whose arguments were streamed in pieces is one part again: see
 * `gatherTurn`), answers its function calls with {@link answerCalls} and repeats. Stops, with a
 * typed {@link ConversationStop} rather than a throw, when the model answers without calls, at
 * `maxTurns`, when function calling fails or no content comes back, or when `signal` fires.
 * Errors of `generate` itself (network, HTTP 4xx/5xx) propagate, but one: the API refusing a
 * request for its declarations (HTTP 400). That refusal is traced to its tools (named by index
 * or name in the API's message, or found by a bisection of at most `maxBisectRequests`
 * requests), which are left out for the rest of the conversation with a `TOOL_REFUSED` warning
 * quoting the API, and the request is asked once more (`retryRefused: false`: it propagates).
 * Every request fits the budget of its dialect (`declarations.budget`): what does not fit is
 * left out with a warning, never sent. `mcpServers` (servers Gemini runs itself) go with every
 * request; the calls Gemini ran (their functionResponse already in the model's Content) are
 * never run again and are listed in `ranByGemini`. With `toolset: connections`
 * each request waits (bounded) for the tool refreshes in flight, so tools a call unlocked
 * (`tools/list_changed`) are declared in the very next request; `onProgress` hears each call's
 * progress notifications.
 *
 * The history is typed by what it holds: the given `contents`' type and `generate`'s response
 * type. With @google/genai's client, `contents` and the result's `contents` are genai
 * `Content`s; a scripted `generate` returning object literals takes a genai `Content[]` history
 * too, and its result goes back into one. With an inline `onTurn`, pass `generate` as a
 * variable, so that TypeScript infers its type before it types the turn.
 *
 * @example
 * ```ts
 * const ai = new GoogleGenAI({ apiKey: process.env.GEMINI_API_KEY });
 * const { contents, stop } = await runConversation({
 *   generate: genaiGenerate(ai, { model: 'gemini-2.5-flash' }),
 *   toolset: connections, // waits for tool refreshes in flight before each request
 *   clients: connections.clients,
 *   contents: [{ role: 'user', parts: [{ text: 'What does a bitcoin cost in euros?' }] }],
 *   maxTurns: 5,
 * });
 * if (stop.reason === 'answered') console.log(stop.text);
 * ```
 */
export async function runConversation<
  R extends ResponseInput,
  M extends SchemaMode = 'json',
  C extends ContentInput = ContentOf<R>,
>(options: ConversationOptions<R, M, C>): Promise<ConversationResult<R, C>> {
  const { generate, clients, signal, onTurn, onNotice, onPartialArgs, dialect } = options;
  const gathering: GatherOptions = {
    ...(onNotice === undefined ? {} : { onNotice }),
    ...(onPartialArgs === undefined ? {} : { onPartialArgs }),
    ...(dialect === undefined ? {} : { dialect }),
  };
  checkTimeout('toolsRefreshTimeoutMs', options.toolsRefreshTimeoutMs);
  apiDialect(options.dialect); // an unknown one is refused before the first turn
  const refreshTimeoutMs = options.toolsRefreshTimeoutMs ?? DEFAULT_TOOLS_REFRESH_TIMEOUT_MS;
  const maxTurns = options.maxTurns ?? 10;
  const contents: (C | ContentOf<R> | AnswerContent)[] = [...options.contents];
  let lastResponse: R | undefined;
  const serverTools = mcpServerTools(options.mcpServers, options.dialect);
  const mcpServers = serverTools[0]?.mcpServers;
  const ranByGemini: (GeminiRanCall & { readonly turn: number })[] = [];
  const result = (stop: ConversationStop<R>, turns: number): ConversationResult<R, C> => ({
    contents,
    stop,
    turns,
    ...(lastResponse === undefined ? {} : { lastResponse }),
    ranByGemini,
  });

  const { selection } = options;
  const discovery = selection === undefined ? undefined : new Discovery(selection);
  const schemaMode = options.declarations?.schemaMode ?? 'json';
  const skills =
    options.skills === undefined
      ? undefined
      : skillFunctions(options.skills, {
          ...(signal === undefined ? {} : { signal }),
          ...(onNotice === undefined ? {} : { onNotice }),
        });
  const resources =
    options.resources === undefined
      ? undefined
      : resourceFunctions(options.resources, {
          ...(signal === undefined ? {} : { signal }),
          ...(onNotice === undefined ? {} : { onNotice }),
          ...(skills === undefined ? {} : { skillFile: skills.skillFile }),
        });
  const reserved = [
    ...(discovery?.reserved(schemaMode) ?? []),
    ...(resources?.declarations(schemaMode) ?? []),
    ...(skills?.declarations(schemaMode) ?? []),
  ];
  const plan = new DeclarationPlan(
    options.declarations,
    options.dialect,
    reserved.length === 0
      ? undefined
      : {
          reserved,
          ...(discovery === undefined ? {} : { select: discovery.select }),
          ...(discovery?.selection.maxTools === undefined
            ? {}
            : { maxDeclarations: discovery.selection.maxTools }),
        },
  );
  const own: OwnFunctions | undefined =
    reserved.length === 0
      ? undefined
      : new Map([
          ...(discovery === undefined ? [] : discoveryFunctions(discovery)),
          ...(resources?.answers ?? []),
          ...(skills?.answers ?? []),
        ]);
  for (let turn = 1; turn <= maxTurns; turn++) {
    if (signal?.aborted) return result({ reason: 'cancelled' }, turn - 1);
    const toolset = await currentToolset(options.toolset, refreshTimeoutMs, signal);
    if (signal?.aborted) return result({ reason: 'cancelled' }, turn - 1);
    const ask = async (tools: FunctionTool<SchemaMode>[]): Promise<R> => {
      const toolConfig = discovery?.toolConfig(tools);
      return gatherTurn(
        await generate({
          contents: [...contents],
          tools: tools as FunctionTool<M>[],
          ...(toolConfig === undefined ? {} : { toolConfig }),
          ...(mcpServers === undefined ? {} : { mcpServers: mcpServers.map((s) => ({ ...s })) }),
          ...(signal ? { signal } : {}),
          ...(onNotice ? { onNotice } : {}),
        }),
        gathering,
      );
    };
    let planned: PlannedRequest<M> = plan.next(toolset, turn);
    let response: R;
    try {
      try {
        response = await ask(planned.tools);
      } catch (error) {
        if (signal?.aborted) throw error;
        ({ response, planned } = await recoverRefusal(error, {
          plan,
          toolset,
          planned,
          turn,
          ask,
          options,
          signal,
        }));
      }
    } catch (error) {
      if (signal?.aborted) return result({ reason: 'cancelled' }, turn - 1);
      throw error;
    } finally {
      plan.report(planned);
    }
    lastResponse = response;
    const candidate = response.candidates?.[0];
    // The model's calls resolve against what it was offered: a tool left out is never called.
    const declared = declaredToolSet(toolset, planned.fitted);
    const searchable = discovery === undefined ? declared : withSearch(declared);
    const offered = withOwnFunctions(searchable, [
      ...(resources?.entries ?? []),
      ...(skills?.entries ?? []),
    ]);
    const read = functionCalls(response, offered, {
      ...(options.validateArgs === undefined ? {} : { validateArgs: options.validateArgs }),
      ...(mcpServers === undefined ? {} : { mcpServers }),
    });
    const { items, finish } = read;
    if (finish !== undefined) return result({ reason: 'call-failure', finish }, turn);
    for (const ran of read.ranByGemini) ranByGemini.push({ ...ran, turn });
    const model = candidate?.content;
    if (model === undefined || (model.parts ?? []).length === 0) {
      return result(
        {
          reason: 'no-content',
          ...(candidate?.finishReason === undefined
            ? {}
            : { finishReason: candidate.finishReason }),
          ...(response.promptFeedback === undefined
            ? {}
            : { promptFeedback: response.promptFeedback }),
        },
        turn,
      );
    }
    contents.push(model);
    if (items.length === 0) {
      return result(
        {
          reason: 'answered',
          text: answerText(model),
          ...(candidate?.finishReason === undefined
            ? {}
            : { finishReason: candidate.finishReason }),
        },
        turn,
      );
    }
    const answer = await answerTurn(read, offered, clients, options, own);
    contents.push(answer);
    onTurn?.({
      turn,
      response,
      model,
      answer,
      ranByGemini: read.ranByGemini,
      contents: [...contents],
    });
  }
  if (signal?.aborted) return result({ reason: 'cancelled' }, maxTurns);
  return result({ reason: 'max-turns', maxTurns }, maxTurns);
}
