/**
 * Issue 38 (item 6, HTTP half; unit tier: in process, a scripted fetch): a large Streamable HTTP
 * event costs time linear in its size. The bounded download used to append each chunk's text to
 * the text held back and search it all for the blank line that ends an event: V8 keeps `a += b`
 * as a rope and copies the whole rope flat whenever a regular expression reads it, so an 8 MB
 * event cost about 4 s of CPU, 30 times a 1 MB one. The test counts copies, not time: the bytes
 * joined (`Buffer.concat`) and the characters of every string a regular expression searches (each
 * such search flattens, that is copies, the string). A linear reader copies each byte a bounded
 * number of times.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BoundedFetch } from '../../src/runtime/mcp/transports/http.js';

/** A fetch answering with an SSE body of `text`, in pieces of `piece` bytes. */
function scripted(text: string, piece: number): typeof fetch {
  const bytes = new TextEncoder().encode(text);
  return async () => {
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(at, at + piece));
        at += piece;
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
}

/** The body read through a BoundedFetch, and what was copied while reading it. */
async function readCounted(text: string, piece: number): Promise<{ body: string; copied: number }> {
  let copied = 0;
  const concat = Buffer.concat;
  vi.spyOn(Buffer, 'concat').mockImplementation((list, length) => {
    const joined = concat(list, length);
    copied += joined.byteLength;
    return joined;
  });
  const exec = RegExp.prototype.exec;
  vi.spyOn(RegExp.prototype, 'exec').mockImplementation(function (this: RegExp, input: string) {
    // Not the sticky copies String#split makes of its separator (each reads from one position).
    if (!this.sticky) copied += input.length;
    return exec.call(this, input);
  });
  const bounded = new BoundedFetch(64 * 1024 * 1024, scripted(text, piece));
  const response = await bounded.fetch('http://127.0.0.1:1/mcp', { method: 'POST' });
  const body = await response.text();
  vi.restoreAllMocks();
  return { body, copied };
}

afterEach(() => vi.restoreAllMocks());

describe('issue 38 item 6: a large SSE event is read in linear time', () => {
  it('a 4 MB event in 16 KB pieces is copied at most three times over, not once per piece', async () => {
    const size = 4 * 1024 * 1024;
    const message = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(size) } });
    const event = `event: message\ndata: ${message}\n\n`;
    const { body, copied } = await readCounted(event, 16 * 1024);
    expect(body).toBe(event);
    // Quadratic: about size * pieces / 2 = 512 MiB. Linear: a few times the event.
    expect(copied).toBeLessThanOrEqual(3 * event.length);
  });

  it('events split anywhere (CRLF across pieces) come out whole and in order', async () => {
    const events = ['a', 'b'.repeat(5000), 'c'].map(
      (text, id) =>
        `id: ${id}\r\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'n', params: { text } })}\r\n\r\n`,
    );
    for (const piece of [1, 2, 3, 7, 4096]) {
      const { body } = await readCounted(events.join(''), piece);
      expect(body).toBe(events.join(''));
    }
  });

  it('events ended by CR CR, LF CR LF or CRLF CRLF are each found, in pieces of one byte', async () => {
    const bad = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, result: 'text' });
    const delivered: unknown[] = [];
    const text = `data: ${bad(1)}\r\rdata: ${bad(2)}\n\r\ndata: ${bad(3)}\r\n\r\ndata: ${bad(4)}`;
    const bounded = new BoundedFetch(1024, scripted(text, 1));
    bounded.onStandIn = (message) => delivered.push(message);
    const response = await bounded.fetch('http://127.0.0.1:1/mcp', { method: 'POST' });
    await response.text();
    expect(delivered.map((message) => (message as { id: number }).id)).toEqual([1, 2, 3, 4]);
  });

  it('a large event whose result is not an object becomes a comment, its stand-in error delivered', async () => {
    const data = JSON.stringify({ jsonrpc: '2.0', id: 7, result: ['x'.repeat(1024 * 1024)] });
    const delivered: unknown[] = [];
    const bounded = new BoundedFetch(64 * 1024 * 1024, scripted(`data: ${data}\n\n`, 16 * 1024));
    bounded.onStandIn = (message) => delivered.push(message);
    const response = await bounded.fetch('http://127.0.0.1:1/mcp', { method: 'POST' });
    expect(await response.text()).toBe(
      ': a result that is not an object, answered as an error\n\n',
    );
    expect(delivered).toMatchObject([{ id: 7, error: { data: { keyword: 'type' } } }]);
  });
});
