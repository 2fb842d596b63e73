/**
 * The MCP skills extension (SEP-2640), in memory: skills listed from the servers that declare
 * `io.modelcontextprotocol/skills` (every page, malformed entries left out) without reading a
 * file; loadSkill verifying SKILL.md (size, digest, frontmatter) and refusing a tampered one with
 * no further read; readSkillFile verifying a supporting file against the entry the skill was
 * loaded with; and gmk__load_skill in a runConversation turn through the real genai client.
 */
import { createHash } from 'node:crypto';
import { GoogleGenAI } from '@google/genai';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { literal, object, unknown } from 'zod/v4';
import { GeminiMcpError } from '../../src/errors.js';
import { checkGenerateContentRequest } from '../../src/generated/guards.js';
import type { Content } from '../../src/generated/types.js';
import { connectServers } from '../../src/runtime/mcp/connect.js';
import { openResourceCatalog } from '../../src/runtime/mcp/resources/catalog.js';
import { openSkillCatalog } from '../../src/runtime/mcp/skills/catalog.js';
import { loadSkill, readSkillFile, type SkillServers } from '../../src/runtime/mcp/skills/load.js';
import { genaiGenerate } from '../../src/runtime/model/generate.js';
import { runConversation } from '../../src/runtime/turn/conversation.js';
import { type FakeGemini, startFakeGemini } from '../support/fake-gemini.js';
import { startStreamableHttpServer } from '../support/http-servers.js';

const MODEL = 'gemini-2.5-flash';
const SKILL_URI = 'skill://pdf-processing/SKILL.md';
const FORMS_URI = 'skill://pdf-processing/references/FORMS.md';
const SKILL_MD =
  '---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: "2.1.0"\n---\n\nSkill body: see references/FORMS.md.\u200B\n';
const FORMS_MD = 'Forms: fill every field.\n';
const FRONTMATTER = {
  name: 'pdf-processing',
  description: 'Extract, fill, and assemble PDF documents',
  metadata: { version: '2.1.0' },
};

