/**
 * Issue 32 item 4 (unit tier; a v2 server on loopback HTTP): a tool whose `x-mcp-header`
 * annotations break SEP-2243's rules is left out of a 2026-07-28 Streamable HTTP server's set
 * with a `TOOL_HEADER_INVALID` warning naming why (conformance `http-invalid-tool-headers`);
 * valid annotations keep their tool.
 */
import { createMcpHandler, inputRequired, Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { connectServers } from '../../src/runtime/mcp/connect.js';
import { headerAnnotationFault, paramHeaders } from '../../src/runtime/mcp/tool-headers.js';
import { answerCalls } from '../../src/runtime/turn/answer.js';
import { serveFetchHandler } from '../support/modern-unlock-server.js';

const objectOf = (properties: Record<string, unknown>) => ({ type: 'object', properties });

describe('issue 32 item 4: x-mcp-header annotations', () => {
  it('a string, integer or boolean property reached through properties, named by an HTTP token, passes', () => {
    expect(
      headerAnnotationFault(
        objectOf({
          region: { type: 'string', 'x-mcp-header': 'Region' },
          nested: objectOf({ id: { type: 'integer', 'x-mcp-header': 'Tenant-Id' } }),
        }),
      ),
    ).toBeUndefined();
  });

  it.each([
    [
      'a number property',
      objectOf({ n: { type: 'number', 'x-mcp-header': 'N' } }),
      '/properties/n: x-mcp-header is only allowed on a string, integer or boolean property (type number)',
    ],
    [
      'a name with a space',
      objectOf({ a: { type: 'string', 'x-mcp-header': 'My Header' } }),
      'must be a non-empty HTTP token',
    ],
    [
      'an empty name',
      objectOf({ a: { type: 'string', 'x-mcp-header': '' } }),
      'must be a non-empty HTTP token',
    ],
    [
      'a property under items',
      { type: 'array', items: objectOf({ a: { type: 'string', 'x-mcp-header': 'A' } }) },
      '/items/properties/a: x-mcp-header is only allowed on a property reached through properties alone',
    ],
    [
      'a property under anyOf',
      { anyOf: [objectOf({ a: { type: 'string', 'x-mcp-header': 'A' } })] },
      'reached through properties alone',
    ],
    [
      'two names equal but for case',
      objectOf({
        a: { type: 'string', 'x-mcp-header': 'Key' },
        b: { type: 'string', 'x-mcp-header': 'KEY' },
      }),
      'x-mcp-header "KEY" repeats "Key"',
    ],
  ])('%s is refused, naming where and why', (_what, schema, reason) => {
    expect(headerAnnotationFault(schema)).toContain(reason);
  });

  it('a 2026-07-28 Streamable HTTP server: the tool with a bad annotation is left out with TOOL_HEADER_INVALID, the others kept', async () => {
    const tools = [
      {
        name: 'good',
        inputSchema: objectOf({ region: { type: 'string', 'x-mcp-header': 'Region' } }),
      },
      { name: 'bad', inputSchema: objectOf({ n: { type: 'number', 'x-mcp-header': 'N' } }) },
    ];
    const handler = createMcpHandler(
      () => {
        const server = new Server(
          { name: 'headers', version: '1.0.0' },
          { capabilities: { tools: {} } },
        );
        // Raw tool definitions, as a hostile or careless server lists them.
        server.setRequestHandler('tools/list', () => ({ tools }) as never);
        return server;
      },
      { legacy: 'reject', responseMode: 'json' },
    );
    const running = await serveFetchHandler(handler);
    try {
      const connections = await connectServers(
        { mcpServers: { h: { url: running.url } } },
        {
          timeoutMs: 5000,
          capabilities: {
            elicitation: { onElicitation: async () => ({ action: 'accept', content: {} }) },
          },
        },
      );
      try {
        expect(connections.status.get('h')?.era).toBe('modern');
        expect(connections.toolset.entries.map((e) => e.tool.name)).toEqual(['good']);
        expect(connections.warnings.filter((w) => w.code === 'TOOL_HEADER_INVALID')).toEqual([
          expect.objectContaining({
            serverId: 'h',
            toolName: 'bad',
            data: { reason: expect.stringContaining('/properties/n') },
          }),
        ]);
      } finally {
        await connections.close();
      }
    } finally {
      await running.close();
    }
  });

  it('paramHeaders mirrors the annotated arguments as SEP-2243 encodes them: plain ASCII as it is, the rest in Base64, null and unannotated left out', () => {
    const schema = objectOf({
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      debug: { type: 'boolean', 'x-mcp-header': 'Debug' },
      greeting: { type: 'string', 'x-mcp-header': 'Greeting' },
      padded: { type: 'string', 'x-mcp-header': 'Padded' },
      verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
      query: { type: 'string' },
    });
    expect(
      paramHeaders(schema, {
        region: 'us-west1',
        priority: 42,
        debug: false,
        greeting: 'Hello, 世界',
        padded: ' x ',
        verbose: null,
        query: 'SELECT 1',
      }),
    ).toEqual({
      'Mcp-Param-Region': 'us-west1',
      'Mcp-Param-Priority': '42',
      'Mcp-Param-Debug': 'false',
      'Mcp-Param-Greeting': `=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=`,
      'Mcp-Param-Padded': `=?base64?${Buffer.from(' x ').toString('base64')}?=`,
    });
    expect(
      paramHeaders(objectOf({ n: { type: 'number', 'x-mcp-header': 'N' } }), { n: 1 }),
    ).toEqual({});
  });

  it('a call on a 2026-07-28 Streamable HTTP server carries the Mcp-Param-* headers of its arguments, and so does its retry after an input_required round', async () => {
    const heard: (string | null)[] = [];
    const handler = createMcpHandler(
      () => {
        const server = new Server(
          { name: 'headers', version: '1.0.0' },
          { capabilities: { tools: {} } },
        );
        server.setRequestHandler(
          'tools/list',
          () =>
            ({
              tools: [
                {
                  name: 'where',
                  inputSchema: objectOf({ region: { type: 'string', 'x-mcp-header': 'Region' } }),
                },
              ],
            }) as never,
        );
        server.setRequestHandler('tools/call', (_request, ctx) =>
          ctx.mcpReq.inputResponses === undefined
            ? (inputRequired({
                inputRequests: {
                  sure: inputRequired.elicit({
                    message: 'Sure?',
                    requestedSchema: { type: 'object', properties: {} },
                  }),
                },
              }) as never)
            : { content: [{ type: 'text', text: 'ok' }] },
        );
        return server;
      },
      { legacy: 'reject', responseMode: 'json' },
    );
    const running = await serveFetchHandler({
      fetch: (request) => {
        if (request.headers.get('mcp-method') === 'tools/call')
          heard.push(request.headers.get('mcp-param-region'));
        return handler.fetch(request);
      },
      close: () => handler.close(),
    });
    try {
      const connections = await connectServers(
        { mcpServers: { h: { url: running.url } } },
        {
          timeoutMs: 5000,
          capabilities: {
            elicitation: { onElicitation: async () => ({ action: 'accept', content: {} }) },
          },
        },
      );
      try {
        const answer = await answerCalls(
          {
            role: 'model',
            parts: [{ functionCall: { id: 'w', name: 'where', args: { region: 'eu-west4' } } }],
          },
          connections.toolset,
          connections.clients,
        );
        expect(answer.parts[0]?.functionResponse.response).toEqual({ output: 'ok' });
        expect(heard).toEqual(['eu-west4', 'eu-west4']);
      } finally {
        await connections.close();
      }
    } finally {
      await running.close();
    }
  });
});
