/**
 * Issue 32 item 5: tool schemas with `$ref`, as the 2026-07-28 revision (SEP-2106, JSON Schema
 * 2020-12) asks, proven on the tool set and the declarations with the conformance suite's own
 * fixtures (json-schema-2020-12-preservation, json-schema-ref-no-deref): same-document refs
 * (`#/$defs/...`, an `$anchor`) are resolved before the openapi conversion; the schema's 2020-12
 * keywords reach the json declaration unchanged; a network-URI `$ref` is never fetched, by any
 * step (a loopback canary counts requests): argument checks leave it out (the rest of the schema
 * still checked) with a `SCHEMA_UNCHECKED` notice, and the openapi conversion refuses it with a
 * typed error, reported as the tool's omission.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DeclarationWarning,
  functionDeclarations,
  geminiTools,
} from '../../src/adapter/tools/declarations.js';
import { toolSchemaViolations } from '../../src/adapter/tools/tool-schemas.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import { functionCalls } from '../../src/adapter/turn/calls.js';
import { GeminiMcpError } from '../../src/errors.js';
import type { McpTool } from '../../src/generated/types.js';

/** The suite's focal 2020-12 schema (json-schema-2020-12-preservation), with an anchor ref added. */
const RICH = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    billing: { $ref: '#addressDef' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

let canary: { url: string; requests: number; close: () => void };

beforeAll(async () => {
  const server = createServer((_request, response) => {
    canary.requests += 1;
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({ type: 'object', properties: { displayName: { type: 'string' } } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  canary = {
    url: `http://127.0.0.1:${port}/canary/profile-schema.json`,
    requests: 0,
    close: () => server.close(),
  };
});
afterAll(() => canary.close());

/** The suite's lookup_user tool (json-schema-ref-no-deref): a local and a network `$ref`. */
const lookupUser = (): McpTool => ({
  name: 'lookup_user',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: { userId: { type: 'string', pattern: '^[a-z0-9-]+$' } },
    properties: { id: { $ref: '#/$defs/userId' }, profile: { $ref: canary.url } },
    required: ['id'],
  },
});

/** Every `properties` object of a converted schema, at any depth. */
function propertiesOf(schema: unknown): Record<string, unknown>[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const own = (schema as { properties?: Record<string, unknown> }).properties;
  return [
    ...(own === undefined ? [] : [own]),
    ...Object.values(schema).flatMap((value) => propertiesOf(value)),
  ];
}

describe('issue 32 item 5: $ref in tool schemas, as 2026-07-28 asks', () => {
  it('same-document refs (a JSON pointer and an $anchor) resolve to the same schema in openapi mode; the 2020-12 keywords reach the json declaration unchanged', () => {
    const { toolset } = buildToolSet([
      { serverId: 's', tools: [{ name: 'contact', inputSchema: RICH as McpTool['inputSchema'] }] },
    ]);
    expect(toolset.entries[0]?.tool.inputSchema).toEqual(RICH);
    const [json] = functionDeclarations(toolset);
    expect(json?.parametersJsonSchema).toEqual(RICH);
    const [openapi] = functionDeclarations(toolset, { schemaMode: 'openapi' });
    const address = {
      type: 'OBJECT',
      properties: { street: { type: 'STRING' }, city: { type: 'STRING' } },
      propertyOrdering: ['street', 'city'],
    };
    // Wherever the conversion puts the object (one schema, or a union's branches), both refs
    // are inlined as the same converted schema.
    const holders = propertiesOf(openapi?.parameters).filter((p) => 'address' in p);
    expect(holders.length).toBeGreaterThan(0);
    for (const properties of holders) {
      expect(properties).toMatchObject({ address, billing: address });
    }
  });

  it('a network-URI $ref is never fetched: not by the tool set, either declaration mode, argument checks or the converter; checks leave it out with a notice', async () => {
    const warnings: DeclarationWarning[] = [];
    const { toolset } = buildToolSet([{ serverId: 's', tools: [lookupUser()] }]);
    const [json] = geminiTools(toolset);
    expect(json?.functionDeclarations?.[0]?.parametersJsonSchema).toEqual(lookupUser().inputSchema);
    expect(
      geminiTools(toolset, { schemaMode: 'openapi', onWarning: (w) => warnings.push(w) }),
    ).toEqual([]);
    const { calls, rejected } = functionCalls(
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'lookup_user', args: { id: 'ada', profile: {} } } }],
            },
          },
        ],
      },
      toolset,
      { validateArgs: true },
    );
    expect(rejected).toEqual([]);
    expect(calls).toHaveLength(1);
    // The outside ref is left out of argument checks (never fetched); the rest is still checked.
    expect(toolSchemaViolations(lookupUser().inputSchema, { id: 'ada', profile: 1 })).toEqual([]);
    expect(toolSchemaViolations(lookupUser().inputSchema, { id: 'Not An Id' })).toEqual([
      expect.objectContaining({ path: '/id', keyword: 'pattern' }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(canary.requests).toBe(0);
    expect(warnings.map((warning) => warning.code)).toEqual(['TOOL_OMITTED']);
    const unchecked: DeclarationWarning[] = [];
    functionDeclarations(toolset, { onWarning: (warning) => unchecked.push(warning) });
    expect(unchecked).toEqual([
      expect.objectContaining({
        code: 'SCHEMA_UNCHECKED',
        toolName: 'lookup_user',
        unchecked: {
          path: '/properties/profile/$ref',
          keyword: '$ref',
          reason: `${JSON.stringify(canary.url)} is outside the schema's document, and never fetched`,
        },
      }),
    ]);
    const omitted = warnings[0] as DeclarationWarning & { error: GeminiMcpError };
    expect(omitted.error).toBeInstanceOf(GeminiMcpError);
    expect(omitted.error.code).toBe('SCHEMA_UNSUPPORTED');
    expect(omitted.error.message).toContain(`remote $ref "${canary.url}" is not supported`);
  });

  it('strict openapi declarations refuse the network ref with SCHEMA_UNSUPPORTED instead of omitting the tool', () => {
    const { toolset } = buildToolSet([{ serverId: 's', tools: [lookupUser()] }]);
    expect(() => functionDeclarations(toolset, { schemaMode: 'openapi', strict: true })).toThrow(
      expect.objectContaining({ code: 'SCHEMA_UNSUPPORTED' }),
    );
    expect(canary.requests).toBe(0);
  });
});
