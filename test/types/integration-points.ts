/**
 * Every point where a @google/genai value meets gemini-mcp-kit, in each direction, written as a user
 * writes it: no cast, no `any`. Never run; test/types/genai-interop.test.ts compiles it under
 * `strict` against each @google/genai version of the peer range it names (the main type check
 * leaves it out: `gemini-mcp-kit` resolves to the built package).
 */
import {
  type CallableTool,
  type Content,
  FinishReason,
  type FunctionCall,
  type FunctionDeclaration,
  type GenerateContentParameters,
  GenerateContentResponse,
  GoogleGenAI,
  type Part,
  type Schema,
  type Tool,
  type Type,
} from '@google/genai';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  answerCalls,
  buildToolSet,
  connectServers,
  executeToolCalls,
  functionCalls,
  functionDeclarations,
  functionResponse,
  type GenerateRequest,
  gatherTurn,
  geminiTools,
  genaiGenerate,
  genaiGenerateStream,
  listAllTools,
  mcpCallableTool,
  rejectionResponse,
  runConversation,
} from 'gemini-mcp-kit';
import { serveSampling } from 'gemini-mcp-kit/features';
import * as typed from 'gemini-mcp-kit/genai';
import { readGenerateContentResponse, type schemas } from 'gemini-mcp-kit/schemas';

const ai = new GoogleGenAI({ apiKey: 'key' });
const servers = await connectServers('mcp.json');
const { toolset, clients } = servers;
const model = 'gemini-2.5-flash';
const history: Content[] = [{ role: 'user', parts: [{ text: 'What does a bitcoin cost?' }] }];

// gemini-mcp-kit -> genai: the tools of a request (json schema mode, the default).
const tools: Tool[] = geminiTools(toolset);
const declared: FunctionDeclaration[] = functionDeclarations(toolset, { schemaMode: 'json' });
const params: GenerateContentParameters = { model, contents: history, config: { tools } };

// gemini-mcp-kit/genai -> genai: the same in openapi schema mode, and converted schemas.
const openapiTools: Tool[] = typed.geminiTools(toolset, { schemaMode: 'openapi' });
const openapiDeclared: FunctionDeclaration[] = typed.functionDeclarations(toolset, {
  schemaMode: 'openapi',
});
const converted: Schema = typed.toGeminiSchema({ type: 'string' }).schema;
const parameters: Schema | undefined = typed.toGeminiParameters({ type: 'object' }).schema;

// genai -> gemini-mcp-kit: a response as the client returns it, its Content, its Parts.
const response: GenerateContentResponse = await ai.models.generateContent(params);
const turn: Content | undefined = response.candidates?.[0]?.content;
const parts: Part[] = turn?.parts ?? [];
const read = functionCalls(response, toolset);
functionCalls(turn ?? { parts }, toolset);
functionCalls(parts, toolset);
readGenerateContentResponse(response);

// gemini-mcp-kit -> genai: the answers, into the history.
const rejected: Part[] = read.rejected.map((call) => rejectionResponse(call));
const answer: Content = await answerCalls(response, toolset, clients);
history.push(answer, await answerCalls(parts, toolset, clients));
if (turn) history.push(turn, await answerCalls(turn, toolset, clients));

// MCP SDK -> gemini-mcp-kit -> genai: a callTool result, legacy variant included, as a Part.
const client = new Client({ name: 'app', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: 'mcp-server' }));
const own = buildToolSet([{ serverId: 'weather', tools: await listAllTools(client) }]);
for (const call of functionCalls(response, own.toolset).calls) {
  const result = await client.callTool({ name: call.name, arguments: call.arguments });
  const part: Part = functionResponse(call.exposedName, result, { id: call.callId });
  history.push({ role: 'user', parts: [part] });
}

