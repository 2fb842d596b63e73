/** A tool's result (or the error standing in for one) as a Gemini functionResponse part. */

import { GeminiMcpError } from '../../errors.js';
import { checkFunctionResponse, readMcpCallToolResult } from '../../generated/guards.js';
import type { FunctionResponse, McpCallToolResult } from '../../generated/types.js';
import { proveContract } from '../../json/contract.js';
import { toPlainJson } from '../../json/copy.js';
import { isJsonObject } from '../../json/object.js';
import { truncateUtf8, utf8ByteLength } from '../../json/utf8.js';
import type { Dialect } from '../dialect.js';
import { dialectShapes } from '../dialect-shapes.js';
import type { AnswerPart, CallToolResultInput } from '../shapes.js';
import type { ToolError, ToolResult } from '../types.js';
import { isToolError } from '../types.js';
import type { RejectedCall } from './calls.js';
import { type MediaMode, renderContent } from './render.js';

/** How `structuredContent` and the content blocks make up the output; see {@link functionResponse}. */
export type StructuredMode = 'prefer' | 'auto' | 'append' | 'ignore';

/**
 * How a tool's result becomes a functionResponse: the options {@link functionResponse},
 * {@link rejectionResponse}, `answerCalls`, `runConversation`, `mcpCallableTool` and sampling
 * (a request's `tool_result` blocks) share.
 */
export interface ResponseFormat {
  /**
   * How `structuredContent` and the content blocks make up the output (see
   * {@link functionResponse}); default `'prefer'`.
   */
  readonly structured?: StructuredMode;
  /** How images and audio travel: text placeholders, or `functionResponse.parts`; default `'placeholder'`. */
  readonly media?: MediaMode;
  /**
   * Output (or error) text beyond this many UTF-8 bytes is cut, ending in a visible marker
   * (default 262144; `Infinity` for no cap). Structured output larger than this is sent as
   * cut JSON text.
   */
  readonly maxOutputBytes?: number;
  /**
   * The API (and version) the parts are for; default `'gemini'`. Call ids are echoed where its
   * reference has them (`'gemini'`, `'vertex-v1beta1'`, its alias `'vertex'`) and left out where
   * it does not (`'vertex-v1'`).
   */
  readonly dialect?: Dialect;
}

/** Options of {@link functionResponse}. */
export interface FunctionResponseOptions extends ResponseFormat {
  /**
   * The functionCall's id, echoed where the dialect's reference has ids (the Gemini API, Vertex
   * AI v1beta1; not Vertex AI v1); `null` or absent: no id.
   */
  readonly id?: string | null;
}

/** The {@link ResponseFormat} fields `options` sets, alone: for passing them on. */
export function responseFormat(options: ResponseFormat): ResponseFormat {
  const { structured, media, maxOutputBytes, dialect } = options;
  return {
    ...(structured === undefined ? {} : { structured }),
    ...(media === undefined ? {} : { media }),
    ...(maxOutputBytes === undefined ? {} : { maxOutputBytes }),
    ...(dialect === undefined ? {} : { dialect }),
  };
}

/** The default of `maxOutputBytes`: 256 KiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 262_144;

/** The error text of an `isError` result that carries no content. */
const NO_ERROR_DETAILS = 'The tool reported an error without details.';

/** What goes under `response.output`: text, or a structuredContent value itself (any JSON). */
type Payload = unknown;

/**
 * Whether any object inside `value` has a `$ref` key (which the API reads as a part reference).
 * Iterative, one push per value: no spread, whose arguments a sender-sized array overflows.
 */
function hasRefKey(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (isJsonObject(current)) {
      if (Object.hasOwn(current, '$ref')) return true;
      for (const key of Object.keys(current)) pending.push(current[key]);
    }
  }
  return false;
}

/** Deep equality of JSON values (object key order ignored). */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => jsonEqual(item, b[index]))
    );
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]))
  );
}

/** Whether `text` is the JSON of `value` (only texts that start like its JSON are parsed). */
function parsesTo(text: string, value: unknown, json: string): boolean {
  if (text.trimStart()[0] !== json[0]) return false;
  try {
    return jsonEqual(JSON.parse(text), value);
  } catch {
    return false;
  }
}

/**
 * The text (or, for `prefer`, the structured value) a result's content and mode make up. The
 * structuredContent may be any JSON value (MCP 2026-07-28: an array, a string, a number, ...);
 * it is never lost: with no text at all, `ignore` sends it too.
 */
