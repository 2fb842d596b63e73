// One figure's workload alone, looped, for `node --cpu-prof`:
//   node bench/child/workload.mjs DIST <P1|P2|P2set|P3|P5> CORPUS.json SECONDS
// DIST is the built package's dist directory (see bench/lib/build-cli.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, which, corpusPath, secondsText] = process.argv.slice(2);
if (dist === undefined || which === undefined || corpusPath === undefined) {
  throw new Error('usage: workload.mjs DIST <P1|P2|P2set|P3|P5> CORPUS.json [SECONDS]');
}
// The package's public entry, as a user imports it.
const { functionDeclarations, buildToolSet, toGeminiSchema, toGeminiParameters, executeToolCalls } =
  await import(pathToFileURL(join(dist, 'index.js')).href);

const servers = JSON.parse(await readFile(corpusPath, 'utf8'));
const until = performance.now() + Number(secondsText ?? 3) * 1000;
let iterations = 0;

/** Whether `run` returns without throwing (the converter refuses some real schemas). */
const converts = (run) => {
  try {
    run();
    return true;
  } catch {
    return false;
  }
};

if (which === 'P1') {
  // The openapi call throws for the whole set if one tool is refused: leave those out.
  const convertible = servers.map((server) => ({
    serverId: server.serverId,
    tools: server.tools.filter((tool) => converts(() => toGeminiParameters(tool.inputSchema))),
  }));
  const { toolset } = buildToolSet(convertible);
  while (performance.now() < until) {
    functionDeclarations(toolset, { schemaMode: 'openapi' });
    iterations++;
  }
} else if (which === 'P2') {
  const { toolset } = buildToolSet(servers);
  while (performance.now() < until) {
    functionDeclarations(toolset);
    iterations++;
  }
} else if (which === 'P2set') {
  while (performance.now() < until) {
    buildToolSet(servers);
    iterations++;
  }
} else if (which === 'P3') {
  const schemas = servers.flatMap((server) => server.tools.map((tool) => tool.inputSchema));
  while (performance.now() < until) {
    for (const schema of schemas) converts(() => toGeminiSchema(schema));
    iterations++;
  }
} else if (which === 'P5') {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import(
    '@modelcontextprotocol/sdk/types.js'
  );
  const server = new Server({ name: 'bench', version: '0.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'echo', inputSchema: { type: 'object' } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: String(request.params.arguments?.text) }],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench-client', version: '0.0.0' });
  await client.connect(clientSide);
  const clients = new Map([['bench', client]]);
  const call = {
    serverId: 'bench',
    name: 'echo',
    exposedName: 'echo',
    callId: null,
    arguments: { text: 'hello' },
    tool: { name: 'echo', inputSchema: { type: 'object' } },
  };
  while (performance.now() < until) {
    await executeToolCalls([call], clients);
    iterations++;
  }
  await client.close();
  await server.close();
} else {
  throw new Error(`unknown workload ${which}`);
}
process.stdout.write(`${iterations}\n`);
