// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the configurations under test write ${...} variables literally
/**
 * Issue 37, item 1: which servers run on Gemini (`Tool.mcpServers`) and which stay on the
 * client, why, and how the calls Gemini ran are told apart from ours. In process: no server is
 * started (the refusals come before any connection) and no URL is contacted.
 */
import { describe, expect, it } from 'vitest';
import { geminiTools } from '../../src/adapter/tools/declarations.js';
import { unreachableFromGoogle } from '../../src/adapter/tools/server-side.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import { functionCalls } from '../../src/adapter/turn/calls.js';
import { checkRequest } from '../../src/adapter/turn/request-checks.js';
import { GeminiMcpError } from '../../src/errors.js';
import { checkTool } from '../../src/generated/guards.js';
import { parseServersConfig } from '../../src/runtime/mcp/config/index.js';
import { connectServers } from '../../src/runtime/mcp/connect.js';
import { placeServers } from '../../src/runtime/mcp/server-side.js';
import { runConversation } from '../../src/runtime/turn/conversation.js';

const ENV = { API_TOKEN: 'sk-0123456789abcdef' };
const WEATHER = { type: 'http', url: 'https://weather.example.com/mcp' };
const place = (servers: Record<string, object>, runOn?: 'client' | 'gemini', capable = []) =>
  placeServers(parseServersConfig({ mcpServers: servers }, { env: ENV }), {
    runOn,
    capable: new Set(capable),
    env: ENV,
  });

