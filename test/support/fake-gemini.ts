/**
 * A local stand-in for the Gemini API (node:http on 127.0.0.1, a free port): it records every
 * request the real @google/genai client sends and answers each with the next scripted reply,
 * whole (`generateContent`) or as server-sent events (`streamGenerateContent?alt=sse`).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted model turn: a whole response, or the chunks of a stream. */
export type ScriptedReply = { response: object } | { chunks: object[] };

/** A request the client sent. */
interface RecordedRequest {
  method: string;
  /** Path without the query, e.g. `/v1beta/models/gemini-2.5-flash:generateContent`. */
  path: string;
  query: URLSearchParams;
  apiKey: string | undefined;
  body: unknown;
}

/** A running fake; `close()` stops it. */
export interface FakeGemini {
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

/**
 * Starts the fake with its script; replies are used in order, one per request, and a request
 * past the end of the script gets HTTP 500.
 *
 * @example
 * ```ts
 * const fake = await startFakeGemini([{ response: { candidates: [...] } }]);
 * const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: fake.baseUrl } });
 * ```
 */
export async function startFakeGemini(script: readonly ScriptedReply[]): Promise<FakeGemini> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const apiKey = request.headers['x-goog-api-key'];
      requests.push({
        method: request.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        apiKey: typeof apiKey === 'string' ? apiKey : undefined,
        body: await readBody(request),
      });
      const reply = script[requests.length - 1];
      if (reply === undefined) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { code: 500, message: 'script exhausted' } }));
      } else if ('response' in reply) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(reply.response));
      } else {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const chunk of reply.chunks) response.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
        response.end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
