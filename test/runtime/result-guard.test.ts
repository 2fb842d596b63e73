/**
 * Issue 11 over stdio, at the line buffer: a response whose result is not an object becomes
 * the stand-in error however the lines arrive, and every other line reads as the SDK reads it.
 * The buffer is the one our stdio transport reads with, in the SDK's `ReadBuffer` interface (as
 * the SDK's own stdio transport gets it on Windows).
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { refusedResult, standIn } from '../../src/runtime/mcp/result-guard.js';
import { LineBuffer, useLineBuffer } from '../../src/runtime/mcp/transports/line-buffer.js';

interface ReadBufferLike {
  append(chunk: Buffer): void;
  readMessage(): unknown;
}

function guarded(): ReadBufferLike {
  const transport: { _readBuffer?: ReadBufferLike | undefined } = { _readBuffer: undefined };
  useLineBuffer(transport);
  return transport._readBuffer!;
}

const line = (message: object): string => `${JSON.stringify(message)}\n`;

describe('issue 11: the stdio line buffer', () => {
  it('issue 11: in one chunk, a good line, a non-object result and a good line read in order', () => {
    const buffer = guarded();
    const first = { jsonrpc: '2.0', id: 1, result: { content: [] } };
    const last = { jsonrpc: '2.0', id: 3, result: { content: [] } };
    buffer.append(
      Buffer.from(
        line(first) + line({ jsonrpc: '2.0', id: 2, result: ['listy'] }) + line(last),
        'utf8',
      ),
    );
    expect(buffer.readMessage()).toEqual(first);
    const standIn = buffer.readMessage() as {
      id: number;
      error: { message: string; data: unknown };
    };
    expect(standIn.id).toBe(2);
    expect(standIn.error.message).toBe("the server's result is an array, not an object");
    expect(buffer.readMessage()).toEqual(last);
    expect(buffer.readMessage()).toBeNull();
  });

  it('issue 11: a non-object result split over two chunks is still the stand-in error', () => {
    const buffer = guarded();
    const text = line({ jsonrpc: '2.0', id: 7, result: 'text' });
    buffer.append(Buffer.from(text.slice(0, 10), 'utf8'));
    expect(buffer.readMessage()).toBeNull();
    buffer.append(Buffer.from(text.slice(10), 'utf8'));
    const standIn = buffer.readMessage() as { id: number; error: { message: string } };
    expect(standIn).toMatchObject({ id: 7, error: { code: -32603 } });
    expect(standIn.error.message).toBe("the server's result is a string, not an object");
  });

  it('issue 11: a line the SDK refuses for another reason still throws, and the next line reads', () => {
    const buffer = guarded();
    const next = { jsonrpc: '2.0', id: 2, result: {} };
    buffer.append(Buffer.from(`{not json\n${line(next)}`, 'utf8'));
    expect(() => buffer.readMessage()).toThrow();
    expect(buffer.readMessage()).toEqual(next);
  });

  it('issue 11: the stand-in error is recognised as a non-object result', () => {
    const buffer = guarded();
    buffer.append(Buffer.from(line({ jsonrpc: '2.0', id: 1, result: null }), 'utf8'));
    const standIn = buffer.readMessage() as { error: { data: unknown } };
    const refusal = { path: '', keyword: 'type', problem: 'null, not an object' };
    expect(refusedResult(new McpError(-32603, 'x', standIn.error.data))).toEqual(refusal);
    // A server's own error carrying the same data is not a stand-in.
    expect(refusedResult(new McpError(-32603, 'x', { ...refusal }))).toBeUndefined();
  });
});

describe('issue 38: the stdio line buffer keeps the message-size cap', () => {
  it('a line over maxLineBytes throws (whole or still arriving), what was held is dropped, and the next line reads', () => {
    const lines = new LineBuffer(8);
    expect(() => lines.append(Buffer.from('123456789\n'))).toThrow(
      'exceeded maximum size of 8 bytes (maxMessageBytes)',
    );
    lines.append(Buffer.from('12345'));
    expect(() => lines.append(Buffer.from('6789'))).toThrow('exceeded maximum size of 8 bytes');
    expect(lines.append(Buffer.from('1234567\r\nab')).map(String)).toEqual(['1234567']);
    expect(lines.append(Buffer.from('c\n')).map(String)).toEqual(['abc']);
  });
});

describe('a result whose _meta the SDK refuses (it would drop the response)', () => {
  it('a _meta that is not an object becomes the stand-in error at /_meta', () => {
    const replaced = standIn({
      jsonrpc: '2.0',
      id: 4,
      result: { content: [], _meta: 'not an object' },
    }) as { id: number; error: { code: number; message: string; data: unknown } };
    expect(replaced).toMatchObject({ id: 4, error: { code: -32603 } });
    expect(replaced.error.message).toMatch(/^the server's result is malformed at \/_meta: /);
    expect(refusedResult(new McpError(-32603, 'x', replaced.error.data))).toMatchObject({
      path: '/_meta',
      keyword: 'invalid_type',
    });
  });

  it('a _meta field of the wrong type is named by its pointer', () => {
    const replaced = standIn({
      jsonrpc: '2.0',
      id: 5,
      result: { content: [], _meta: { progressToken: { nested: true } } },
    }) as { error: { data: unknown } };
    expect(refusedResult(new McpError(-32603, 'x', replaced.error.data))?.path).toBe(
      '/_meta/progressToken',
    );
  });

  it('a result with a valid _meta, or none, is passed on as the same object', () => {
    for (const result of [{ content: [] }, { content: [], _meta: { trace: 'abc' } }]) {
      const message = { jsonrpc: '2.0', id: 6, result };
      expect(standIn(message)).toBe(message);
    }
  });
});
