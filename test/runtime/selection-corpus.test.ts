/**
 * Issue 31, the first "Done when": a conversation over the whole corpus (bench/corpus/tools.json,
 * every server served in memory by the MCP SDK) with the real @google/genai client against a
 * local endpoint that enforces the API's limits the way the API does, refusing with the API's own
 * error texts (test/fixtures/refusals). The endpoint's limits are written here, independently of
 * schemas/limits.json. With tool selection the conversation reaches its answer, each tool the
 * scripted model calls was found through gmk__search_tools, and no request is refused; the same
 * conversation without selection (and without the budget) is refused: the negative control.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GoogleGenAI } from '@google/genai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpus } from '../../bench/corpus/format.js';
import { toolSelection } from '../../src/adapter/selection/selection.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import type { ToolSet } from '../../src/adapter/tools/toolset-types.js';
import { listAllTools } from '../../src/runtime/mcp/list-tools.js';
import { genaiGenerate } from '../../src/runtime/model/generate.js';
import { runConversation } from '../../src/runtime/turn/conversation.js';

/** The endpoint's limits, as the Gemini API enforces them (not read from schemas/limits.json). */
const ENDPOINT = {
  /** Per Tool entry (google-gemini/gemini-cli #19083). */
  maxDeclarationsPerTool: 512,
  /** The API's function name rule, as its error text states it (gemini-cli #7878). */
  functionName: /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/,
  /** Declarations JSON over this is refused as "too many states" (bethington/ghidra-mcp #440: refused at 49.3 KB). */
  maxDeclarationBytes: 49_300,
} as const;

/** The API's own texts (test/fixtures/refusals/api-errors.json). */
const refusal = {
  tooMany: (tool: number) =>
    `The GenerateContentRequest proto is invalid:\n  * tools[${tool}].function_declarations: [FIELD_INVALID] At most 512 function declarations can be specified.`,
  badName: (tool: number, index: number) =>
    `The GenerateContentRequest proto is invalid:\n  * tools[${tool}].function_declarations[${index}].name: [FIELD_INVALID] Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots and dashes, with a maximum length of 64.`,
  tooManyStates:
    'The specified schema produces a constraint that has too many states for serving. Typical causes of this error are schemas with lots of text (for example, very long property or enum names), schemas with long array length limits (especially when nested), or schemas using complex value matchers (for example, integers or numbers with minimum/maximum bounds or strings with complex formats like date-time)',
  responseCount:
    'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
};

interface Part {
  text?: string;
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
}
interface Body {
  contents: { role: string; parts: Part[] }[];
  tools?: { functionDeclarations?: { name: string }[] }[];
  toolConfig?: unknown;
}

/** What the endpoint refuses in a request, in the API's words, or undefined. */
function refused(body: Body): string | undefined {
  const tools = body.tools ?? [];
  for (const [t, tool] of tools.entries()) {
    const declarations = tool.functionDeclarations ?? [];
    if (declarations.length > ENDPOINT.maxDeclarationsPerTool) return refusal.tooMany(t);
    const bad = declarations.findIndex((d) => !ENDPOINT.functionName.test(d.name));
    if (bad !== -1) return refusal.badName(t, bad);
    if (Buffer.byteLength(JSON.stringify(declarations)) > ENDPOINT.maxDeclarationBytes)
      return refusal.tooManyStates;
  }
  for (const [i, content] of body.contents.entries()) {
    const calls = content.parts.filter((part) => part.functionCall !== undefined).length;
    if (content.role !== 'model' || calls === 0) continue;
    const next = body.contents[i + 1];
    const answers = next?.parts.filter((part) => part.functionResponse !== undefined).length;
    if (next !== undefined && answers !== calls) return refusal.responseCount;
  }
  return undefined;
}

/** A model turn the script plays for a request. */
type Play = (body: Body) => Part[];

interface Endpoint {
  baseUrl: string;
  bodies: Body[];
  refusals: string[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
}

/** The endpoint: refuses what the API refuses (HTTP 400, its text), else plays the script. */
async function startEndpoint(play: Play): Promise<Endpoint> {
  const bodies: Body[] = [];
  const refusals: string[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      bodies.push(body);
      const why = refused(body);
      if (why !== undefined) {
        refusals.push(why);
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ error: { code: 400, message: why, status: 'INVALID_ARGUMENT' } }),
        );
        return;
      }
      const parts = play(body);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        }),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    bodies,
    refusals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A server id for a package name, as the bench names them. */
const serverIdOf = (name: string): string =>
  name.replace(/^@/, '').replace(/[^A-Za-z0-9_-]+/g, '-');

let toolset: ToolSet;
const clients = new Map<string, Client>();

beforeAll(async () => {
  const corpus = readCorpus();
  const listed = [];
  for (const entry of corpus.servers) {
    const server = new Server(
      { name: entry.name, version: entry.version },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: entry.tools as never[] }));
    server.setRequestHandler(CallToolRequestSchema, (request) => ({
      content: [
        {
          type: 'text',
          text: `${entry.name} ${request.params.name} ran with ${JSON.stringify(request.params.arguments ?? {})}`,
        },
      ],
    }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'selection-corpus-test', version: '0.0.0' });
    await client.connect(clientSide);
    const serverId = serverIdOf(entry.name);
    clients.set(serverId, client);
    listed.push({ serverId, tools: await listAllTools(client) });
  }
  ({ toolset } = buildToolSet(listed));
}, 60_000);
afterAll(async () => {
  for (const client of clients.values()) await client.close();
});

/** What the user asks, and the tool the scripted model wants for each need (server id, tool). */
const NEEDS = [
  {
    query: 'create a pull request on github',
    serverId: 'modelcontextprotocol-server-github',
    tool: 'create_pull_request',
  },
  {
    query: 'geocode a street address to coordinates',
    serverId: 'modelcontextprotocol-server-google-maps',
    tool: 'maps_geocode',
  },
] as const;

