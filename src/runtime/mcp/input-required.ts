/**
 * Multi round-trip requests (MCP 2026-07-28): a server answers `tools/call` with
 * `resultType: "input_required"`, the elicitations, sampling and roots requests it needs
 * (`inputRequests`) and a `requestState`; the client answers each through the handler of the
 * feature that serves it (the same handlers `equipClient` installs for 2025 server requests:
 * `onElicitation` with its bounds, `serveSampling`, roots) and retries the request with
 * `inputResponses` and the `requestState` echoed. Here that loop is bounded: rounds, bytes of
 * one round's input requests, and the call's whole time; a server that keeps asking ends the
 * call with an {@link InputRequestsEnded} naming the limit, which the turn answers to the model.
 */
import { unknown } from 'zod/v4';
import { GeminiMcpError } from '../../errors.js';
import { checkMcpInputResponses } from '../../generated/guards-mcp.js';
import { proveContract } from '../../json/contract.js';
import { isJsonObject, setOwn } from '../../json/object.js';
import { utf8ByteLength } from '../../json/utf8.js';
import { checkCount } from '../options.js';
import type { McpClient, McpRequest } from './mcp-client.js';

/** Bounds on one call's multi round-trip requests. */
export interface InputRequiredLimits {
  /**
   * Rounds of input requests one call may ask for; the call is ended (`INPUT_LIMIT`,
   * `limit: 'maxRounds'`) when the server asks once more.
   *
   * @defaultValue 10
   */
  maxRounds?: number;
  /**
   * Largest round of input requests, in bytes of JSON (`inputRequests` and `requestState`
   * together); a larger one ends the call (`INPUT_LIMIT`, `limit: 'maxRequestBytes'`) before
   * any handler sees it.
   *
   * @defaultValue 262144
   */
  maxRequestBytes?: number;
}

const DEFAULT_MAX_ROUNDS = 10;
const DEFAULT_MAX_REQUEST_BYTES = 256 * 1024;

/** The pause before retrying a round that asked for nothing (a `requestState` alone), in ms. */
const STATE_ONLY_PACING_MS = 250;

/** Why a call's input requests ended it, and the tool error it becomes. */
export type InputRequestsEndedCode = 'INPUT_LIMIT' | 'INPUT_REFUSED' | 'TIMEOUT';

/**
 * A call ended by its input requests: over a limit (`INPUT_LIMIT`, `TIMEOUT`), or asking what
 * the client will not or cannot answer (`INPUT_REFUSED`). `reason` completes a sentence about
 * the call ("tool "x" on server "s" ..."); `data` names the limit or the input request.
 */
export class InputRequestsEnded extends Error {
  constructor(
    readonly code: InputRequestsEndedCode,
    readonly reason: string,
    readonly data: Readonly<Record<string, unknown>>,
  ) {
    super(reason);
    this.name = 'InputRequestsEnded';
  }
}

/** What a handler of an input request is told: the server id, a signal that ends it. */
interface InputContext {
  readonly serverId: string;
  readonly signal: AbortSignal;
}

/** Reads an input request as the feature's request schema has it, or says what is wrong. */
type ParseRequest = (
  request: unknown,
) => { success: true; data: unknown } | { success: false; error: unknown };

interface InputHandler {
  readonly parse: ParseRequest;
  readonly handle: (request: never, context: InputContext) => unknown;
}

interface ClientHandlers {
  readonly serverId: string;
  readonly byMethod: Map<string, InputHandler>;
}

const handlersOf = new WeakMap<object, ClientHandlers>();

/**
 * Records the handler a feature installs on `client` for `method`, so an input request of that
 * method is answered by it; `parse` reads a request as the handler's request schema has it.
 */
export function answerInputRequestsWith(
  client: object,
  serverId: string,
  method: string,
  parse: ParseRequest,
  handle: InputHandler['handle'],
): void {
  let handlers = handlersOf.get(client);
  if (handlers === undefined) {
    handlers = { serverId, byMethod: new Map() };
    handlersOf.set(client, handlers);
  }
  handlers.byMethod.set(method, { parse, handle });
}

/**
 * Whether gemini-mcp-kit answers `client`'s input requests itself (its features were installed
 * with `equipClient`): then its calls ask the SDK to hand `input_required` results back. A
 * client equipped otherwise keeps its SDK's own loop and handlers.
 */
