/**
 * Gathers the chunks of a streamed model turn into one GenerateContentResponse, so that
 * parallel function calls arriving in several chunks stay in one model Content.
 */
import type { CandidateInput, PartInput, ResponseInput } from '../../adapter/shapes.js';

function isAsyncIterable<R>(value: R | AsyncIterable<R>): value is AsyncIterable<R> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/**
 * Candidates at the same position across chunks, fields merged (later chunks win), parts
 * concatenated; the Content's other fields (its role, and any a newer API adds) merged likewise.
 */
function mergeCandidates(chunks: readonly ResponseInput[]): CandidateInput[] {
  const fields: Omit<CandidateInput, 'content'>[] = [];
  const parts: PartInput[][] = [];
  const contents: Record<string, unknown>[] = [];
  for (const chunk of chunks) {
    for (const [index, { content, ...rest }] of (chunk.candidates ?? []).entries()) {
      fields[index] = { ...fields[index], ...rest };
      const { parts: chunkParts, ...contentRest } = content ?? {};
      parts[index] = (parts[index] ?? []).concat(chunkParts ?? []);
      contents[index] = { ...contents[index], ...contentRest };
    }
  }
  return fields.map((rest, index) => ({
    ...rest,
    content: { role: 'model', ...contents[index], parts: parts[index] ?? [] },
  }));
}

/**
 * One response for a model turn. A whole response is returned as it is (the same object); the
 * chunks of a stream become one response: each candidate's parts concatenated in arrival order
 * and otherwise untouched (text pieces are not joined, thought signatures stay on their parts),
 * its other fields (finishReason, safetyRatings, ...) and the top-level fields (usageMetadata,
 * promptFeedback, ...) taken from the latest chunk that has them. The gathered response has the
 * last chunk's prototype, so the getters of a class such as @google/genai's
 * `GenerateContentResponse` (`text`, `functionCalls`) read the whole turn; it is typed as the
 * chunks are.
 *
 * @example
 * ```ts
 * const response = await gatherTurn(await ai.models.generateContentStream(params));
 * const model = response.candidates?.[0]?.content; // every part of the turn, in one Content
 * ```
 */
export async function gatherTurn<R extends ResponseInput>(turn: R | AsyncIterable<R>): Promise<R> {
  if (!isAsyncIterable(turn)) return turn;
  const chunks: R[] = [];
  for await (const chunk of turn) chunks.push(chunk);
  const last = chunks.at(-1);
  const prototype: unknown = last === undefined ? Object.prototype : Object.getPrototypeOf(last);
  const response: Record<string, unknown> = Object.create(
    typeof prototype === 'object' ? prototype : null,
  );
  for (const chunk of chunks) Object.assign(response, chunk);
  const candidates = mergeCandidates(chunks);
  if (candidates.length > 0) response.candidates = candidates;
  // The chunks' own fields, merged, on their prototype: the shape the chunks have.
  return response as R;
}