/**
 * The scripted model: searches for each need in turn, then calls the tool it wants, if a search
 * returned it and the request declares it (a model calls only what it is offered), and answers
 * once every need was met.
 */
function script(called: string[]): Play {
  return (body) => {
    const declared = new Set(
      (body.tools ?? []).flatMap((tool) => (tool.functionDeclarations ?? []).map((d) => d.name)),
    );
    const last = body.contents.at(-1)!;
    const response = last.parts.find(
      (part) => part.functionResponse !== undefined,
    )?.functionResponse;
    const need = NEEDS[called.length];
    if (need === undefined) return [{ text: `Done: ${called.join(', ')}.` }];
    if (response?.name === 'gmk__search_tools') {
      const found = (
        response.response.output as { tools?: { name: string }[] } | undefined
      )?.tools?.map((tool) => tool.name);
      const name = toolset.exposedName(need.serverId, need.tool)!;
      if (found?.includes(name) && declared.has(name)) {
        called.push(name);
        return [{ functionCall: { id: `call-${called.length}`, name, args: {} } }];
      }
      return [{ text: `I could not find a tool for: ${need.query}` }];
    }
    return [
      {
        functionCall: {
          id: `search-${called.length + 1}`,
          name: 'gmk__search_tools',
          args: { query: need.query },
        },
      },
    ];
  };
}

describe('issue 31 Done when: a conversation over the whole corpus, limits enforced by the endpoint', () => {
  it('issue 31: the corpus is past every limit of the endpoint', () => {
    expect(toolset.entries.length).toBeGreaterThan(2000);
    expect(clients.size).toBeGreaterThan(30);
    expect(toolset.entries.length).toBeGreaterThan(ENDPOINT.maxDeclarationsPerTool);
  });

  it('issue 31: with selection, the conversation answers, the tools it calls were found by gmk__search_tools, and no request is refused', async () => {
    const called: string[] = [];
    const endpoint = await startEndpoint(script(called));
    try {
      const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: endpoint.baseUrl } });
      const result = await runConversation({
        generate: genaiGenerate(ai, { model: 'gemini-2.5-flash' }),
        toolset,
        clients,
        contents: [{ role: 'user', parts: [{ text: 'Open a PR, then geocode our office.' }] }],
        selection: toolSelection(),
      });
      expect(endpoint.refusals).toEqual([]);
      expect(result.stop).toEqual({
        reason: 'answered',
        text: `Done: ${NEEDS.map((need) => toolset.exposedName(need.serverId, need.tool)).join(', ')}.`,
        finishReason: 'STOP',
      });
      const declaredPer = endpoint.bodies.map((body) =>
        (body.tools?.[0]?.functionDeclarations ?? []).map((d) => d.name),
      );
      // the first request declares the search alone; each later one appends what was loaded
      expect(declaredPer[0]).toEqual(['gmk__search_tools']);
      for (let i = 1; i < declaredPer.length; i++) {
        expect(declaredPer[i]!.slice(0, declaredPer[i - 1]!.length)).toEqual(declaredPer[i - 1]);
      }
      expect(endpoint.bodies.every((body) => (body.tools ?? []).length === 1)).toBe(true);
      expect(endpoint.bodies.every((body) => body.toolConfig === undefined)).toBe(true);
      // each tool ran on its own server; the search never reached one
      const answers = result.contents.flatMap((content) =>
        (content.parts ?? []).flatMap((part) =>
          'functionResponse' in part && part.functionResponse !== undefined
            ? [part.functionResponse]
            : [],
        ),
      );
      expect(answers.map((answer) => [answer.id, answer.name])).toEqual([
        ['search-1', 'gmk__search_tools'],
        ['call-1', called[0]],
        ['search-2', 'gmk__search_tools'],
        ['call-2', called[1]],
      ]);
      expect(JSON.stringify(answers[1]?.response)).toContain(
        '@modelcontextprotocol/server-github create_pull_request ran',
      );
    } finally {
      await endpoint.close();
    }
  }, 30_000);

  it('issue 31 (negative control): the same conversation without selection or the budget is refused with the API text', async () => {
    const called: string[] = [];
    const endpoint = await startEndpoint(script(called));
    try {
      const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: endpoint.baseUrl } });
      await expect(
        runConversation({
          generate: genaiGenerate(ai, { model: 'gemini-2.5-flash' }),
          toolset,
          clients,
          contents: [{ role: 'user', parts: [{ text: 'Open a PR, then geocode our office.' }] }],
          declarations: { budget: false },
          retryRefused: false,
        }),
      ).rejects.toThrow('At most 512 function declarations can be specified.');
      expect(endpoint.refusals).toEqual([refusal.tooMany(0)]);
      expect(called).toEqual([]);
    } finally {
      await endpoint.close();
    }
  }, 30_000);

  it('issue 31 (negative control): without selection but within the budget, the tools the model wants are not declared', async () => {
    const endpoint = await startEndpoint(() => [{ text: 'no tools' }]);
    try {
      const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: endpoint.baseUrl } });
      await runConversation({
        generate: genaiGenerate(ai, { model: 'gemini-2.5-flash' }),
        toolset,
        clients,
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      });
      expect(endpoint.refusals).toEqual([]);
      const declared = new Set(
        endpoint.bodies[0]!.tools![0]!.functionDeclarations!.map((d) => d.name),
      );
      const wanted = NEEDS.map((need) => toolset.exposedName(need.serverId, need.tool)!);
      expect(wanted.filter((name) => declared.has(name)).length).toBeLessThan(wanted.length);
    } finally {
      await endpoint.close();
    }
  }, 30_000);
});
