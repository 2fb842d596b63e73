/**
 * JSONL of GenerateContentResponses as a client logs them: text answers, thoughts, parallel
 * function calls with thought signatures, stream chunks; every distinct line is proven valid
 * against the vendored schema before the file is written, so the validator runs its normal
 * (valid) path.
 */

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Built } from './built.js';

/** A small seeded PRNG (mulberry32): the same file on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the server returned files list of directory weather forecast for tomorrow is sunny with a chance of rain temperature degrees price bitcoin currency search results entity relation observation memory graph node read write edit move create delete tool call answer model user'.split(
    ' ',
  );
const TOOLS = ['read_file', 'list_directory', 'search_nodes', 'get-sum', 'echo', 'bitcoin_price'];
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function lineMaker(seed: number): () => Record<string, unknown> {
  const next = random(seed);
  const int = (max: number): number => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const text = (words: number): string =>
    Array.from({ length: words }, () => pick(WORDS)).join(' ');
  const signature = (): string =>
    Array.from({ length: 96 + int(200) }, () => BASE64[int(BASE64.length)]!).join('');
  const usage = () => {
    const prompt = 20 + int(4000);
    const candidates = 5 + int(800);
    const thoughts = int(300);
    return {
      promptTokenCount: prompt,
      candidatesTokenCount: candidates,
      thoughtsTokenCount: thoughts,
      totalTokenCount: prompt + candidates + thoughts,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
    };
  };
  const envelope = (parts: unknown[], finishReason: string | undefined) => ({
    candidates: [
      {
        content: { role: 'model', parts },
        ...(finishReason === undefined ? {} : { finishReason }),
        index: 0,
      },
    ],
    usageMetadata: usage(),
    modelVersion: 'gemini-2.5-flash',
    responseId: Array.from({ length: 22 }, () => BASE64[int(62)]!).join(''),
  });
  const call = () => ({
    functionCall: {
      id: `call_${int(1e9).toString(36)}`,
      name: pick(TOOLS),
      args: {
        path: `/data/${text(2).replaceAll(' ', '/')}.txt`,
        query: text(3 + int(6)),
        options: { limit: 1 + int(50), recursive: next() < 0.5, tags: [text(1), text(1)] },
      },
    },
  });
  return () => {
    const shape = int(4);
    if (shape === 0) return envelope([{ text: text(30 + int(250)) }], 'STOP');
    if (shape === 1) {
      const calls = Array.from({ length: 1 + int(3) }, call);
      return envelope(
        calls.map((part, index) =>
          index === 0 ? { ...part, thoughtSignature: signature() } : part,
        ),
        'STOP',
      );
    }
    if (shape === 2) {
      return envelope(
        [{ text: text(20 + int(120)), thought: true }, { text: text(30 + int(200)) }],
        'STOP',
      );
    }
    return envelope([{ text: text(3 + int(20)) }], undefined);
  };
}

/** Distinct valid lines (throws if one fails the schema: the generator's bug). */
function responseLines(check: Check, count: number, seed = 7): string[] {
  const make = lineMaker(seed);
  return Array.from({ length: count }, (_, index) => {
    const response = make();
    const violations = check(response);
    if (violations.length > 0) {
      throw new Error(
        `generated line ${index} fails GenerateContentResponse: ${JSON.stringify(violations[0])}`,
      );
    }
    return JSON.stringify(response);
  });
}

/** The built package's GenerateContentResponse validator. */
type Check = Built['checkGenerateContentResponse'];

/**
 * Writes at least `bytes` bytes of JSONL (whole lines) to `path`, each distinct line proven by
 * `check`; returns lines and bytes written.
 */
export async function writeResponsesJsonl(
  path: string,
  bytes: number,
  check: Check,
): Promise<{ lines: number; bytes: number }> {
  const pool = responseLines(check, 2000);
  const stream = createWriteStream(path);
  let written = 0;
  let lines = 0;
  let index = 0;
  while (written < bytes) {
    const chunk: string[] = [];
    let size = 0;
    while (size < 1 << 20 && written + size < bytes) {
      const line = `${pool[index % pool.length]!}\n`;
      index++;
      chunk.push(line);
      size += Buffer.byteLength(line);
    }
    lines += chunk.length;
    written += size;
    if (!stream.write(chunk.join(''))) await once(stream, 'drain');
  }
  stream.end();
  await once(stream, 'finish');
  return { lines, bytes: written };
}
