/**
 * Gathers the chunks of a streamed model turn into one GenerateContentResponse, so that
 * parallel function calls arriving in several chunks stay in one model Content.
 */
import type { Candidate, Content, GenerateContentResponse, Part } from '../generated/types.js';

function isAsyncIterable(value: object): value is AsyncIterable<GenerateContentResponse> {
  return Symbol.asyncIterator in value;
}

/**
 * Candidates at the same position across chunks, fields merged (later chunks win), parts
 * concatenated; the Content's other fields (its role, and any a newer API adds) merged likewise.
 */
function mergeCandidates(chunks: readonly GenerateContentResponse[]): Candidate[] {
  const fields: Omit<Candidate, 'content'>[] = [];
  const parts: Part[][] = [];
  const contents: Omit<Content, 'parts'>[] = [];
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
 * promptFeedback, ...) taken from the latest chunk that has them.
 *
 * @example
 * ```ts
 * const response = await gatherTurn(await ai.models.generateContentStream(params));
 * const model = response.candidates?.[0]?.content; // every part of the turn, in one Content
 * ```
 */
export async function gatherTurn(
  turn: GenerateContentResponse | AsyncIterable<GenerateContentResponse>,
): Promise<GenerateContentResponse> {
  if (!isAsyncIterable(turn)) return turn;
  const chunks: GenerateContentResponse[] = [];
  for await (const chunk of turn) chunks.push(chunk);
  const response: GenerateContentResponse = {};
  for (const chunk of chunks) Object.assign(response, chunk);
  const candidates = mergeCandidates(chunks);
  if (candidates.length > 0) response.candidates = candidates;
  return response;
}
