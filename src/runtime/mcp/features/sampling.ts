/**
 * MCP sampling served by Gemini: the `sampling/createMessage` handler a client installs so that
 * its server can ask the model for a completion (with tools, since protocol 2025-11-25), behind
 * an approval hook and per-server limits.
 */

import {
  CreateMessageRequestSchema,
  ErrorCode,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { chooseSamplingModel, type SamplingModelPolicy } from '../../../adapter/sampling/model.js';
import { type SamplingRequest, samplingRequest } from '../../../adapter/sampling/request.js';
import { samplingResult } from '../../../adapter/sampling/result.js';
import type { SamplingWarning } from '../../../adapter/sampling/types.js';
import type { ResponseInput, SchemaMode } from '../../../adapter/shapes.js';
import type { FunctionDeclarationsOptions } from '../../../adapter/tools/declarations.js';
import { type ResponseFormat, responseFormat } from '../../../adapter/turn/responses.js';
import { GeminiMcpError } from '../../../errors.js';
import type { ReadNotice } from '../../../generated/guards-common.js';
import { readMcpCreateMessageRequestParams } from '../../../generated/guards-mcp.js';
import type {
  GenerateContentResponse,
  McpCreateMessageRequestParams,
  McpCreateMessageResult,
} from '../../../generated/types.js';
import { isJsonObject } from '../../../json/object.js';
import { gatherTurn } from '../../model/gather.js';
import {
  type ContentOf,
  type Generate,
  readGenerateContentResponse,
} from '../../model/generate.js';
import { checkCount, checkTimeout } from '../../options.js';
import type { McpClientWithHandlers } from '../mcp-client.js';
import { OVER_LIMIT, rateWindow } from '../server-request-limits.js';
import { type ClientFeature, equipClient } from './capabilities.js';

/** Limits on one server's sampling requests. */
export interface SamplingLimits {
  /** Requests accepted per rolling minute (default 10); more are refused. */
  readonly requestsPerMinute?: number;
  /** `maxTokens` above this is lowered to it, with a warning (default 4096). */
  readonly maxTokens?: number;
  /** Messages in one request, at most (default 100); more: refused. */
  readonly maxMessages?: number;
  /** Tools in one request, at most (default 64); more: refused. */
  readonly maxTools?: number;
  /** Time for the model's reply (default 120 000 ms); then the request fails. */
  readonly timeoutMs?: number;
}

/** What the approval hook is shown. */
export interface SamplingApprovalRequest {
  /** The server that asks. */
  readonly serverId: string;
  /** The request's params, checked against CreateMessageRequestParams (read contract). */
  readonly params: McpCreateMessageRequestParams;
}

/** The approval hook's answer: accept (the params as they are, or edited), or decline. */
export type SamplingDecision =
  | { readonly action: 'accept'; readonly params?: McpCreateMessageRequestParams }
  | { readonly action: 'decline'; readonly message?: string };

/**
 * Options of sampling: `generate` is the same function `runConversation` takes (the ready
 * `genaiGenerate` works), `R` its response type, `M` the schema mode of the declared tools. The
 * {@link ResponseFormat} is how a request's `tool_result` blocks are sent (as in
 * `functionResponse`), and which API the requests are for. A request not served gets a
 * JSON-RPC error: -1 declined, -32010 over a limit, -32602 not servable as sent, -32603 the
 * model failed (see `serveSampling`).
 */
export interface SamplingOptions<
  R extends ResponseInput = GenerateContentResponse,
  M extends SchemaMode = SchemaMode,
> extends ResponseFormat {
  /** Asks the model; it is given the model chosen (`request.model`) when there is one. */
  readonly generate: Generate<R, M>;
  /**
   * The model: a name (every request), or a policy choosing from the server's
   * `modelPreferences` (see `modelByHints`). Default: the `generate` function's own model, the
   * preferences reported as not followed.
   */
  readonly model?: string | SamplingModelPolicy;
  /**
   * Shows a request to the user before it runs (the specification asks for a human in the
   * loop), who may accept it, edit it (`{action: 'accept', params}`) or decline it. Default:
   * every request within the limits is accepted.
   */
  readonly onSamplingRequest?: (
    request: SamplingApprovalRequest,
  ) => SamplingDecision | Promise<SamplingDecision>;
  /** Limits for every server, each counted on its own. */
  readonly limits?: SamplingLimits;
  /** Limits for named servers, over `limits`. */
  readonly serverLimits?: Readonly<Record<string, SamplingLimits>>;
  /** How the request's tools are declared (schema mode, output schemas). */
  readonly declarations?: Omit<FunctionDeclarationsOptions<M>, 'onWarning'>;
  /** Hears every loss and change of a request or its result (see `SamplingWarningCode`). */
  readonly onWarning?: (warning: SamplingWarning, context: { readonly serverId: string }) => void;
  /** Hears every tolerance used in reading the model's reply. */
  readonly onNotice?: (notice: ReadNotice) => void;
}

/** The JSON-RPC error codes the server gets when its sampling request is not served. */
export const SAMPLING_ERROR_CODES = {
  /** The approval hook declined the request (the code the specification's example uses). */
  declined: -1,
  /** Over a limit: requests per minute, messages or tools in one request. */
  overLimit: OVER_LIMIT,
  /** The request cannot be served as sent (bad params, a tool_result answering nothing, a task). */
  invalidParams: ErrorCode.InvalidParams,
  /** The model failed (HTTP error, timeout, no content) or the approval hook threw. */
  modelError: ErrorCode.InternalError,
} as const;

const DEFAULT_LIMITS = {
  requestsPerMinute: 10,
  maxTokens: 4096,
  maxMessages: 100,
  maxTools: 64,
  timeoutMs: 120_000,
} as const;

type Limits = { readonly [K in keyof typeof DEFAULT_LIMITS]: number };

function limitsFor(options: SamplingOptions<ResponseInput, SchemaMode>, serverId: string): Limits {
  const limits = {
    ...DEFAULT_LIMITS,
    ...options.limits,
    ...(Object.hasOwn(options.serverLimits ?? {}, serverId)
      ? options.serverLimits?.[serverId]
      : {}),
  };
  checkCount('requestsPerMinute', limits.requestsPerMinute);
  checkCount('maxTokens', limits.maxTokens);
  checkCount('maxMessages', limits.maxMessages);
  checkCount('maxTools', limits.maxTools);
  checkTimeout('timeoutMs', limits.timeoutMs);
  return limits;
}

function refuse(code: number, message: string, data: Record<string, unknown> = {}): McpError {
  return new McpError(code, message, data);
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The params, once they pass their read contract (what the approval hook is shown). */
function readParams(params: unknown): McpCreateMessageRequestParams {
  const first = readMcpCreateMessageRequestParams(params).violations[0];
  if (first !== undefined) {
    throw refuse(
      SAMPLING_ERROR_CODES.invalidParams,
      `sampling request: not CreateMessageRequestParams at "${first.path}": ${first.message}`,
      { path: first.path },
    );
  }
  return params as McpCreateMessageRequestParams;
}

function checkSize(params: unknown, limits: Limits): void {
  const { messages: sentMessages, tools: sentTools, task } = isJsonObject(params) ? params : {};
  const messages = Array.isArray(sentMessages) ? sentMessages.length : 0;
  const tools = Array.isArray(sentTools) ? sentTools.length : 0;
  if (messages > limits.maxMessages || tools > limits.maxTools) {
    throw refuse(
      SAMPLING_ERROR_CODES.overLimit,
      `sampling request too large: ${messages} message(s) (limit ${limits.maxMessages}), ${tools} tool(s) (limit ${limits.maxTools})`,
      { limit: messages > limits.maxMessages ? 'maxMessages' : 'maxTools' },
    );
  }
  if (task !== undefined) {
    throw refuse(
      SAMPLING_ERROR_CODES.invalidParams,
      'task-augmented sampling is not supported (this client does not declare tasks)',
    );
  }
}

async function approve(
  options: SamplingOptions<ResponseInput, SchemaMode>,
  serverId: string,
  params: McpCreateMessageRequestParams,
): Promise<unknown> {
  if (options.onSamplingRequest === undefined) return params;
  let decision: SamplingDecision;
  try {
    decision = await options.onSamplingRequest({ serverId, params });
  } catch (error) {
    throw refuse(SAMPLING_ERROR_CODES.modelError, `sampling approval failed: ${reason(error)}`);
  }
  if (decision.action === 'decline') {
    throw refuse(
      SAMPLING_ERROR_CODES.declined,
      decision.message ?? 'User rejected sampling request',
      { reason: 'declined' },
    );
  }
  return decision.params ?? params;
}

function convert(
  params: unknown,
  options: SamplingOptions<ResponseInput, SchemaMode>,
  serverId: string,
  limits: Limits,
): SamplingRequest<SchemaMode> {
  try {
    return samplingRequest(params, {
      ...responseFormat(options),
      serverId,
      maxTokensCap: limits.maxTokens,
      ...(options.declarations === undefined ? {} : { declarations: options.declarations }),
    });
  } catch (error) {
    if (!(error instanceof GeminiMcpError) || error.code === 'CONTRACT_VIOLATION') throw error;
    throw refuse(SAMPLING_ERROR_CODES.invalidParams, error.message, {
      ...(error.path === undefined ? {} : { path: error.path }),
    });
  }
}

/**
 * Serves one sampling request: limits, approval, conversion, the model, the result. Every
 * refusal is an McpError with a code of `SAMPLING_ERROR_CODES`.
 */
async function serve(
  options: SamplingOptions<ResponseInput, SchemaMode>,
  serverId: string,
  limits: Limits,
  sent: unknown,
  signal: AbortSignal,
): Promise<McpCreateMessageResult> {
  checkSize(sent, limits);
  const approved = await approve(options, serverId, readParams(sent));
  const request = convert(approved, options, serverId, limits);
  const chosen = chooseSamplingModel(request.params.modelPreferences, options.model, serverId);
  const warnings = [...request.warnings, ...chosen.warnings];
  const { onNotice } = options;
  try {
    const reply = await gatherTurn(
      await options.generate({
        // Proven Gemini Contents, which any client's Content type takes.
        contents: request.contents as ContentOf<ResponseInput>[],
        tools: request.tools,
        ...(request.systemInstruction === undefined
          ? {}
          : { systemInstruction: request.systemInstruction }),
        generationConfig: request.generationConfig,
        ...(request.toolConfig === undefined ? {} : { toolConfig: request.toolConfig }),
        ...(chosen.model === undefined ? {} : { model: chosen.model }),
        signal: AbortSignal.any([signal, AbortSignal.timeout(limits.timeoutMs)]),
        ...(onNotice === undefined ? {} : { onNotice }),
      }),
    );
    const { result, warnings: lost } = samplingResult(readGenerateContentResponse(reply), {
      toolset: request.toolset,
      withTools: request.withTools,
      model: chosen.model ?? 'unknown',
      stopSequences: (request.generationConfig.stopSequences ?? []).length > 0,
    });
    for (const warning of lost) warnings.push(warning);
    return result;
  } catch (error) {
    throw refuse(SAMPLING_ERROR_CODES.modelError, `the model failed: ${reason(error)}`);
  } finally {
    for (const warning of warnings) options.onWarning?.(warning, { serverId });
  }
}

/**
 * Makes `client` (the `Client` of either MCP SDK: `@modelcontextprotocol/sdk` 1.x or
 * `@modelcontextprotocol/client` 2.x, see {@link McpClientWithHandlers}) serve its server's
 * `sampling/createMessage` requests with Gemini: declares the
 * `sampling` capability (with `sampling.tools`), so call it before `client.connect`, and
 * answers each request through `options.generate`. `connectServers` calls it for every server
 * when given `sampling`.
 *
 * For each request, in order: the server's rolling-minute count (`requestsPerMinute`), the size
 * of the request (`maxMessages`, `maxTools`), the approval hook (accept, edit or decline), the
 * conversion (`samplingRequest`: every loss to `onWarning`), the model chosen (`model`), the
 * model's reply within `timeoutMs`, and the result (`samplingResult`). What fails gives the
 * server a JSON-RPC error, and the client and the agent's own conversation go on: -1 when the
 * approval hook declined, -32010 over a limit (requests per minute, messages or tools), -32602
 * (InvalidParams) for a request that cannot be served as sent (bad params, a tool_result
 * answering nothing, a task), -32603 (InternalError) when the model failed or the approval hook
 * threw. Limits outside their range are refused with INVALID_INPUT at once.
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'my-app', version: '1.0.0' });
 * serveSampling(client, 'docs', {
 *   generate: genaiGenerate(ai, { model: 'gemini-2.5-flash' }),
 *   limits: { requestsPerMinute: 5, maxTokens: 2048 },
 * });
 * await client.connect(transport);
 * ```
 */
export function serveSampling<R extends ResponseInput, M extends SchemaMode>(
  client: McpClientWithHandlers,
  serverId: string,
  options: SamplingOptions<R, M>,
): void {
  equipClient(client, serverId, [samplingFeature(serverId, options)]);
}

/**
 * The `sampling` capability (with `sampling.tools`) as a client feature for one server: what
 * {@link serveSampling} installs, and what `connectServers` adds to every server's client when
 * given `sampling`. Limits outside their range are refused with INVALID_INPUT at once.
 *
 * @example
 * ```ts
 * equipClient(client, 'docs', [samplingFeature('docs', { generate })]);
 * ```
 */
export function samplingFeature<R extends ResponseInput, M extends SchemaMode>(
  serverId: string,
  options: SamplingOptions<R, M>,
): ClientFeature {
  // The options hold the caller's response and mode types; the handler reads any response.
  const general = options as unknown as SamplingOptions<ResponseInput, SchemaMode>;
  const limits = limitsFor(general, serverId);
  const take = rateWindow(limits.requestsPerMinute);
  return {
    capabilities: { sampling: { tools: {} } },
    install(registry) {
      registry.handle(CreateMessageRequestSchema, async (request, { signal }) => {
        if (!take()) {
          throw refuse(
            SAMPLING_ERROR_CODES.overLimit,
            `sampling rate limit: at most ${limits.requestsPerMinute} request(s) per minute from server "${serverId}"`,
            { limit: 'requestsPerMinute' },
          );
        }
        return serve(general, serverId, limits, request.params, signal);
      });
    },
  };
}
