/**
 * Issue 32 item 1 (unit tier; a v2 server on loopback HTTP): on 2026-07-28 a result that names
 * no `resultType` is read as a complete one, as the revision says a client assumes (the v2 SDK
 * alone refuses it: conformance `sep-2322-client-request-state`'s `test_mrtr_no_result_type`).
 */
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { connectServers } from '../../src/runtime/mcp/connect.js';
import { answerCalls } from '../../src/runtime/turn/answer.js';
import { serveFetchHandler } from '../support/modern-unlock-server.js';

/** `response`'s JSON-RPC result without its `resultType`. */
async function withoutResultType(response: Response): Promise<Response> {
  const message = (await response.json()) as { result?: Record<string, unknown> };
  if (message.result !== undefined) delete message.result.resultType;
  return new Response(JSON.stringify(message), {
    status: response.status,
    headers: response.headers,
  });
}

describe('issue 32 item 1: a 2026-07-28 result without resultType', () => {
  it('is complete: the call is answered with its content (it was INVALID_RESULT)', async () => {
    const handler = createMcpHandler(
      () => {
        const server = new McpServer({ name: 'bare', version: '1.0.0' });
        server.registerTool(
          'echo',
          { inputSchema: z.object({ text: z.string() }) },
          async ({ text }) => ({
            content: [{ type: 'text', text }],
          }),
        );
        return server;
      },
      { legacy: 'reject', responseMode: 'json' },
    );
    const running = await serveFetchHandler({
      fetch: async (request) => {
        const answer = await handler.fetch(request);
        return answer.headers.get('content-type')?.includes('json')
          ? withoutResultType(answer)
          : answer;
      },
      close: () => handler.close(),
    });
    try {
      const servers = await connectServers(
        { mcpServers: { m: { url: running.url } } },
        { timeoutMs: 5000 },
      );
      try {
        expect(servers.status.get('m')?.era).toBe('modern');
        const answer = await answerCalls(
          {
            role: 'model',
            parts: [{ functionCall: { id: 'e', name: 'echo', args: { text: 'hi' } } }],
          },
          servers.toolset,
          servers.clients,
        );
        expect(answer.parts[0]?.functionResponse.response).toEqual({ output: 'hi' });
      } finally {
        await servers.close();
      }
    } finally {
      await running.close();
    }
  });
});