function payloadOf(result: McpCallToolResult, mode: StructuredMode, media: MediaMode) {
  const rendered = renderContent(result.content, media);
  const present = result.structuredContent !== undefined;
  const structured: unknown = present ? toPlainJson(result.structuredContent) : undefined;
  const json = present ? JSON.stringify(structured) : '';
  const appended = () => (rendered.text === '' ? json : `${rendered.text}\n${json}`);
  let payload: Payload = rendered.text;
  if (present) {
    if (mode === 'prefer' || (mode === 'ignore' && rendered.text === '')) payload = structured;
    else if (mode === 'append') payload = appended();
    else if (mode === 'auto') {
      const echoed = rendered.textBlocks.some((text) => parsesTo(text, structured, json));
      payload = echoed ? rendered.text : appended();
    }
  }
  return { payload, parts: rendered.parts };
}

/** `text`, well-formed, cut to `maxBytes` of UTF-8 plus a marker saying how much was cut. */
function capped(raw: string, maxBytes: number): string {
  const text = raw.toWellFormed();
  const total = utf8ByteLength(text);
  if (total <= maxBytes) return text;
  const kept = truncateUtf8(text, maxBytes);
  return `${kept}\n[output truncated: ${utf8ByteLength(kept)} of ${total} bytes shown]`;
}

/**
 * The payload made safe to send: a structured value containing a `$ref` key (FR-8) or over the
 * size cap becomes JSON text; text is cut to the cap with a marker.
 */
function safePayload(payload: Payload, maxBytes: number): Payload {
  if (typeof payload === 'string') return capped(payload, maxBytes);
  const json = JSON.stringify(payload);
  if (hasRefKey(payload) || utf8ByteLength(json) > maxBytes) return capped(json, maxBytes);
  return payload;
}

function checkOptions(exposedName: string, options: ResponseFormat): number {
  const nameViolations = checkFunctionResponse({ name: exposedName, response: {} });
  if (nameViolations.length > 0) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `"${exposedName}" cannot name a function response: ${nameViolations[0]!.message}`,
      { details: nameViolations },
    );
  }
  const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  if (!(maxBytes === Number.POSITIVE_INFINITY || (Number.isInteger(maxBytes) && maxBytes > 0))) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `maxOutputBytes must be a positive integer or Infinity, got ${maxBytes}`,
    );
  }
  return maxBytes;
}

/**
 * A result in the CallToolResult shape: the legacy `{toolResult}` (protocol 2024-10-07) becomes
 * one text block holding it (as JSON unless it is a string); anything else is left to the check.
 */
function currentShape(result: unknown): unknown {
  if (
    !isJsonObject(result) ||
    Object.hasOwn(result, 'content') ||
    !Object.hasOwn(result, 'toolResult')
  ) {
    return result;
  }
  const legacy = result.toolResult;
  const text = typeof legacy === 'string' ? legacy : JSON.stringify(toPlainJson(legacy) ?? null);
  return { content: [{ type: 'text', text }] };
}

function toolErrorText(error: ToolError): string {
  const data = error.data === undefined ? '' : `\n${JSON.stringify(toPlainJson(error.data))}`;
  return `${error.code}: ${error.message}${data}`;
}

/**
 * Builds the functionResponse part that answers one call:
 * `{functionResponse: {id?, name, response: {output} | {error}, parts?}}`.
 *
 * - Success goes under `response.output`; `isError: true` and a {@link ToolError} (timeout,
 *   transport failure, unknown server, ...) go under `response.error` as text.
 * - `structured` (`'prefer'` default): the `structuredContent` itself when present (any JSON
 *   value: an object, or since MCP 2026-07-28 an array, string, number, boolean or null), else
 *   the text. `'ignore'`: text only (the structuredContent itself when there is no text, so a
 *   result is never lost). `'append'`: the text, then the structuredContent as JSON. `'auto'`:
 *   like append, unless a text block already holds that same JSON.
 * - Text: text blocks joined by newlines; images and audio as `[image: image/png, 1024 bytes]`
 *   (decoded size); resource links and embedded resources as text or a placeholder with uri,
 *   type and size. `media: 'parts'` sends images and audio as `functionResponse.parts[].inlineData`.
 * - Text over `maxOutputBytes` is cut with a visible marker; an object over it, or one holding
 *   a `$ref` key (the API would read it as a part reference), is sent as JSON text.
 * - `id` is echoed where the dialect's reference has it (Gemini API, Vertex AI v1beta1) and left
 *   out where it does not (Vertex AI v1).
 *
 * `result` takes what the MCP SDK's `Client.callTool` returns as it is typed, including the
 * legacy `{toolResult}` of protocol version 2024-10-07 (sent as text). Throws INVALID_INPUT when
 * `exposedName` cannot name a function response or `result` is neither a ToolError nor a valid
 * MCP CallToolResult. The part is typed {@link AnswerPart} (assignable to @google/genai's
 * `Part`) and proven against the dialect's Part schema (`Part`, `VertexV1Part`, `VertexV1Beta1Part`).
 *
 * @example
 * ```ts
 * const result = await client.callTool({ name: call.name, arguments: call.arguments });
 * const part = functionResponse(call.exposedName, result, { id: call.callId });
 * // { functionResponse: { id: 'c1', name: 'get_weather', response: { output: { tempC: 21 } } } }
 * ```
 */