export function answersInputRequests(client: McpClient): boolean {
  return handlersOf.has(client);
}

/** Whether a result is a multi round-trip request's `input_required`. */
export function isInputRequired(result: unknown): result is Record<string, unknown> {
  return isJsonObject(result) && result.resultType === 'input_required';
}

/** How one call's rounds run: its limits, when its time is up, the signal that cancels it. */
export interface InputRoundsOptions {
  readonly limits: InputRequiredLimits | undefined;
  /** `performance.now()` when the call's `timeoutMs` runs out. */
  readonly deadline: number;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  /** The first request's `Mcp-Param-*` headers, sent with every retry too (2026-07-28 HTTP). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * Answers `first` (an `input_required` result of `request` on `client`) and retries until the
 * server returns a complete result, which is returned as it came. Ends with an
 * {@link InputRequestsEnded} past a limit, for a malformed round, and for an input request no
 * handler answers or its handler refuses; a transport failure of a retry is thrown as it is.
 *
 * @example
 * ```ts
 * const raw = await client.request(request, schema, { allowInputRequired: true });
 * const result = isInputRequired(raw) ? await fulfilInputRequests(client, request, raw, rounds) : raw;
 * ```
 */
export async function fulfilInputRequests(
  client: McpClient,
  request: McpRequest,
  first: Record<string, unknown>,
  options: InputRoundsOptions,
): Promise<unknown> {
  const maxRounds = options.limits?.maxRounds ?? DEFAULT_MAX_ROUNDS;
  const maxBytes = options.limits?.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const handlers = handlersOf.get(client);
  let result: unknown = first;
  for (let round = 1; isInputRequired(result); round += 1) {
    if (round > maxRounds) {
      throw new InputRequestsEnded(
        'INPUT_LIMIT',
        `still asked for input after ${maxRounds} round(s) (limit inputRequired.maxRounds); the call was ended`,
        { limit: 'maxRounds', rounds: maxRounds },
      );
    }
    const { inputRequests, requestState } = readRound(result, maxBytes);
    const responses = await withinDeadline(options, round, (signal) =>
      answerRound(handlers, inputRequests, signal),
    );
    const remaining = options.deadline - performance.now();
    if (remaining <= 0) throw pastDeadline(options.timeoutMs, round);
    result = await client.request(
      {
        method: request.method,
        params: {
          ...request.params,
          ...(responses === undefined ? {} : { inputResponses: responses }),
          ...(requestState === undefined ? {} : { requestState }),
        },
      },
      RETRY_SCHEMA,
      {
        timeout: Math.ceil(remaining),
        allowInputRequired: true,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.headers === undefined ? {} : { headers: options.headers }),
      },
    );
  }
  return result;
}

/** A retry's result is read like the first one: as it came (see `executeToolCalls`). */
const RETRY_SCHEMA = unknown();

/** The round's input requests and state, checked for shape and bounded in bytes. */
function readRound(
  result: Record<string, unknown>,
  maxBytes: number,
): { inputRequests: Record<string, unknown>; requestState: string | undefined } {
  const { inputRequests = {}, requestState } = result;
  if (
    !isJsonObject(inputRequests) ||
    (requestState !== undefined && typeof requestState !== 'string')
  ) {
    throw new InputRequestsEnded(
      'INPUT_REFUSED',
      'answered with a malformed input_required result (inputRequests must be an object, requestState a string); the call was ended',
      { limit: 'shape' },
    );
  }
  const bytes = utf8ByteLength(JSON.stringify({ inputRequests, requestState }));
  if (bytes > maxBytes) {
    throw new InputRequestsEnded(
      'INPUT_LIMIT',
      `asked for ${bytes} bytes of input requests in one round, over the client's ${maxBytes} (limit inputRequired.maxRequestBytes); the call was ended`,
      { limit: 'maxRequestBytes', bytes, maxRequestBytes: maxBytes },
    );
  }
  return { inputRequests, requestState };
}