// Issue 32 item 8: the MCP client is structural: either SDK's Client, v1 above and v2 here,
// goes where a client goes (listing, calls, sampling), without a cast.
const modern = new ClientV2(
  { name: 'app', version: '1.0.0' },
  { versionNegotiation: { mode: 'auto' } },
);
serveSampling(modern, 'weather', { generate: genaiGenerate(ai, { model }) });
serveSampling(new Client({ name: 'app', version: '1.0.0' }), 'weather', {
  generate: genaiGenerate(ai, { model }),
});
const modernSet = buildToolSet([{ serverId: 'weather', tools: await listAllTools(modern) }]);
const modernRead = functionCalls(response, modernSet.toolset);
await executeToolCalls(modernRead.calls, { weather: modern });
history.push(await answerCalls(response, modernSet.toolset, new Map([['weather', modern]])));
await runConversation({
  generate: genaiGenerate(ai, { model }),
  toolset: modernSet.toolset,
  clients: { weather: modern, legacy: client },
  contents: history,
});

// genai -> gemini-mcp-kit -> genai: a stream gathered into one response of genai's class.
const gathered: GenerateContentResponse = await gatherTurn(
  await ai.models.generateContentStream(params),
);
const whole: GenerateContentResponse = await gatherTurn(response);
const streamedTurn: Content | undefined = gathered.candidates?.[0]?.content;

// runConversation: genai's contents in, genai's contents out, through the ready adapters ...
const played = await runConversation({
  generate: genaiGenerate(ai, { model }),
  toolset: () => servers.toolset,
  clients,
  contents: history,
});
const next: Content[] = played.contents;
await runConversation({
  generate: genaiGenerateStream(ai, { model }),
  toolset,
  clients,
  contents: next,
});

// ... or through a generate of the user's own, handing the request to the client as it is.
const generate = async (request: GenerateRequest<Content>) =>
  ai.models.generateContent({
    model,
    contents: request.contents,
    config: { tools: request.tools },
  });
const own2 = await runConversation({ generate, toolset, clients, contents: history });
history.push(...own2.contents);

// Issue 33: a newcomer's scripted conversations, genai's Contents in and out. A generate of
// object literals (the response type is inferred from them, and its Content differs from genai's)
const script = [
  {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [{ functionCall: { id: 'c1', name: 'bitcoin_price', args: { currency: 'EUR' } } }],
        },
      },
    ],
  },
  {
    candidates: [
      {
        content: { role: 'model', parts: [{ text: 'About 90,000 EUR.' }] },
        finishReason: FinishReason.STOP,
      },
    ],
  },
];
const scripted = await runConversation({
  generate: async () => script.shift()!,
  toolset: servers,
  clients,
  contents: history,
  onTurn: ({ contents }) => contents.length,
});
const scriptedHistory: Content[] = scripted.contents;
// ... and a generate of genai's own GenerateContentResponse, the class its client returns.
const reply = (content: Content): GenerateContentResponse =>
  Object.assign(new GenerateContentResponse(), {
    candidates: [{ content, finishReason: FinishReason.STOP }],
  });
const replies = [reply({ role: 'model', parts: [{ text: 'About 90,000 EUR.' }] })];
const classed = await runConversation({
  generate: async () => replies.shift()!,
  toolset: servers,
  clients,
  contents: scriptedHistory,
});
history.push(...classed.contents);

// gemini-mcp-kit -> genai: the CallableTool for automatic function calling, both entries.
const callable: CallableTool = mcpCallableTool(servers, { timeoutMs: 30_000 });
const openapiCallable: CallableTool = typed.mcpCallableTool(servers, { schemaMode: 'openapi' });
const afc = await ai.models.generateContent({
  model,
  contents: 'What does a bitcoin cost?',
  config: { tools: [callable] },
});
const calls: FunctionCall[] = afc.functionCalls ?? [];
const answered: Part[] = await callable.callTool(calls);

// The /genai entry's signatures rest on this: genai's `Type` enum has exactly the values of
// the vendored Schema's `type`.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTypeValues: Same<`${Type}`, NonNullable<schemas.Schema['type']>> = true;

export {
  answered,
  converted,
  declared,
  openapiCallable,
  openapiDeclared,
  openapiTools,
  parameters,
  rejected,
  sameTypeValues,
  streamedTurn,
  whole,
};
