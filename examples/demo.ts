/**
 * `npm start`: the blog's turn, end to end. Starts the example MCP server over stdio, prints
 * the Gemini tools it yields (validated), then plays one model turn: with GEMINI_API_KEY the
 * live model through @google/genai, without it a recorded GenerateContentResponse
 * (examples/recorded-turn.json, labelled as such). The calls run on the real server; the
 * functionResponse parts and the validated next request are printed. No network without a key.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ResponseInput } from '../src/adapter/shapes.js';
import { geminiTools } from '../src/adapter/tools/declarations.js';
import { assertGenerateContentRequest } from '../src/generated/guards.js';
import { connectServers } from '../src/runtime/mcp/connect.js';
import { genaiGenerate, readGenerateContentResponse } from '../src/runtime/model/generate.js';
import { type AnsweredTurn, runConversation } from '../src/runtime/turn/conversation.js';

const SERVER_SCRIPT = fileURLToPath(new URL('./bitcoin-server.ts', import.meta.url));
const RECORDED_TURN = new URL('./recorded-turn.json', import.meta.url);
const MODEL = process.env.GEMINI_MODEL ?? 'gemini-2.5-flash';
const PROMPT = 'Say hello to Ada, and tell me what one bitcoin costs in euros.';

const json = (value: unknown): string => JSON.stringify(value, null, 2);

function heading(title: string): void {
  console.log(`\n== ${title} ${'='.repeat(Math.max(0, 72 - title.length))}`);
}

/** Replays the recorded model turn: the same response whatever is asked. */
async function recordedGenerate() {
  const response = readGenerateContentResponse(JSON.parse(await readFile(RECORDED_TURN, 'utf8')));
  return async () => response;
}

/** The live model through @google/genai (loaded only when a key is set). */
async function liveGenerate(apiKey: string) {
  const { GoogleGenAI } = await import('@google/genai');
  return genaiGenerate(new GoogleGenAI({ apiKey }), { model: MODEL });
}

/** A turn as either model gives it: the recorded one in the schema's types, the live in genai's. */
type AnyTurn = AnsweredTurn<ResponseInput>;

function printCalls(response: ResponseInput): void {
  for (const part of response.candidates?.[0]?.content?.parts ?? []) {
    if (part.functionCall !== undefined) {
      const { id, name, args } = part.functionCall;
      const signed = part.thoughtSignature === undefined ? '' : '  [thought signature kept]';
      console.log(`  ${name}(${JSON.stringify(args ?? {})})  id=${id ?? '(none)'}${signed}`);
    } else if (part.text !== undefined && part.text !== '') {
      console.log(`  ${part.thought === true ? 'thought' : 'text'}: ${part.text}`);
    }
  }
}

function printTurn(turn: AnyTurn, tools: ReturnType<typeof geminiTools>, label: string): void {
  heading(`Model turn ${turn.turn} (${label})`);
  printCalls(turn.response);
  heading(`Function responses (executed on the real server over stdio)`);
  console.log(json(turn.answer.parts));
  const request = { contents: [...turn.contents], tools };
  assertGenerateContentRequest(request);
  heading(`Next request: valid GenerateContentRequest (${request.contents.length} contents)`);
  console.log(json(request.contents));
}

async function main(): Promise<void> {
  const apiKey = process.env.GEMINI_API_KEY;
  const label = apiKey
    ? `live, ${MODEL}`
    : 'recorded: examples/recorded-turn.json, not a live call';

  heading('Starting the example MCP server over stdio');
  const connections = await connectServers({
    mcpServers: {
      bitcoin: { command: process.execPath, args: ['--import', 'tsx', SERVER_SCRIPT] },
    },
  });
  try {
    const { toolset } = connections;
    const tools = geminiTools(toolset);
    console.log(`  connected: ${[...connections.clients.keys()].join(', ')}`);
    for (const warning of connections.warnings) console.log(`  warning: ${warning.message}`);

    heading('Gemini tools (each declaration validated against the Tool schema)');
    console.log(json(tools));

    heading('User');
    console.log(`  ${PROMPT}`);
    const options = {
      toolset,
      clients: connections.clients,
      contents: [{ role: 'user' as const, parts: [{ text: PROMPT }] }],
      maxTurns: apiKey ? 3 : 1,
      timeoutMs: 10_000,
      onTurn: (turn: AnyTurn) => printTurn(turn, tools, label),
    };
    const result = apiKey
      ? await runConversation({ ...options, generate: await liveGenerate(apiKey) })
      : await runConversation({ ...options, generate: await recordedGenerate() });

    heading('Outcome');
    if (result.stop.reason === 'answered') console.log(`  model: ${result.stop.text}`);
    else if (result.stop.reason === 'max-turns' && !apiKey) {
      console.log('  The recorded turn ends here. With GEMINI_API_KEY set, the request above is');
      console.log('  sent to the live model, which answers from these function responses.');
    } else console.log(`  stopped: ${json(result.stop)}`);
  } finally {
    await connections.close();
  }
}

await main();
