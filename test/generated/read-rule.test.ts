/**
 * Issue 11: the read/write rule (scripts/lib/read-rule.ts), the one place it lives. The
 * transformation itself, the twins it gave in src/generated/, and the notices the generated
 * readers report for each tolerance.
 */
import { describe, expect, it } from 'vitest';
import { familyOf } from '../../scripts/lib/generate-validators.js';
import {
  kindsIn,
  READ_RULE,
  readSchema,
  readTwins,
  receivedOnly,
} from '../../scripts/lib/read-rule.js';
import { loadSchemaTree } from '../../scripts/lib/schema-tree.js';
import {
  readContent,
  readGenerateContentResponse,
  readMcpCallToolResult,
  readMcpTool,
  readPart,
  SCHEMAS,
  type SchemaName,
} from '../../src/generated/guards.js';
import * as gemini from '../../src/generated/validators-gemini.js';
import * as live from '../../src/generated/validators-live.js';
import * as mcp from '../../src/generated/validators-mcp.js';
import * as vertexV1 from '../../src/generated/validators-vertex-v1.js';
import * as vertexV1Beta1 from '../../src/generated/validators-vertex-v1beta1.js';
import { projectRoot } from './run-script.js';

const tree = await loadSchemaTree(`${projectRoot}/schemas`);

describe('issue 11: the read rule', () => {
  it('drops additionalProperties: false, opens string enums, keeps everything else', () => {
    const strict = {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'mode'],
      properties: {
        name: { type: 'string', pattern: '^[a-z]+$', maxLength: 8 },
        mode: { type: 'string', enum: ['A', 'B'] },
        kind: { const: 'x' },
        enum: { type: 'array', items: { type: 'string' } },
        sizes: { type: 'array', items: { enum: [1, 2] } },
        map: { type: 'object', additionalProperties: { type: 'integer' } },
      },
    };
    expect(readSchema(strict)).toEqual({
      type: 'object',
      required: ['name', 'mode'],
      properties: {
        name: { type: 'string', pattern: '^[a-z]+$', maxLength: 8 },
        mode: { type: 'string' },
        kind: { const: 'x' },
        enum: { type: 'array', items: { type: 'string' } },
        sizes: { type: 'array', items: { enum: [1, 2] } },
        map: { type: 'object', additionalProperties: { type: 'integer' } },
      },
    });
  });

  it('"exactly one of these fields" becomes "at most one"', () => {
    const rule = { oneOf: [{ required: ['a'] }, { required: ['b'] }] };
    expect(readSchema({ allOf: [rule] })).toEqual({
      allOf: [{ oneOf: [...rule.oneOf, { not: { anyOf: rule.oneOf } }] }],
    });
    const other = { oneOf: [{ type: 'string' }, { type: 'number' }] };
    expect(readSchema(other)).toEqual(other);
  });

  it('gives a twin to each received root and everything it references, and to nothing else', () => {
    const twins = readTwins(tree.schemas);
    const names = new Set(twins.map((t) => t.typeName));
    for (const root of READ_RULE.roots) {
      const source = tree.schemas.find((s) => s.file === root);
      expect(names, root).toContain(`Read${source?.typeName}`);
    }
    for (const sent of [
      'GenerateContentRequest',
      'FunctionDeclaration',
      'Tool',
      'ToolConfig',
      'Schema',
      'McpCallToolRequestParams',
    ]) {
      expect(names, sent).not.toContain(`Read${sent}`);
    }
    for (const twin of twins) {
      const source = tree.schemas.find((s) => `Read${s.typeName}` === twin.typeName)!;
      const { $id, title, description, ...rest } = twin.schema;
      const { $id: _i, title: _t, description: _d, ...strict } = source.schema;
      expect(rest, twin.typeName).toEqual(
        readSchema(strict, kindsIn(tree.schemas, String(source.schema.$id))),
      );
      expect($id).toBe(String(source.schema.$id).replace('/schemas/', '/schemas/read/'));
    }
  });

  it('src/generated/ holds the twins: a validator per twin, in the module of its family; SCHEMAS reads the shapes only received', () => {
    const twins = readTwins(tree.schemas);
    const modules = {
      gemini,
      live,
      mcp,
      'vertex/v1': vertexV1,
      'vertex/v1beta1': vertexV1Beta1,
    };
    for (const twin of twins) {
      expect(modules[familyOf(twin.file)], twin.typeName).toHaveProperty(
        `validate${twin.typeName}`,
      );
    }
    const readable = (Object.keys(SCHEMAS) as SchemaName[]).filter((n) => SCHEMAS[n].read);
    const received = receivedOnly(tree.schemas);
    expect(readable.sort()).toEqual([...received].sort());
    // Sent and received (the model's Content goes back): a reader, but validate stays strict.
    for (const both of [
      'Content',
      'Part',
      'FunctionCall',
      'VertexV1Content',
      'VertexV1Beta1Part',
    ]) {
      expect(received, both).not.toContain(both);
      expect(twins.map((t) => t.typeName)).toContain(`Read${both}`);
    }
    for (const only of ['GenerateContentResponse', 'Candidate', 'UsageMetadata', 'McpTool']) {
      expect(received, only).toContain(only);
    }
  });
});