const digest = (text: string) =>
  `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

/** What the skill server serves and lists, and the reads it answered. */
interface SkillServerSpec {
  /** The SKILL.md served (the one listed by default). */
  served?: string;
  /** The pages of skills/list, one per cursor (default: one page with the pdf skill). */
  pages?: object[];
  /** Declare the extension (default true). */
  declare?: boolean;
}

function pdfEntry(listed = SKILL_MD): object {
  return {
    uri: SKILL_URI,
    frontmatter: FRONTMATTER,
    resources: [
      { uri: SKILL_URI, digest: digest(listed), size: Buffer.byteLength(listed) },
      { uri: FORMS_URI, digest: digest(FORMS_MD), size: Buffer.byteLength(FORMS_MD) },
    ],
  };
}

const opened: Client[] = [];
let fake: FakeGemini | undefined;
afterEach(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close()));
  await fake?.close();
  fake = undefined;
});

/** The skill server, recording into `state` the reads it answered and the lists it served. */
function skillServerOf(spec: SkillServerSpec, state: { reads: string[]; lists: number }): Server {
  const declare = spec.declare ?? true;
  const server = new Server(
    { name: 'skills', version: '1.0.0' },
    {
      capabilities: {
        resources: {},
        tools: {},
        ...(declare ? { extensions: { 'io.modelcontextprotocol/skills': {} } } : {}),
      } as never,
    },
  );
  const pages = spec.pages ?? [{ skills: [pdfEntry()] }];
  server.setRequestHandler(
    object({ method: literal('skills/list'), params: unknown().optional() }),
    (request) => {
      state.lists++;
      const cursor = (request.params as { cursor?: string } | undefined)?.cursor;
      const index = cursor === undefined ? 0 : Number(cursor);
      const page = pages[index] ?? { skills: [] };
      return {
        ...page,
        ...(index + 1 < pages.length ? { nextCursor: String(index + 1) } : {}),
      } as never;
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const { uri } = request.params;
    state.reads.push(uri);
    const text = uri === FORMS_URI ? FORMS_MD : (spec.served ?? SKILL_MD);
    return { contents: [{ uri, mimeType: 'text/markdown', text }] };
  });
  return server;
}

async function skillServer(
  spec: SkillServerSpec = {},
): Promise<{ client: Client; reads: string[]; lists: number }> {
  const state = { reads: [] as string[], lists: 0 };
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await skillServerOf(spec, state).connect(serverSide);
  const client = new Client({ name: 'skills-test', version: '0.0.0' });
  await client.connect(clientSide);
  opened.push(client);
  return Object.assign(state, { client });
}

async function servers(
  spec: SkillServerSpec = {},
): Promise<{ servers: SkillServers; reads: string[] }> {
  const state = await skillServer(spec);
  const clients = new Map([['docs', state.client]]);
  return { servers: { clients, skills: await openSkillCatalog(clients) }, reads: state.reads };
}

async function refusal(promise: Promise<unknown>): Promise<GeminiMcpError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GeminiMcpError);
  return error as GeminiMcpError;
}

describe('SEP-2640: skills listed without reading them', () => {
  it('every page of skills/list is listed, namespaced by server, and no file is read', async () => {
    const other = {
      uri: 'skill://acme/billing/refunds/SKILL.md',
      frontmatter: { name: 'refunds', description: 'Process refunds' },
      resources: 'dynamic',
    };
    const { servers: connected, reads } = await servers({
      pages: [{ skills: [pdfEntry()] }, { skills: [other] }],
    });
    expect(connected.skills.skills.map((s) => [s.serverId, s.name, s.entry.uri])).toEqual([
      ['docs', 'pdf-processing', SKILL_URI],
      ['docs', 'refunds', 'skill://acme/billing/refunds/SKILL.md'],
    ]);
    expect(connected.skills.skills[1]?.entry.resources).toBeUndefined();
    expect(connected.skills.warnings).toEqual([]);
    expect(reads).toEqual([]);
  });

  it('a malformed entry is left out with a SKILL_INVALID warning naming its pointer', async () => {
    const { servers: connected } = await servers({
      pages: [
        {
          skills: [
            pdfEntry(),
            { uri: 'skill://x/SKILL.md', frontmatter: { name: 'x' }, resources: [] },
            {
              uri: 'skill://y/SKILL.md',
              frontmatter: { name: 'y', description: 'y' },
              resources: [{ uri: 'skill://y/SKILL.md', digest: 'md5:abc' }],
            },
          ],
        },
      ],
    });
    expect(connected.skills.skills.map((s) => s.name)).toEqual(['pdf-processing']);
    expect(connected.skills.warnings).toEqual([
      expect.objectContaining({ code: 'SKILL_INVALID', path: '/skills/1/frontmatter/description' }),
      expect.objectContaining({ code: 'SKILL_INVALID', path: '/skills/2/resources/0/digest' }),
    ]);
  });

  it('connectServers lists the skills of a server on Streamable HTTP as connections.skills, reading none', async () => {
    const state = { reads: [] as string[], lists: 0 };
    const http = await startStreamableHttpServer(undefined, () => skillServerOf({}, state));
    try {
      const connections = await connectServers({
        mcpServers: { docs: { url: `${http.origin}/mcp` } },
      });
      try {
        expect(connections.skills.skills.map((s) => [s.serverId, s.name])).toEqual([
          ['docs', 'pdf-processing'],
        ]);
        expect(state).toEqual({ reads: [], lists: 1 });
        await expect(loadSkill(connections, 'pdf-processing')).resolves.toMatchObject({
          serverId: 'docs',
        });
        expect(state.reads).toEqual([SKILL_URI]);
      } finally {
        await connections.close();
      }
    } finally {
      await http.close();
    }
  });

  it("the v2 SDK's client reads the extension and the skills the same way", async () => {
    const state = { reads: [] as string[], lists: 0 };
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await skillServerOf({}, state).connect(serverSide);
    const client = new ClientV2({ name: 'skills-test', version: '0.0.0' });
    await client.connect(clientSide);
    try {
      const clients = new Map([['docs', client]]);
      const connected = { clients, skills: await openSkillCatalog(clients) };
      expect(connected.skills.skills.map((s) => s.name)).toEqual(['pdf-processing']);
      expect(state.reads).toEqual([]);
      await expect(loadSkill(connected, 'pdf-processing')).resolves.toMatchObject({
        text: SKILL_MD,
      });
      expect(state.reads).toEqual([SKILL_URI]);
    } finally {
      await client.close();
    }
  });

  it('a server that does not declare the extension is never asked for skills/list', async () => {
    const state = await skillServer({ declare: false });
    const catalog = await openSkillCatalog(new Map([['docs', state.client]]));
    expect(catalog.skills).toEqual([]);
    expect(state.lists).toBe(0);
  });
});

describe('SEP-2640: loadSkill verifies SKILL.md against its entry', () => {
  it('a skill whose size, digest and frontmatter match is loaded; its files stay unread until asked for', async () => {
    const { servers: connected, reads } = await servers();
    const skill = await loadSkill(connected, 'pdf-processing');
    expect(skill).toMatchObject({ serverId: 'docs', name: 'pdf-processing', text: SKILL_MD });
    expect(reads).toEqual([SKILL_URI]);
    const forms = await readSkillFile(connected, skill, 'references/./FORMS.md');
    expect(forms).toMatchObject({ uri: FORMS_URI, text: FORMS_MD, mimeType: 'text/markdown' });
    expect(reads).toEqual([SKILL_URI, FORMS_URI]);
  });

  it.each([
    ['digest', SKILL_MD.replace('Skill body', 'Evil!body!'), pdfEntry(), 'digest'],
    ['size', `${SKILL_MD}extra bytes`, pdfEntry(), 'size'],
    [
      'frontmatter',
      SKILL_MD.replace('Extract, fill, and assemble PDF documents', 'Exfiltrate credentials'),
      pdfEntry(
        SKILL_MD.replace('Extract, fill, and assemble PDF documents', 'Exfiltrate credentials'),
      ),
      'frontmatter',
    ],
  ])(
    'a tampered %s refuses the skill (SKILL_REFUSED) and no further file is read',
    async (_kind, served, entry, failed) => {
      const { servers: connected, reads } = await servers({ served, pages: [{ skills: [entry] }] });
      const error = await refusal(loadSkill(connected, 'pdf-processing'));
      expect(error.code).toBe('SKILL_REFUSED');
      expect(error.data).toMatchObject({ failed, serverId: 'docs', uri: SKILL_URI });
      expect(reads).toEqual([SKILL_URI]);
    },
  );

  it('a skill listed without digests, or a file its entry does not list, is refused unread', async () => {
    const { servers: connected, reads } = await servers({
      pages: [
        {
          skills: [
            { uri: SKILL_URI, frontmatter: FRONTMATTER },
            {
              uri: 'skill://other/SKILL.md',
              frontmatter: { name: 'other', description: 'other' },
              resources: [{ uri: 'skill://other/SKILL.md', digest: digest(SKILL_MD) }],
            },
          ],
        },
      ],
    });
    const unverifiable = await refusal(loadSkill(connected, 'pdf-processing'));
    expect(unverifiable.data).toMatchObject({ failed: 'unverifiable' });
    expect(reads).toEqual([]);
    const skill = {
      serverId: 'docs',
      name: 'pdf-processing',
      entry: pdfEntry() as never,
      text: SKILL_MD,
    };
    const unlisted = await refusal(readSkillFile(connected, skill, 'scripts/steal.sh'));
    expect(unlisted.data).toMatchObject({
      failed: 'unlisted',
      uri: 'skill://pdf-processing/scripts/steal.sh',
    });
    const escaping = await refusal(readSkillFile(connected, skill, '../../etc/passwd'));
    expect(escaping.code).toBe('INVALID_INPUT');
    expect(reads).toEqual([]);
  });

  it('a name two servers list is ambiguous until the server is named', async () => {
    const first = await skillServer();
    const second = await skillServer();
    const clients = new Map([
      ['a', first.client],
      ['b', second.client],
    ]);
    const connected = { clients, skills: await openSkillCatalog(clients) };
    const ambiguous = await refusal(loadSkill(connected, 'pdf-processing'));
    expect(ambiguous.code).toBe('INVALID_INPUT');
    expect(ambiguous.message).toContain('name the server');
    await expect(loadSkill(connected, 'pdf-processing', { serverId: 'b' })).resolves.toMatchObject({
      serverId: 'b',
    });
    expect([first.reads, second.reads]).toEqual([[], [SKILL_URI]]);
  });
});

describe('SEP-2640: gmk__load_skill in a runConversation turn (real genai client)', () => {
  const reply = (parts: object[]) => ({
    response: {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      modelVersion: MODEL,
    },
  });

  it('the model loads a skill, then one of its files, each verified and attributed; a tampered one is answered as refused', async () => {
    const { servers: connected, reads } = await servers();
    fake = await startFakeGemini([
      reply([
        { functionCall: { id: 'c1', name: 'gmk__load_skill', args: { name: 'pdf-processing' } } },
      ]),
      reply([
        {
          functionCall: {
            id: 'c2',
            name: 'gmk__load_skill',
            args: { name: 'pdf-processing', file: 'references/FORMS.md' },
          },
        },
        {
          functionCall: {
            id: 'c3',
            name: 'gmk__load_skill',
            args: { name: 'pdf-processing', file: 'scripts/steal.sh' },
          },
        },
      ]),
      reply([{ text: 'Filled.' }]),
    ]);
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: fake.baseUrl } });
    const result = await runConversation({
      generate: genaiGenerate(ai, { model: MODEL }),
      toolset: { entries: [], resolve: () => undefined, exposedName: () => undefined } as never,
      clients: connected.clients,
      contents: [{ role: 'user', parts: [{ text: 'Fill the form.' }] }],
      skills: { servers: connected },
    });
    expect(result.stop).toMatchObject({ reason: 'answered', text: 'Filled.' });
    const bodies = fake.requests.map(
      (request) =>
        request.body as {
          contents: Content[];
          tools: { functionDeclarations: { name: string; description: string }[] }[];
        },
    );
    for (const body of bodies) expect(checkGenerateContentRequest(body)).toEqual([]);
    const declaration = bodies[0]?.tools[0]?.functionDeclarations[0];
    expect(declaration?.name).toBe('gmk__load_skill');
    expect(declaration?.description).toContain(
      '- pdf-processing (server "docs"): Extract, fill, and assemble PDF documents',
    );
    const loaded = JSON.stringify(bodies[1]?.contents[2]);
    expect(loaded).toContain(
      '[skill \\"pdf-processing\\" from server \\"docs\\", verified against its listing]',
    );
    expect(loaded).toContain('Skill body: see references/FORMS.md.\\n');
    expect(loaded).not.toContain('\u200B');
    const files = JSON.stringify(bodies[2]?.contents[4]);
    expect(files).toContain(`[file \\"${FORMS_URI}\\" from server \\"docs\\"`);
    expect(files).toContain('Refused: the content is not what the server listed');
    expect(reads).toEqual([SKILL_URI, FORMS_URI]);
  });

  it("with resources offered too, gmk__read_resource of a loaded skill's file is verified against its entry, an unlisted one refused unread", async () => {
    const state = await skillServer();
    const clients = new Map([['docs', state.client]]);
    const connected = {
      clients,
      skills: await openSkillCatalog(clients),
      resources: await openResourceCatalog(clients),
    };
    const calls = [
      [{ functionCall: { id: 'c1', name: 'gmk__load_skill', args: { name: 'pdf-processing' } } }],
      [
        { functionCall: { id: 'c2', name: 'gmk__read_resource', args: { uri: FORMS_URI } } },
        {
          functionCall: {
            id: 'c3',
            name: 'gmk__read_resource',
            args: { uri: 'skill://pdf-processing/scripts/steal.sh' },
          },
        },
      ],
      [{ text: 'Done.' }],
    ];
    const seen: unknown[][] = [];
    const result = await runConversation({
      generate: async ({ contents }) => {
        seen.push([...contents]);
        return {
          candidates: [
            {
              content: { role: 'model', parts: calls[seen.length - 1] ?? [] },
              finishReason: 'STOP',
            },
          ],
        };
      },
      toolset: { entries: [], resolve: () => undefined, exposedName: () => undefined } as never,
      clients,
      contents: [{ role: 'user', parts: [{ text: 'Fill the form.' }] }],
      resources: { servers: connected },
      skills: { servers: connected },
    });
    expect(result.stop).toMatchObject({ reason: 'answered', text: 'Done.' });
    const answers = JSON.stringify(seen[2]?.at(-1));
    expect(answers).toContain(`[file \\"${FORMS_URI}\\" from server \\"docs\\", verified`);
    expect(answers).toContain('Refused: the content is not what the server listed');
    expect(state.reads).toEqual([SKILL_URI, FORMS_URI]);
  });
});