export function functionResponse(
  exposedName: string,
  result: CallToolResultInput | ToolError,
  options: FunctionResponseOptions = {},
): AnswerPart {
  let checked: ToolResult | ToolError;
  if (isToolError(result)) checked = result;
  else {
    const current = currentShape(result);
    const { violations } = readMcpCallToolResult(current);
    if (violations.length > 0) {
      throw new GeminiMcpError(
        'INVALID_INPUT',
        `The result for "${exposedName}" is neither a ToolError nor an MCP CallToolResult: ${violations[0]!.path} ${violations[0]!.message}`,
        { path: violations[0]!.path, details: violations },
      );
    }
    checked = current as ToolResult;
  }
  const { part } = dialectShapes(options.dialect);
  return proveContract(
    unprovenResponsePart(exposedName, checked, options.id ?? null, options),
    part.check,
    { schema: part.schema, tool: exposedName },
  );
}

/**
 * The functionResponse part answering a call that was not run (an unknown name, arguments that
 * are not an object or fail the inputSchema, a call without a name): its `response.error` is
 * `REASON: message`, under the name `functionCalls` gave it, with its id echoed where the
 * dialect's reference has ids. `answerCalls` answers rejected calls this way itself; this is for
 * a loop of your own over `functionCalls(...).items`. The part is proven against the dialect's
 * Part schema.
 *
 * @example
 * ```ts
 * for (const item of functionCalls(response, toolset).items) {
 *   if (item.kind === 'rejected') parts.push(rejectionResponse(item.rejected));
 * }
 * ```
 */
export function rejectionResponse(
  rejected: RejectedCall,
  options: ResponseFormat = {},
): AnswerPart {
  const { part } = dialectShapes(options.dialect);
  return proveContract(unprovenRejectionPart(rejected, options), part.check, {
    schema: part.schema,
    tool: rejected.name,
  });
}

/** {@link rejectionResponse}, leaving the proof of the part to the caller's proof of the Content. */
export function unprovenRejectionPart(rejected: RejectedCall, format: ResponseFormat): AnswerPart {
  return unprovenResponsePart(
    rejected.name,
    { code: rejected.reason, message: rejected.message },
    rejected.callId,
    format,
  );
}

/**
 * {@link functionResponse} for a result already proven against CallToolResult (a ToolError, or
 * what `executeToolCalls` checked), leaving the proof of the part to the caller's proof of the
 * whole Content: each result and part is validated once on the way from a call to its answer.
 */
export function unprovenResponsePart(
  exposedName: string,
  result: ToolResult | ToolError,
  id: string | null,
  format: ResponseFormat,
): AnswerPart {
  const maxBytes = checkOptions(exposedName, format);
  const { callIds } = dialectShapes(format.dialect);
  let response: FunctionResponse['response'];
  let parts: FunctionResponse['parts'] = [];
  if (isToolError(result)) {
    response = { error: capped(toolErrorText(result), maxBytes) };
  } else {
    const made = payloadOf(result, format.structured ?? 'prefer', format.media ?? 'placeholder');
    parts = made.parts;
    const payload = safePayload(made.payload, maxBytes);
    if (result.isError === true) {
      const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
      response = { error: text === '' ? NO_ERROR_DETAILS : text };
    } else response = { output: payload };
  }
  return {
    functionResponse: {
      ...(callIds && typeof id === 'string' ? { id } : {}),
      name: exposedName,
      response,
      ...(parts.length > 0 ? { parts } : {}),
    },
  };
}