describe('issue 11: what the readers report', () => {
  const response = (candidate: object, extra: object = {}) => ({
    candidates: [
      { content: { role: 'model', parts: [{ text: 'hi' }] }, finishReason: 'STOP', ...candidate },
    ],
    ...extra,
  });

  it('a value the write contract accepts: no notice, no violation', () => {
    expect(readGenerateContentResponse(response({}))).toEqual({ violations: [], notices: [] });
  });

  it('each tolerance is one notice: kind, pointer, value, "unknown to revision 20260325"', () => {
    const { violations, notices } = readGenerateContentResponse(
      response(
        { finishReason: 'NEW_REASON', futureScore: 1 },
        { usageMetadata: { promptTokensDetails: [{ modality: 'SMELL', tokenCount: 1 }] } },
      ),
    );
    expect(violations).toEqual([]);
    expect(notices).toEqual([
      {
        code: 'unknown-field',
        schema: 'GenerateContentResponse',
        path: '/candidates/0/futureScore',
        value: 1,
        message: 'field "futureScore" is unknown to revision 20260325',
      },
      {
        code: 'unknown-enum-value',
        schema: 'GenerateContentResponse',
        path: '/candidates/0/finishReason',
        value: 'NEW_REASON',
        message: 'finishReason "NEW_REASON" is unknown to revision 20260325',
      },
      {
        code: 'unknown-enum-value',
        schema: 'GenerateContentResponse',
        path: '/usageMetadata/promptTokensDetails/0/modality',
        value: 'SMELL',
        message: 'modality "SMELL" is unknown to revision 20260325',
      },
    ]);
  });

  it('a part of an unknown kind is tolerated and named; two known data fields still are not', () => {
    expect(readPart({ hologram: { frames: 3 } }).notices.map((n) => n.code)).toEqual([
      'unknown-part-kind',
      'unknown-field',
    ]);
    expect(readPart({ text: 'a', functionCall: { name: 'f' } }).violations).toEqual([
      expect.objectContaining({ path: '', keyword: 'oneOf' }),
    ]);
  });

  it('fields the code depends on stay required, types stay checked', () => {
    expect(readPart({ functionCall: { args: {} } }).violations).toEqual([
      expect.objectContaining({ path: '/functionCall/name', keyword: 'required' }),
    ]);
    expect(readContent({ role: 'model', parts: 'text' }).violations).toEqual([
      expect.objectContaining({ path: '/parts', keyword: 'type' }),
    ]);
    expect(readMcpTool({ name: 'a' }).violations).toEqual([
      expect.objectContaining({ path: '/inputSchema', keyword: 'required' }),
    ]);
  });

  it('an MCP union branch the value does not take adds no notice (one per novelty)', () => {
    const { notices } = readMcpCallToolResult({
      content: [
        {
          type: 'image',
          data: 'aGk=',
          mimeType: 'image/png',
          annotations: { audience: ['robot'] },
        },
      ],
    });
    expect(notices).toEqual([
      expect.objectContaining({
        code: 'unknown-enum-value',
        path: '/content/0/annotations/audience/0',
        value: 'robot',
        message: 'audience "robot" is unknown to MCP 2025-06-18, 2025-11-25 and 2026-07-28',
      }),
    ]);
  });
});
