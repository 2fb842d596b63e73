/** The ids and `_meta` keys gemini-mcp-kit puts on the tool calls of a sampling result. */

/** Ids gemini-mcp-kit makes up for calls Gemini sent without one start with this; they are never sent back. */
const GENERATED_ID_PREFIX = 'gemini-mcp-';

/**
 * The `_meta` key of a `tool_use` block holding the call's thought signature, so that the
 * call goes back to Gemini with it when the server sends the conversation again.
 */
export const THOUGHT_SIGNATURE_META = 'gemini-mcp/thoughtSignature';

/**
 * A new id for a call Gemini sent without one.
 *
 * @example
 * ```ts
 * generatedCallId(() => '42'); // 'gemini-mcp-42'
 * ```
 */
export function generatedCallId(newId: () => string = () => crypto.randomUUID()): string {
  return `${GENERATED_ID_PREFIX}${newId()}`;
}

/**
 * Whether an id is one {@link generatedCallId} made (Gemini never saw it).
 *
 * @example
 * ```ts
 * isGeneratedCallId('gemini-mcp-42'); // true
 * ```
 */
export function isGeneratedCallId(id: string): boolean {
  return id.startsWith(GENERATED_ID_PREFIX);
}