/** Each input request answered by its handler (all at once), or `undefined` for none. */
async function answerRound(
  handlers: ClientHandlers | undefined,
  inputRequests: Record<string, unknown>,
  signal: AbortSignal,
): Promise<Record<string, unknown> | undefined> {
  const entries = Object.entries(inputRequests);
  if (entries.length === 0) {
    await new Promise((resolve) => setTimeout(resolve, STATE_ONLY_PACING_MS));
    return undefined;
  }
  const answers = await Promise.all(
    entries.map(
      async ([key, entry]) => [key, await answerOne(handlers, key, entry, signal)] as const,
    ),
  );
  const responses: Record<string, unknown> = {};
  for (const [key, answer] of answers) setOwn(responses, key, answer);
  return proveContract(responses, checkMcpInputResponses, { schema: 'InputResponses' });
}

/** One input request answered by the handler registered for its method. */
async function answerOne(
  handlers: ClientHandlers | undefined,
  key: string,
  entry: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  const method = isJsonObject(entry) && typeof entry.method === 'string' ? entry.method : undefined;
  const about = { key, ...(method === undefined ? {} : { method }) };
  const handler = method === undefined ? undefined : handlers?.byMethod.get(method);
  if (method === undefined || handler === undefined) {
    throw new InputRequestsEnded(
      'INPUT_REFUSED',
      method === undefined
        ? `asked for input request ${JSON.stringify(key)} without a method; the call was ended`
        : `asked for ${method} (input request ${JSON.stringify(key)}), which this client does not answer (no such capability configured); the call was ended`,
      about,
    );
  }
  const params = isJsonObject(entry) && entry.params !== undefined ? entry.params : {};
  const parsed = handler.parse({ method, params });
  if (!parsed.success) {
    throw new InputRequestsEnded(
      'INPUT_REFUSED',
      `asked for a malformed ${method} (input request ${JSON.stringify(key)}): ${messageOf(parsed.error)}; the call was ended`,
      about,
    );
  }
  const serverId = handlers?.serverId ?? '';
  try {
    return await handler.handle(parsed.data as never, { serverId, signal });
  } catch (error) {
    if (error instanceof InputRequestsEnded) throw error;
    const data = (error as { data?: unknown } | undefined)?.data;
    throw new InputRequestsEnded(
      'INPUT_REFUSED',
      `asked for ${method} (input request ${JSON.stringify(key)}), which the client refused: ${messageOf(error)}; the call was ended`,
      { ...about, ...(isJsonObject(data) ? data : {}) },
    );
  }
}

/** Characters of an error's message quoted to the model, at most. */
const MAX_QUOTED_CHARS = 500;

/** An error's message, in at most {@link MAX_QUOTED_CHARS} characters. */
function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > MAX_QUOTED_CHARS ? `${message.slice(0, MAX_QUOTED_CHARS)}...` : message;
}

function pastDeadline(timeoutMs: number, round: number): InputRequestsEnded {
  return new InputRequestsEnded(
    'TIMEOUT',
    `did not complete within ${timeoutMs} ms (limit timeoutMs) after ${round} round(s) of input requests; the call was ended`,
    { limit: 'timeoutMs', timeoutMs, rounds: round },
  );
}

/**
 * Runs `answer` with a signal that aborts when the call's time runs out or the caller cancels,
 * and gives up on it then, whether or not the handler heeds the signal.
 */
function withinDeadline<T>(
  options: InputRoundsOptions,
  round: number,
  answer: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const remaining = options.deadline - performance.now();
  if (remaining <= 0) return Promise.reject(pastDeadline(options.timeoutMs, round));
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const stop = (error: unknown): void => {
      controller.abort(error);
      reject(error);
    };
    const timer = setTimeout(() => stop(pastDeadline(options.timeoutMs, round)), remaining);
    const cancel = (): void => stop(options.signal?.reason);
    options.signal?.addEventListener('abort', cancel, { once: true });
    const done = (): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', cancel);
    };
    if (options.signal?.aborted === true) cancel();
    answer(controller.signal).then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}

/**
 * Checks input-request limits up front: an object whose `maxRounds` and `maxRequestBytes` are
 * whole numbers >= 1. Otherwise INVALID_INPUT naming the option.
 */
export function checkInputRequiredLimits(limits: InputRequiredLimits | undefined): void {
  if (limits === undefined) return;
  if (!isJsonObject(limits)) {
    throw new GeminiMcpError('INVALID_INPUT', 'option inputRequired must be an object', {
      data: { option: 'inputRequired' },
    });
  }
  checkCount('inputRequired.maxRounds', limits.maxRounds);
  checkCount('inputRequired.maxRequestBytes', limits.maxRequestBytes);
}