function refusal(run: () => unknown): GeminiMcpError {
  try {
    run();
  } catch (error) {
    if (error instanceof GeminiMcpError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('issue 37: eligibility of a server for Gemini', () => {
  it.each([
    ['https://localhost/mcp', 'local-only name'],
    ['https://127.0.0.1/mcp', 'loopback'],
    ['https://[::1]/mcp', 'loopback'],
    ['https://10.1.2.3/mcp', 'private'],
    ['https://192.168.0.10/mcp', 'private'],
    ['https://172.20.0.1/mcp', 'private'],
    ['https://169.254.169.254/latest', 'link-local'],
    ['https://[fe80::1]/mcp', 'link-local'],
    ['https://[fd00::1]/mcp', 'private'],
    ['https://[::ffff:10.0.0.1]/mcp', 'private'],
    ['https://metadata.google.internal/mcp', 'local-only name'],
    ['https://printer.local/mcp', 'local-only name'],
    ['https://intranet/mcp', 'without a domain'],
    ['http://weather.example.com/mcp', 'https: only'],
  ])('issue 37: %s is not a URL Google can reach (%s)', (url, why) => {
    expect(unreachableFromGoogle(url)).toContain(why);
  });

  it('issue 37: a public https: URL, by name or address, is', () => {
    expect(unreachableFromGoogle('https://weather.example.com/mcp')).toBeUndefined();
    expect(unreachableFromGoogle('https://8.8.8.8/mcp')).toBeUndefined();
    expect(unreachableFromGoogle('https://[2001:4860::8888]/mcp')).toBeUndefined();
  });

  it.each([
    ['stdio', { command: 'node', args: ['server.js'] }],
    ['sse', { type: 'sse', url: 'https://weather.example.com/sse' }],
    ['oauth', { ...WEATHER, oauth: { enabled: true } }],
    ['host', { type: 'http', url: 'https://192.168.1.5/mcp' }],
  ])(
    'issue 37: an entry asking for Gemini that cannot go is refused naming why (%s)',
    (reason, entry) => {
      const error = refusal(() => place({ svc: { ...entry, runOn: 'gemini' } }));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.path).toBe('/mcpServers/svc/runOn');
      expect(error.data.reasons).toEqual([reason]);
      expect(error.message).toContain(`server "svc" cannot run on Gemini (${reason}: `);
    },
  );

  it('issue 37: a client capability keeps a server on the client; asked per entry, it is refused', () => {
    const error = refusal(() =>
      place({ svc: { ...WEATHER, runOn: 'gemini' } }, undefined, ['svc'] as never),
    );
    expect(error.data.reasons).toEqual(['capability']);
    const { placements } = place({ svc: WEATHER }, 'gemini', ['svc'] as never);
    expect(placements[0]?.runOn).toBe('client');
  });

  it('issue 37: runOn for the whole set moves what can go, and says why the others stay', () => {
    const { placements, mcpServers, client } = place(
      {
        local: { command: 'node' },
        weather: WEATHER,
        filtered: { ...WEATHER, includeTools: ['get_forecast'] },
        lan: { type: 'http', url: 'https://10.0.0.2/mcp' },
      },
      'gemini',
    );
    expect(placements.map((p) => [p.serverId, p.runOn, p.obstacles.map((o) => o.reason)])).toEqual([
      ['local', 'client', ['stdio']],
      ['weather', 'gemini', []],
      ['filtered', 'client', ['filters']],
      ['lan', 'client', ['host']],
    ]);
    expect(mcpServers).toEqual([
      { name: 'weather', streamableHttpTransport: { url: 'https://weather.example.com/mcp' } },
    ]);
    expect(client.map((entry) => entry.serverId)).toEqual(['local', 'filtered', 'lan']);
  });

  it('issue 37: a server needing what only the client gives moves when its entry asks, with a warning', () => {
    const { placements, warnings } = place({
      filtered: { ...WEATHER, excludeTools: ['delete_all'], runOn: 'gemini' },
    });
    expect(placements[0]?.runOn).toBe('gemini');
    expect(warnings).toEqual([
      {
        code: 'SERVER_ON_GEMINI',
        path: '/mcpServers/filtered',
        message: expect.stringContaining('on Gemini every tool of the server is offered'),
      },
    ]);
  });

  it("issue 37: a header holding an environment variable's value is warned about, never quoted", () => {
    const { warnings, mcpServers } = place({
      weather: {
        ...WEATHER,
        runOn: 'gemini',
        headers: { Authorization: 'Bearer ${env:API_TOKEN}' },
      },
    });
    expect(mcpServers[0]?.streamableHttpTransport?.headers).toEqual({
      Authorization: 'Bearer sk-0123456789abcdef',
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.path).toBe('/mcpServers/weather/headers/Authorization');
    expect(warnings[0]?.message).toContain('API_TOKEN');
    expect(warnings[0]?.message).not.toContain('sk-0123');
  });

  it('issue 37: runOn in a configuration is "client" or "gemini"', () => {
    const error = refusal(() =>
      parseServersConfig({ mcpServers: { w: { ...WEATHER, runOn: 'google' } } }),
    );
    expect(error.path).toBe('/mcpServers/w/runOn');
    expect(
      parseServersConfig({ mcpServers: { w: { ...WEATHER, runOn: 'gemini' } } })[0]?.runOn,
    ).toBe('gemini');
  });

  it('issue 37: connectServers refuses a stdio server asked to run on Gemini before starting anything', async () => {
    await expect(
      connectServers({ mcpServers: { local: { command: 'node', runOn: 'gemini' } } }),
    ).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      data: { serverId: 'local', reasons: ['stdio'] },
    });
  });
});

const MCP_SERVERS = [
  { name: 'weather', streamableHttpTransport: { url: 'https://weather.example.com/mcp' } },
];
const { toolset } = buildToolSet([
  {
    serverId: 'bitcoin',
    tools: [{ name: 'bitcoin_price', inputSchema: { type: 'object' } }],
  },
]);

describe('issue 37: the request and the calls Gemini ran', () => {
  it('issue 37: geminiTools adds the servers on Gemini as one more Tool, proven', () => {
    const tools = geminiTools(toolset, { mcpServers: MCP_SERVERS });
    expect(tools).toHaveLength(2);
    expect(tools[1]).toEqual({ mcpServers: MCP_SERVERS });
    for (const tool of tools) expect(checkTool(tool)).toEqual([]);
    expect(geminiTools(toolset, { mcpServers: [] })).toHaveLength(1);
  });

  it('issue 37: a Vertex AI dialect refuses the servers on Gemini (dialect), in geminiTools and runConversation', async () => {
    const error = refusal(() =>
      geminiTools(toolset, { mcpServers: MCP_SERVERS, budget: { dialect: 'vertex-v1beta1' } }),
    );
    expect(error.data).toEqual({ serverId: 'weather', reasons: ['dialect'] });
    await expect(
      runConversation({
        generate: async () => ({ candidates: [] }),
        toolset,
        clients: new Map(),
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        mcpServers: MCP_SERVERS,
        dialect: 'vertex',
      }),
    ).rejects.toMatchObject({ code: 'CONFIG_INVALID', data: { reasons: ['dialect'] } });
  });

  it('issue 37: two servers of one name, or a name no function name can start with, are refused (name)', () => {
    expect(
      refusal(() => geminiTools(toolset, { mcpServers: [...MCP_SERVERS, ...MCP_SERVERS] })).data
        .reasons,
    ).toEqual(['name']);
    expect(
      refusal(() => geminiTools(toolset, { mcpServers: [{ name: 'my server' }] })).data.reasons,
    ).toEqual(['name']);
  });

  it('issue 37: a call answered in its own Content ran on Gemini: reported, neither run nor rejected', () => {
    const read = functionCalls(
      [
        { functionCall: { id: 's1', name: 'weather_get_forecast', args: { city: 'Paris' } } },
        { functionCall: { name: 'weather_alerts' } },
        {
          functionResponse: {
            id: 's1',
            name: 'weather_get_forecast',
            response: { output: 'Sunny' },
          },
        },
        { functionResponse: { name: 'weather_alerts', response: { output: [] } } },
        { functionCall: { id: 'c1', name: 'bitcoin_price', args: {} } },
        { functionCall: { id: 'c2', name: 'weather_radar', args: {} } },
      ],
      toolset,
      { mcpServers: MCP_SERVERS },
    );
    expect(read.ranByGemini).toEqual([
      {
        name: 'weather_get_forecast',
        callId: 's1',
        serverId: 'weather',
        toolName: 'get_forecast',
        response: { output: 'Sunny' },
      },
      {
        name: 'weather_alerts',
        callId: null,
        serverId: 'weather',
        toolName: 'alerts',
        response: { output: [] },
      },
    ]);
    // Ours runs; a call of a server on Gemini without its response is not Gemini's answer: it is
    // an unknown function here, answered as such.
    expect(read.calls.map((call) => call.exposedName)).toEqual(['bitcoin_price']);
    expect(read.rejected.map((rejected) => [rejected.name, rejected.reason])).toEqual([
      ['weather_radar', 'UNKNOWN_FUNCTION'],
    ]);
    expect(read.items).toHaveLength(2);
  });

  it('issue 37: a response answers a call before it only: one that comes first answers nothing', () => {
    const read = functionCalls(
      [
        { functionResponse: { name: 'bitcoin_price', response: {} } },
        { functionCall: { name: 'bitcoin_price', args: {} } },
      ],
      toolset,
    );
    expect(read.ranByGemini).toEqual([]);
    expect(read.calls).toHaveLength(1);
  });
});

describe('issue 37: checkRequest and the servers on Gemini', () => {
  const USER = { role: 'user', parts: [{ text: 'Weather in Paris, and a bitcoin?' }] };
  const MODEL_TURN = {
    role: 'model',
    parts: [
      {
        functionCall: { id: 's1', name: 'weather_get_forecast', args: {} },
        thoughtSignature: 'U0k=',
      },
      {
        functionResponse: { id: 's1', name: 'weather_get_forecast', response: { output: 'Sunny' } },
      },
      { functionCall: { id: 'c1', name: 'bitcoin_price', args: {} } },
    ],
  };
  const ANSWER = {
    role: 'user',
    parts: [{ functionResponse: { id: 'c1', name: 'bitcoin_price', response: { output: 1 } } }],
  };
  const request = (mcpServers: unknown[], contents: unknown[] = [USER]) => ({
    contents,
    tools: [...geminiTools(toolset), { mcpServers }],
  });

  it('issue 37: a turn holding a call Gemini ran and ours, answered for ours only, is sound', () => {
    expect(
      checkRequest(request(MCP_SERVERS, [USER, MODEL_TURN, ANSWER]), {
        model: 'gemini-3-pro-preview',
      }),
    ).toEqual([]);
  });

  it('issue 37: answering the call Gemini ran once more is a count mismatch', () => {
    const twice = {
      role: 'user',
      parts: [
        { functionResponse: { id: 's1', name: 'weather_get_forecast', response: {} } },
        ...ANSWER.parts,
      ],
    };
    const keywords = checkRequest(request(MCP_SERVERS, [USER, MODEL_TURN, twice])).map(
      (f) => f.keyword,
    );
    expect(keywords).toContain('request/response-count');
  });

  it('issue 37: the McpServer shape: name, reachable URL, durations, dialect', () => {
    const findings = checkRequest(
      request([
        { name: 'my server', streamableHttpTransport: { url: 'https://a.example.com/mcp' } },
        {
          name: 'local',
          streamableHttpTransport: { url: 'http://127.0.0.1:8080/mcp', timeout: '30' },
        },
        { name: 'nourl' },
        {
          name: 'bitcoin',
          streamableHttpTransport: { url: 'https://b.example.com/mcp', sseReadTimeout: '1.5s' },
        },
      ]),
    );
    expect(findings.map((f) => [f.severity, f.keyword, f.path])).toEqual([
      ['error', 'request/mcp-server-name', '/tools/1/mcpServers/0/name'],
      ['error', 'request/mcp-server-url', '/tools/1/mcpServers/1/streamableHttpTransport/url'],
      [
        'error',
        'request/mcp-server-duration',
        '/tools/1/mcpServers/1/streamableHttpTransport/timeout',
      ],
      ['error', 'request/mcp-server-url', '/tools/1/mcpServers/2'],
      ['warning', 'request/mcp-server-name-clash', '/tools/0/functionDeclarations/0/name'],
    ]);
    const vertex = checkRequest(request(MCP_SERVERS), { budget: { dialect: 'vertex-v1' } });
    expect(vertex.map((f) => f.keyword)).toEqual(['request/mcp-server-dialect']);
  });
});
