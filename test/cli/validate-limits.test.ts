/**
 * `gemini-mcp-kit validate --request` against the API's limits (issue 31 item 1), integration
 * tier: the built CLI in a child process reports a 600-declaration request, a parameter named
 * `a-b` and an over-budget schema, each with its pointer, server and tool (`--tool-lists`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectOneLine, runCli, tempDir } from './helpers.js';

const temp = tempDir();
afterAll(() => temp.remove());

const file = (name: string, value: unknown): string => {
  const path = join(temp.dir, name);
  writeFileSync(path, JSON.stringify(value, null, 2));
  return path;
};

/** A schema of `width` string properties with long descriptions: far over 49,152 bytes. */
const wide = (width: number) => ({
  type: 'object',
  properties: Object.fromEntries(
    Array.from({ length: width }, (_, i) => [
      `field_${i}`,
      { type: 'string', description: `the field number ${i} `.repeat(20) },
    ]),
  ),
});

const servers = [
  {
    serverId: 'fs',
    tools: [
      {
        name: 'move_file',
        inputSchema: { type: 'object', properties: { 'a-b': { type: 'string' } } },
      },
    ],
  },
  { serverId: 'crm', tools: [{ name: 'import_contacts', inputSchema: wide(200) }] },
  {
    serverId: 'many',
    tools: Array.from({ length: 598 }, (_, i) => ({
      name: `op_${i}`,
      inputSchema: { type: 'object' },
    })),
  },
];

const request = {
  contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
  tools: [
    {
      functionDeclarations: [
        {
          name: 'move_file',
          description: '',
          parameters: { type: 'OBJECT', properties: { 'a-b': { type: 'STRING' } } },
        },
        { name: 'import_contacts', description: '', parametersJsonSchema: wide(200) },
        ...Array.from({ length: 598 }, (_, i) => ({
          name: `op_${i}`,
          description: '',
          parametersJsonSchema: { type: 'object' },
        })),
      ],
    },
  ],
};

interface JsonFinding {
  severity: string;
  pointer: string;
  keyword?: string;
  message: string;
  declaration?: string;
  serverId?: string;
  toolName?: string;
}

describe('validate --request: the API limits', () => {
  const requestFile = file('request.json', request);
  const toolLists = file('tool-lists.json', servers);

  it('issue 31 item 1 (done when): a 600-declaration request, a property a-b in parameters, an over-budget schema: each with pointer, server and tool', async () => {
    const run = await runCli([
      'validate',
      '--request',
      '--tool-lists',
      toolLists,
      '-f',
      'json',
      requestFile,
    ]);
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as { findings: JsonFinding[] };
    const find = (keyword: string) => report.findings.filter((f) => f.keyword === keyword);
    expect(find('request/declarations-per-request')).toEqual([
      expect.objectContaining({
        severity: 'error',
        pointer: '/tools/0/functionDeclarations/512',
        declaration: 'op_510',
        serverId: 'many',
        toolName: 'op_510',
        message: expect.stringContaining('600 function declarations in this request, over the 512'),
      }),
    ]);
    expect(find('request/parameter-name')).toEqual([
      expect.objectContaining({
        severity: 'error',
        pointer: '/tools/0/functionDeclarations/0/parameters/properties/a-b',
        declaration: 'move_file',
        serverId: 'fs',
        toolName: 'move_file',
      }),
    ]);
    expect(find('request/declaration-bytes')).toEqual([
      expect.objectContaining({
        severity: 'error',
        pointer: '/tools/0/functionDeclarations/1',
        declaration: 'import_contacts',
        serverId: 'crm',
        toolName: 'import_contacts',
        message: expect.stringContaining('receptron/MulmoChat #123'),
      }),
    ]);
    expect(find('request/request-declaration-bytes')[0]).toMatchObject({
      pointer: '/tools/0/functionDeclarations/1',
      serverId: 'crm',
    });
  });

  it('issue 31 item 1: the text report names server and tool in each line; Vertex AI counts 128', async () => {
    const run = await runCli([
      'validate',
      '--request',
      '--dialect',
      'vertex',
      '--tool-lists',
      toolLists,
      requestFile,
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'generate-content-request at /tools/0/functionDeclarations/128: 600 function declarations in this request, over the 128 vertex-v1beta1 takes',
    );
    expect(run.stdout).toMatch(
      /at \/tools\/0\/functionDeclarations\/0\/parameters\/properties\/a-b: declaration "move_file" \(server "fs", tool "move_file"\): parameter name "a-b"/,
    );
  });

  it('issue 31 item 1: --tool-lists without --request, or an unreadable file, is a usage error', async () => {
    const alone = await runCli(['validate', '--tool-lists', toolLists, requestFile]);
    expect(alone.code).toBe(2);
    expect(expectOneLine(alone.stderr)).toContain('--tool-lists only applies with --request');
    const missing = await runCli([
      'validate',
      '--request',
      '--tool-lists',
      join(temp.dir, 'nope.json'),
      requestFile,
    ]);
    expect(missing.code).toBe(2);
    expect(expectOneLine(missing.stderr)).toContain('cannot read the tool lists');
  });
});
