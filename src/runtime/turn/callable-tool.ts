/**
 * MCP servers as one @google/genai `CallableTool`: the drop-in for genai's `mcpToTool`, so that
 * genai's automatic function calling runs MCP tools with gemini-mcp-kit's names, declarations and
 * answers.
 */

import { resolveBudget } from '../../adapter/limits.js';
import type {
  AnswerPart,
  DeclaredFunction,
  FunctionCallInput,
  FunctionTool,
  SchemaMode,
} from '../../adapter/shapes.js';
import {
  type FunctionDeclarationsOptions,
  fitToolSet,
  functionDeclarations,
} from '../../adapter/tools/declarations.js';
import { declaredToolSet, leftOutWarning } from '../../adapter/tools/fit.js';
import {
  type McpServerTool,
  mcpServerTools,
  serverSideTool,
} from '../../adapter/tools/server-side.js';
import type { ToolSet } from '../../adapter/tools/toolset-types.js';
import { GeminiMcpError } from '../../errors.js';
import type { McpServer } from '../../generated/types.js';
import { type AnswerOptions, answerCalls } from './answer.js';
import type { ClientMap } from './execute.js';

/** The servers a {@link mcpCallableTool} calls: what `connectServers` returns fits. */
export interface CallableServers {
  /** The current tool set, read on every `tool()` (a live set follows `tools/list_changed`). */
  readonly toolset: ToolSet;
  readonly clients: ClientMap;
  /**
   * The MCP servers Gemini runs itself (`connectServers` with `runOn: 'gemini'`): their calls
   * are Gemini's, never run here.
   */
  readonly mcpServers?: readonly McpServer[];
}

/** Options of {@link mcpCallableTool}: how tools are declared, called and answered. */
export interface CallableToolOptions<M extends SchemaMode = 'json'>
  extends FunctionDeclarationsOptions<M>,
    Omit<AnswerOptions, 'dialect'> {}

/**
 * A `CallableTool` for @google/genai's `config.tools`: `tool()` declares the servers' tools,
 * `callTool()` runs the model's calls on them.
 */
export interface McpCallableTool<M extends SchemaMode = 'json'> {
  /** The tool set as one Gemini Tool, read afresh on each call. */
  tool(): Promise<FunctionTool<M>>;
  /**
   * Runs the calls; one functionResponse part per call, in call order, ids echoed. A call of a
   * server Gemini runs (`servers.mcpServers`: a name `{server}_{tool}` that is none of the
   * declared functions) is skipped: Gemini ran it, and its functionResponse is already in the
   * model's Content. When every call of a turn is Gemini's, nothing is returned, and genai
   * 2.32 and 3.3 then send an empty user Content, which the API refuses: with servers on Gemini,
   * `runConversation` is the loop that keeps the two kinds apart in every case.
   */
  callTool(functionCalls: readonly FunctionCallInput[]): Promise<AnswerPart[]>;
  /**
   * The servers Gemini runs (`servers.mcpServers`) as Tools for `config.tools`, beside this one
   * (`[]` when there are none), proven against the Tool schema.
   */
  mcpServerTools(): McpServerTool[];
}

/**
 * The Tool of `tool()`; never one without declarations, which the API refuses: that is an
 * error naming why there is nothing to declare.
 */
function declaring<M extends SchemaMode>(
  declarations: DeclaredFunction<M>[],
  toolset: ToolSet,
): FunctionTool<M> {
  if (declarations.length > 0) return { functionDeclarations: declarations };
  const why =
    toolset.entries.length === 0
      ? 'the servers list no tools'
      : `every one of the ${toolset.entries.length} tools was left out (onWarning says why)`;
  throw new GeminiMcpError(
    'INVALID_INPUT',
    `mcpCallableTool has nothing to declare: ${why}, and the API refuses a Tool without function declarations; leave it out of config.tools while there is none`,
    { data: { tools: toolset.entries.length } },
  );
}

