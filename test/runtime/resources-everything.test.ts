/**
 * Issue 35 item 1, done-when: against @modelcontextprotocol/server-everything over stdio (its
 * resources as it publishes them: the seven files of its docs/ folder as static resources, and
 * two templates, text and blob, over {resourceId}), every resource listed; a text and a binary
 * resource read into Parts that the real @google/genai client carries to the scripted endpoint;
 * a template completed and read; a subscription update heard; and a tool result's resource_link
 * opened by the model through gmk__read_resource in a runConversation turn.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Content as GenAiContent, GoogleGenAI } from '@google/genai';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expandUriTemplate } from '../../src/adapter/resources/uri-template.js';
import { checkGenerateContentRequest } from '../../src/generated/guards.js';
import type { Content, Part } from '../../src/generated/types.js';
import type { ServerConnections } from '../../src/runtime/mcp/connect.js';
import { completeResourceArgument, resourceParts } from '../../src/runtime/mcp/resources/read.js';
import { genaiGenerate } from '../../src/runtime/model/generate.js';
import { runConversation } from '../../src/runtime/turn/conversation.js';
import { type FakeGemini, type ScriptedReply, startFakeGemini } from '../support/fake-gemini.js';
import { connectReapedAfterEach, EVERYTHING_SERVER } from '../support/runtime-servers.js';

const MODEL = 'gemini-2.5-flash';
const require = createRequire(import.meta.url);
const DOCS = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'docs',
);
const TEXT_TEMPLATE = 'demo://resource/dynamic/text/{resourceId}';
const BLOB_TEMPLATE = 'demo://resource/dynamic/blob/{resourceId}';

const connect = connectReapedAfterEach();
let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const reply = (parts: Part[]): ScriptedReply => ({
  response: {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    modelVersion: MODEL,
  },
});

let docs: string[];
beforeAll(() => {
  docs = readdirSync(DOCS).sort();
});

async function everything(): Promise<ServerConnections> {
  return connect({ mcpServers: { everything: EVERYTHING_SERVER } });
}

describe('issue 35: server-everything resources over stdio', () => {
  it('lists every resource and template it publishes: 7 static documents, 2 templates', async () => {
    const connections = await everything();
    expect(docs).toHaveLength(7);
    const { resources, templates, warnings } = connections.resources;
    expect(resources).toHaveLength(7);
    expect(templates).toHaveLength(2);
    expect(resources.map((r) => r.resource.uri).sort()).toEqual(
      docs.map((name) => `demo://resource/static/document/${encodeURIComponent(name)}`).sort(),
    );
    expect(resources.every((r) => r.serverId === 'everything')).toBe(true);
    expect(templates.map((t) => t.template.uriTemplate)).toEqual([TEXT_TEMPLATE, BLOB_TEMPLATE]);
    expect(warnings).toEqual([]);
  });

  it('a text and a binary resource read into Parts that the real genai client carries to the endpoint', async () => {
    const connections = await everything();
    const changed = new Promise((resolve) => connections.resources.onChange(resolve));
    // gzip-file-as-resource registers a session resource (application/gzip) and says its list changed.
    const gzipped = await connections.clients.get('everything')!.callTool({
      name: 'gzip-file-as-resource',
      arguments: {
        name: 'hello.txt.gz',
        data: `data:text/plain;base64,${Buffer.from('hello').toString('base64')}`,
      },
    });
    expect(gzipped.isError).not.toBe(true);
    await changed;
    expect(connections.resources.resources).toHaveLength(8);
    const text = await resourceParts(
      connections,
      'demo://resource/static/document/architecture.md',
    );
    const binary = await resourceParts(connections, 'demo://resource/session/hello.txt.gz');
    expect(text.parts).toHaveLength(1);
    expect(text.parts[0]?.text).toMatch(
      /^\[resource "demo:\/\/resource\/static\/document\/architecture\.md" from server "everything", text\/markdown\]\n/,
    );
    expect(binary.parts).toEqual([
      {
        text: expect.stringMatching(
          /^\[resource "demo:\/\/resource\/session\/hello\.txt\.gz" from server "everything", application\/gzip, \d+ bytes, binary: not shown\]$/,
        ),
      },
    ]);
    fake = await startFakeGemini([reply([{ text: 'Read.' }])]);
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: fake.baseUrl } });
    const contents: GenAiContent[] = [
      { role: 'user', parts: [{ text: 'Summarize these:' }, ...text.parts, ...binary.parts] },
    ];
    const response = await ai.models.generateContent({ model: MODEL, contents });
    expect(response.text).toBe('Read.');
    const body = fake.requests[0]?.body as { contents: Content[] };
    expect(checkGenerateContentRequest(body)).toEqual([]);
    expect(body.contents[0]?.parts).toEqual([
      { text: 'Summarize these:' },
      ...text.parts,
      ...binary.parts,
    ]);
  });

  it('a template argument completed, the template expanded and read (text, and the blob of text/plain decoded)', async () => {
    const connections = await everything();
    const completion = await completeResourceArgument(connections, {
      uriTemplate: TEXT_TEMPLATE,
      argument: { name: 'resourceId', value: '3' },
    });
    expect(completion).toMatchObject({ serverId: 'everything', values: ['3'] });
    const uri = expandUriTemplate(TEXT_TEMPLATE, { resourceId: completion.values[0] });
    expect(uri).toBe('demo://resource/dynamic/text/3');
    const read = await resourceParts(connections, uri);
    expect(read.parts[0]?.text).toMatch(
      /^\[resource "demo:\/\/resource\/dynamic\/text\/3" from server "everything", text\/plain\]\nResource 3: This is a plaintext resource/,
    );
    const blob = await resourceParts(
      connections,
      expandUriTemplate(BLOB_TEMPLATE, { resourceId: '5' }),
    );
    expect(blob.parts[0]?.text).toMatch(/\nResource 5: This is a base64 blob created at /);
  });

  it('a subscription hears notifications/resources/updated for its URI, and its unsubscribe is answered', async () => {
    const connections = await everything();
    const uri = 'demo://resource/static/document/features.md';
    const heard: unknown[] = [];
    let first: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => {
      first = resolve;
    });
    const unsubscribe = await connections.resources.subscribe(uri, (update) => {
      heard.push(update);
      first();
    });
    // The server sends the updates of its subscriptions once this tool turns them on.
    await connections.clients
      .get('everything')!
      .callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    await arrived;
    expect(heard[0]).toEqual({ serverId: 'everything', uri });
    await unsubscribe();
  });

  it("a tool result's resource_link is opened by the model through gmk__read_resource in a runConversation turn", async () => {
    const connections = await everything();
    fake = await startFakeGemini([
      reply([{ functionCall: { id: 'c1', name: 'get-resource-links', args: { count: 2 } } }]),
      reply([
        {
          functionCall: {
            id: 'c2',
            name: 'gmk__read_resource',
            args: { uri: 'demo://resource/dynamic/text/2' },
          },
        },
      ]),
      reply([{ text: 'Resource 2 is a plaintext resource.' }]),
    ]);
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: fake.baseUrl } });
    const result = await runConversation({
      generate: genaiGenerate(ai, { model: MODEL }),
      toolset: connections,
      clients: connections.clients,
      contents: [{ role: 'user', parts: [{ text: 'Open the second resource link.' }] }],
      resources: { servers: connections },
    });
    expect(result.stop).toMatchObject({
      reason: 'answered',
      text: 'Resource 2 is a plaintext resource.',
    });
    const bodies = fake.requests.map(
      (request) =>
        request.body as {
          contents: Content[];
          tools: { functionDeclarations: { name: string }[] }[];
        },
    );
    expect(bodies).toHaveLength(3);
    for (const body of bodies) expect(checkGenerateContentRequest(body)).toEqual([]);
    const declared = bodies[0]?.tools[0]?.functionDeclarations.map((d) => d.name) ?? [];
    expect(declared.slice(0, 2)).toEqual(['gmk__read_resource', 'gmk__list_resources']);
    const linkAnswer = JSON.stringify(bodies[1]?.contents[2]);
    expect(linkAnswer).toContain('[resource link: demo://resource/dynamic/text/2');
    const readAnswer = bodies[2]?.contents[4]?.parts ?? [];
    expect(readAnswer).toHaveLength(1);
    expect(readAnswer[0]?.functionResponse).toMatchObject({ id: 'c2', name: 'gmk__read_resource' });
    expect(JSON.stringify(readAnswer[0]?.functionResponse?.response)).toContain(
      '[resource \\"demo://resource/dynamic/text/2\\" from server \\"everything\\", text/plain]\\nResource 2: This is a plaintext resource',
    );
  });
});
