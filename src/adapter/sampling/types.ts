/** The shapes of MCP sampling served by Gemini: the losses reported and the conversion options. */

import type { Warning } from '../../errors.js';
import type { SchemaMode } from '../shapes.js';
import type { FunctionDeclarationsOptions } from '../tools/declarations.js';
import type { ToolSet } from '../tools/toolset-types.js';
import type { ResponseFormat } from '../turn/responses.js';

/** What a {@link SamplingWarning} is about. */
export type SamplingWarningCode =
  /** A content block Gemini cannot take (or of a kind unknown to us) was left out of a message. */
  | 'CONTENT_DROPPED'
  /** A message was left out: none of its blocks could be sent. */
  | 'MESSAGE_DROPPED'
  /** `includeContext` asked for context this client does not add (`sampling.context` is not declared): answered as `none`. */
  | 'INCLUDE_CONTEXT'
  /** The request's provider-specific `metadata` is not sent to Gemini. */
  | 'METADATA_IGNORED'
  /** A model hint or priority of `modelPreferences` was not followed. */
  | 'MODEL_PREFERENCE'
  /** `maxTokens` was lowered to the cap the client set. */
  | 'MAX_TOKENS_CAPPED'
  /** `temperature` was outside Gemini's range [0, 2] and was clamped. */
  | 'TEMPERATURE_CLAMPED'
  /** More stop sequences than Gemini takes (5): the rest were left out. */
  | 'STOP_SEQUENCES_CUT'
  /** `toolChoice` without tools, or a mode unknown to us: not sent. */
  | 'TOOL_CHOICE_IGNORED'
  /** A tool of the request was renamed, left out or changed on the way to a declaration (`data.warning` holds the tool set's or declaration's own warning). */
  | 'TOOL_CHANGED'
  /** A field, enum value or block kind of the request newer than the vendored MCP schemas (kept or passed over, never fatal). */
  | 'REQUEST_NOVELTY'
  /** The model's thoughts are not part of the result. */
  | 'THOUGHTS_OMITTED'
  /** A part of the model's reply MCP cannot hold (code execution, file data, a media type other than image or audio, ...) was left out. */
  | 'PART_DROPPED'
  /** A request without tools gets one content block: several blocks of the reply became one (texts joined, other blocks left out). */
  | 'SINGLE_BLOCK'
  /** The model called a function the request did not declare: passed on under its own name. */
  | 'UNKNOWN_TOOL_CALL'
  /** The finish reason has no MCP stop reason (`SAFETY`, ...; sent as it is), or cannot be told apart (a stop sequence reads as `endTurn`). */
  | 'STOP_REASON';

/** Something lost or changed between an MCP sampling request or result and Gemini. */
export interface SamplingWarning extends Warning<SamplingWarningCode> {
  /** JSON pointer into the request's params (or, for the reply, into the GenerateContentResponse). */
  readonly path: string;
  /** Code-specific facts (the tool set's warning, the block type, ...). */
  readonly data?: Readonly<Record<string, unknown>>;
}

/**
 * Options of `samplingRequest`; `M` is the schema mode of the declared tools. The
 * {@link ResponseFormat} is how each `tool_result` block becomes a functionResponse (as in
 * `functionResponse`), and which API the request is for.
 */
export interface SamplingRequestOptions<M extends SchemaMode = 'json'> extends ResponseFormat {
  /** The id of the server that asks: the namespace of its tools' names. */
  readonly serverId: string;
  /** How the request's tools are declared (schema mode, output schemas), as for a tool set. */
  readonly declarations?: Omit<FunctionDeclarationsOptions<M>, 'onWarning'>;
  /** `maxTokens` above this is lowered to it (reported); default no cap. */
  readonly maxTokensCap?: number;
}

/** Options of `samplingResult`. */
export interface SamplingResultOptions {
  /** The tool set `samplingRequest` built (its names are mapped back). */
  readonly toolset: ToolSet;
  /** Whether the request had tools or a tool choice: then the result's content is a list of blocks, else one block. */
  readonly withTools: boolean;
  /** The model that served the request (the result's `model` when the reply names none). */
  readonly model: string;
  /** Whether the request had stop sequences (a `STOP` finish may then be one, and reads as `endTurn`). */
  readonly stopSequences?: boolean;
  /** Makes the id of a tool call Gemini sent without one (default: a random UUID); it gets the prefix `gemini-mcp-`. */
  readonly newId?: () => string;
}