/**
 * MCP servers as a `CallableTool` for @google/genai's automatic function calling, where
 * `mcpToTool` would go: `config: { tools: [mcpCallableTool(servers)] }`. Unlike `mcpToTool`:
 *
 * - names are gemini-mcp-kit's: valid for Gemini, unique across servers (a name two servers share
 *   becomes `server__tool` on both) where `mcpToTool` throws on the duplicate;
 * - descriptions are sanitized and capped; `schemaMode` picks json or openapi declarations;
 * - `callTool` answers every call with exactly one functionResponse, in call order, its id
 *   echoed: unknown names and bad arguments are answered to the model, failures, timeouts
 *   (`timeoutMs`) and cancellation (`signal`) too, and results are checked against the MCP
 *   schema and the tool's outputSchema;
 * - `tool()` never returns a Tool without declarations (the API refuses one): with nothing to
 *   declare (no tools, or every one left out) it throws INVALID_INPUT saying why;
 * - `tool()` reads `servers.toolset` each time genai asks, so a set rebuilt on
 *   `tools/list_changed` is declared from the next request on; the calls of a turn resolve
 *   against the set last declared;
 * - the declarations fit the budget of `budget.dialect` (default the Gemini API's: 512
 *   declarations, 49,152 bytes, 7 JSON levels of schema; see `FunctionDeclarationsOptions.budget`):
 *   what does not fit is left out with a warning to `onWarning`, and never called.
 *
 * Because it answers every call, it should be the only CallableTool of a request; it holds any
 * number of servers. The servers Gemini runs itself (`servers.mcpServers`) go beside it, as
 * `mcpServerTools()`; their calls are skipped (Gemini answered them in its own Content). For openapi declarations typed with genai's `Type` enum, import it from
 * `gemini-mcp-kit/genai`.
 *
 * @example
 * ```ts
 * const servers = await connectServers('mcp.json');
 * const response = await ai.models.generateContent({
 *   model: 'gemini-2.5-flash',
 *   contents: 'What does a bitcoin cost in euros?',
 *   config: { tools: [mcpCallableTool(servers, { timeoutMs: 30_000 })] },
 * });
 * console.log(response.text);
 * ```
 */
export function mcpCallableTool<M extends SchemaMode = 'json'>(
  servers: CallableServers,
  options: CallableToolOptions<M> = {},
): McpCallableTool<M> {
  let declared: ToolSet | undefined;
  return {
    async tool() {
      const toolset = servers.toolset;
      if (options.budget === false) {
        declared = toolset;
        return declaring(functionDeclarations(toolset, options), toolset);
      }
      const fitted = fitToolSet(toolset, options, { budget: resolveBudget(options.budget) });
      for (const left of fitted.leftOut) options.onWarning?.(leftOutWarning(left));
      declared = declaredToolSet(toolset, fitted);
      return declaring(
        fitted.declarations.map((proven) => ({ ...proven }) as DeclaredFunction<M>),
        toolset,
      );
    },
    async callTool(calls) {
      const toolset = declared ?? servers.toolset;
      const ours = calls.filter((call) => !ranByGemini(call, toolset));
      if (ours.length === 0) return [];
      const parts = ours.map((functionCall) => ({ functionCall }));
      const answer = await answerCalls(parts, toolset, servers.clients, options);
      return answer.parts;
    },
    mcpServerTools() {
      return mcpServerTools(
        servers.mcpServers,
        options.budget ? options.budget.dialect : undefined,
      );
    },
  };

  /**
   * Whether Gemini ran `call`: genai hands a CallableTool the calls of the model's Content, not
   * the Content, so the functionResponse Gemini put beside the call is out of sight; a name of
   * a server on Gemini that none of the declared functions has is the sign.
   */
  function ranByGemini(call: FunctionCallInput, toolset: ToolSet): boolean {
    const names = (servers.mcpServers ?? []).flatMap((s) =>
      typeof s.name === 'string' ? [s.name] : [],
    );
    if (names.length === 0 || typeof call.name !== 'string') return false;
    return (
      toolset.resolve(call.name) === undefined && serverSideTool(call.name, names) !== undefined
    );
  }
}
