/**
 * Issue 11 over Streamable HTTP: a tools/call result that is not an object (which the SDK's
 * parser drops without a word) is answered at once as INVALID_RESULT, in a JSON body and in an
 * SSE stream alike, and the other calls of the turn are answered as usual. The server is a
 * small hand-written Streamable HTTP endpoint, so it can send what no SDK server would.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectServers, type ServerConnections } from '../../src/runtime/mcp/connect.js';
import { executeToolCalls } from '../../src/runtime/turn/execute.js';

type Reply = 'json' | 'sse';

const TOOLS = [
  { name: 'listy', inputSchema: { type: 'object' } },
  { name: 'fine', inputSchema: { type: 'object' } },
];

async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return JSON.parse(text) as Record<string, unknown>;
}

function answer(response: ServerResponse, reply: Reply, message: object): void {
  if (reply === 'json') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(message));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  // The event arrives in two pieces, split inside its data line and its blank line.
  const event = `event: message\ndata: ${JSON.stringify(message)}\n\n`;
  response.write(event.slice(0, 20));
  setTimeout(() => response.end(event.slice(20)), 10);
}

/** A Streamable HTTP MCP server whose `listy` tool answers `[1, 2]` and `fine` an object. */
async function startServer(reply: Reply): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    void bodyOf(request).then((message) => {
      const { id, method, params } = message;
      if (id === undefined) {
        response.writeHead(202).end();
        return;
      }
      const result =
        method === 'initialize'
          ? {
              protocolVersion: (params as { protocolVersion: string }).protocolVersion,
              capabilities: { tools: {} },
              serverInfo: { name: 'listy', version: '1.0.0' },
            }
          : method === 'tools/list'
            ? { tools: TOOLS }
            : (params as { name: string }).name === 'listy'
              ? [1, 2]
              : { content: [{ type: 'text', text: 'fine' }] };
      answer(response, reply, { jsonrpc: '2.0', id, result });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/mcp` };
}

let open: { server: Server; connections: ServerConnections } | undefined;
afterEach(async () => {
  await open?.connections.close();
  open?.server.close();
  open = undefined;
});

describe('issue 11: a non-object result over Streamable HTTP', () => {
  for (const reply of ['json', 'sse'] as const) {
    it(`is INVALID_RESULT at once, not after the timeout (${reply} response)`, async () => {
      const { server, url } = await startServer(reply);
      const connections = await connectServers({ mcpServers: { web: { url } } });
      open = { server, connections };
      const call = (name: string) => {
        const entry = connections.toolset.resolve(name);
        if (entry === undefined) throw new Error(`no tool ${name}`);
        return {
          serverId: 'web',
          name,
          exposedName: name,
          callId: null,
          arguments: {},
          tool: entry.tool,
        };
      };
      const timeoutMs = 30_000;
      const started = performance.now();
      const [listy, fine] = await executeToolCalls(
        [call('listy'), call('fine')],
        connections.clients,
        { timeoutMs },
      );
      const elapsed = performance.now() - started;
      expect(listy?.result).toMatchObject({
        code: 'INVALID_RESULT',
        message: expect.stringContaining('an array'),
      });
      expect(fine?.result).toMatchObject({ content: [{ type: 'text', text: 'fine' }] });
      // A generous ceiling, far below the timeout: the answer is the server's own reply.
      expect(elapsed).toBeLessThan(5_000);
    });
  }
});
