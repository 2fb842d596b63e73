/**
 * Gathers the chunks of a streamed model turn into one GenerateContentResponse, so that
 * parallel function calls arriving in several chunks stay in one model Content, and a call whose
 * arguments were streamed in pieces is one call again.
 */
import type { CandidateInput, ResponseInput } from '../../adapter/shapes.js';
import { type GatherOptions, StreamedCalls } from './streamed-calls.js';

export type { GatherOptions } from './streamed-calls.js';

function isAsyncIterable<R>(value: R | AsyncIterable<R>): value is AsyncIterable<R> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/**
 * Candidates at the same position across chunks, fields merged (later chunks win), parts as
 * gathered (`calls`); the Content's other fields (its role, and any a newer API adds) merged
 * likewise.
 */
function mergeCandidates(
  chunks: readonly ResponseInput[],
  calls: readonly (StreamedCalls | undefined)[],
): CandidateInput[] {
  const fields: Omit<CandidateInput, 'content'>[] = [];
  const contents: Record<string, unknown>[] = [];
  for (const chunk of chunks) {
    for (const [index, { content, ...rest }] of (chunk.candidates ?? []).entries()) {
      fields[index] = { ...fields[index], ...rest };
      const { parts: _parts, ...contentRest } = content ?? {};
      contents[index] = { ...contents[index], ...contentRest };
    }
  }
  return fields.map((rest, index) => ({
    ...rest,
    content: { role: 'model', ...contents[index], parts: calls[index]?.parts ?? [] },
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
 * A function call whose arguments were streamed (Vertex AI's `streamFunctionCallArguments`:
 * `{name, willContinue: true}`, then `partialArgs` pieces, then a closing `{}`) becomes one
 * functionCall part, at the place of its first piece, with that piece's fields (its
 * `thoughtSignature`, its `id`) and the `args` assembled from the pieces by their JSON paths;
 * `willContinue` and `partialArgs` are gone, and the pieces' own parts with them. A call in one
 * part (a call without arguments, `{name}`) stays as it came. A call the stream ends before its
 * last piece is closed with what arrived, and a piece that cannot be placed (a path form the API
 * does not write, a `__proto__`, `constructor` or `prototype` step, a bound passed) is refused:
 * each with a notice to `onNotice`, the refused call keeping its first refused piece under
 * `partialArgs` so that `functionCalls` answers it to the model rather than run it. Calls with
 * ids (Vertex AI v1beta1) may interleave; pieces without an id continue the latest open call.
 * `onPartialArgs` hears each call open, each piece taken and each call close, as they arrive.
 *
 * @example
 * ```ts
 * const response = await gatherTurn(await ai.models.generateContentStream(params), {
 *   dialect: 'vertex-v1beta1',
 *   onPartialArgs: ({ phase, name, args }) => console.log(phase, name, JSON.stringify(args)),
 * });
 * const model = response.candidates?.[0]?.content; // every part of the turn, in one Content
 * ```
 */
export async function gatherTurn<R extends ResponseInput>(
  turn: R | AsyncIterable<R>,
  options: GatherOptions = {},
): Promise<R> {
  if (!isAsyncIterable(turn)) return turn;
  const chunks: R[] = [];
  const calls: (StreamedCalls | undefined)[] = [];
  for await (const chunk of turn) {
    chunks.push(chunk);
    for (const [index, candidate] of (chunk.candidates ?? []).entries()) {
      calls[index] ??= new StreamedCalls(index, options);
      calls[index].add(candidate.content?.parts);
    }
  }
  for (const candidate of calls) candidate?.finish();
  const last = chunks.at(-1);
  const prototype: unknown = last === undefined ? Object.prototype : Object.getPrototypeOf(last);
  const response: Record<string, unknown> = Object.create(
    typeof prototype === 'object' ? prototype : null,
  );
  for (const chunk of chunks) Object.assign(response, chunk);
  const candidates = mergeCandidates(chunks, calls);
  if (candidates.length > 0) response.candidates = candidates;
  // The chunks' own fields, merged, on their prototype: the shape the chunks have.
  return response as R;
}
