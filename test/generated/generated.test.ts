/** src/generated/: reproducible, checked by check:generated, compiled ahead of time. */
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ErrorObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sha256 } from '../../scripts/lib/canonical-json.js';
import { checkGenerated } from '../../scripts/lib/check-generated.js';
import { generateAll } from '../../scripts/lib/generate.js';
import {
  BASE_FAMILY,
  byFamily,
  generateValidators,
  VALIDATOR_OPTIONS,
} from '../../scripts/lib/generate-validators.js';
import { READ_RULE, readTwins } from '../../scripts/lib/read-rule.js';
import { readTree } from '../../scripts/lib/schema-dir.js';
import { SCHEMA_ID_BASE } from '../../scripts/lib/schema-set.js';
import { type LoadedSchema, loadSchemaTree } from '../../scripts/lib/schema-tree.js';
import { sharedVertex } from '../../scripts/lib/vertex-common.js';
import { GeminiMcpError } from '../../src/errors.js';
import { assertFunctionDeclaration, checkSchema, isPart } from '../../src/generated/guards.js';
import { projectRoot } from './run-script.js';

const generatedDir = join(projectRoot, 'src', 'generated');

// That a fresh generation equals the committed src/generated/ byte for byte (and so that two
// generations agree) is what `npm run check:generated` proves, once, in `npm run ci`; these tests
// never generate the real schemas: the checker's reporting is shown on a tiny schema set.
describe('generation', () => {
  it('puts a banner on every file: generated, DO NOT EDIT, source sha256, the command; no timestamp', async () => {
    for (const [name, text] of await readTree(generatedDir)) {
      const head = text.slice(0, 600);
      expect(head, name).toContain('DO NOT EDIT');
      expect(head, name).toMatch(/schemas\/manifest\.json \(sha256 [0-9a-f]{64}\)/);
      expect(head, name).toContain('npm run generate');
      expect(head, name).not.toMatch(/\d{4}-\d{2}-\d{2}T|\d{2}:\d{2}:\d{2}/);
    }
  });
});

describe('the generated validators modules', () => {
  // The families' modules, then the one of what both Vertex versions share.
  const MODULES = ['gemini', 'mcp', 'vertex-v1', 'vertex-v1beta1', 'vertex-common'];
  const sources = MODULES.map((module) =>
    readFileSync(join(generatedDir, `validators-${module}.js`), 'utf8'),
  );
  const source = sources.join('\n');

  it('imports without compiling: no ajv compiler, only ajv runtime helpers (and the Vertex versions what they share)', () => {
    const imports = [...source.matchAll(/(?:from|require\()\s*["']([^"']+)["']/g)].map((m) => m[1]);
    for (const specifier of imports) {
      expect(specifier).toMatch(/^(ajv\/dist\/runtime\/|\.\/validators-vertex-common\.js$)/);
    }
    expect(source).not.toMatch(/new Ajv|\.compile\(|new Function/);
  });

  it('issue 34: the Vertex messages v1 and v1beta1 share are compiled once: each version re-exports the same validator, and its own schemas call it', async () => {
    const { schemas } = await loadSchemaTree(join(projectRoot, 'schemas'));
    const { common } = sharedVertex(byFamily([...schemas, ...readTwins(schemas)]));
    const names = common.map((s) => s.typeName);
    expect(names.filter((name) => !name.startsWith('Read')).length).toBe(62);
    expect(names.filter((name) => name.startsWith('Read')).length).toBe(30);
    // Those that differ (Part has mediaResolution in v1 only), or reach one that does, are not.
    expect(names).toEqual(expect.arrayContaining(['VertexBlob', 'VertexSchema', 'ReadVertexBlob']));
    expect(names).not.toContain('VertexPart');
    expect(names).not.toContain('VertexContent');
    const v1 = (await import('../../src/generated/validators-vertex-v1.js')) as Record<
      string,
      unknown
    >;
    const v1beta1 = (await import('../../src/generated/validators-vertex-v1beta1.js')) as Record<
      string,
      unknown
    >;
    expect(v1.validateVertexV1Blob).toBe(v1beta1.validateVertexV1Beta1Blob);
    expect(v1.validateReadVertexV1Blob).toBe(v1beta1.validateReadVertexV1Beta1Blob);
    expect(v1.validateVertexV1Part).not.toBe(v1beta1.validateVertexV1Beta1Part);
    // No copy of a shared schema is left in a version's module, not even a forwarding stub.
    const [, , v1Source, v1beta1Source, commonSource] = sources;
    for (const text of [v1Source!, v1beta1Source!]) {
      expect(text).not.toMatch(/vertex\/v1(beta1)?\/Blob\.schema\.json/);
      expect(text).not.toContain('x-imported-validator');
      expect(text).toMatch(
        /\bvalidateVertexBlob\(data\.inlineData, instancePath\+"\/inlineData", rootData\)/,
      );
    }
    expect(commonSource).not.toMatch(/vertex\/v1(beta1)?\//);
  });

  it('issue 34: a version checks through the shared validators as ajv checks its own schemas: the same verdict and errors, paths and all', async () => {
    const { schemas } = await loadSchemaTree(join(projectRoot, 'schemas'));
    const all = [...schemas, ...readTwins(schemas)];
    const bad = {
      contents: [
        { role: 'user', parts: [{ inlineData: { data: '!!', mimeType: 5 } }, { text: 'hi' }] },
        { role: 'model', parts: [{ functionResponse: { name: 'f', response: {}, parts: [{}] } }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'NOPE' } }] }],
      toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } },
      safetySettings: [{ category: 1, threshold: 'BLOCK_NONE' }],
    };
    const response = {
      candidates: [
        {
          content: { parts: [{ inlineData: { data: 7 } }] },
          citationMetadata: { citations: [{ startIndex: 'x' }] },
          safetyRatings: [{ probability: 3 }],
        },
      ],
      usageMetadata: { promptTokensDetails: [{ tokenCount: 'many' }] },
    };
    const project = (errors: ErrorObject[] | null | undefined) =>
      errors?.map(({ instancePath, schemaPath, keyword, params, message }) => ({
        instancePath,
        schemaPath,
        keyword,
        params,
        message,
      })) ?? null;
    for (const version of ['v1', 'v1beta1'] as const) {
      const family = `vertex/${version}` as const;
      const members = byFamily(all).get(family)!;
      const reference = new Ajv2020({
        schemas: members.map((s) => s.schema),
        ...VALIDATOR_OPTIONS,
      });
      const module = (await import(
        `../../src/generated/validators-vertex-${version}.js`
      )) as Record<string, ((data: unknown) => boolean) & { errors?: ErrorObject[] | null }>;
      const tag = version === 'v1' ? 'V1' : 'V1Beta1';
      const base = 'https://gemini-mcp.invalid/schemas/';
      for (const [name, id, value] of [
        [
          `validateVertex${tag}GenerateContentRequest`,
          `${base}${family}/GenerateContentRequest.schema.json`,
          bad,
        ],
        [
          `validateReadVertex${tag}GenerateContentResponse`,
          `${base}read/${family}/GenerateContentResponse.schema.json`,
          response,
        ],
      ] as const) {
        const expected = reference.getSchema(id)!;
        const generated = module[name]!;
        expect(generated(value), name).toBe(false);
        expect(expected(value), name).toBe(false);
        expect(project(generated.errors), name).toEqual(project(expected.errors));
        // The errors reach into the shared messages (a Blob, a Schema, a SafetyRating, ...).
        expect(generated.errors!.length, name).toBeGreaterThan(4);
      }
    }
  });

  it('issue 14: one module per schema family (and its read twins), each closed under $ref; a reference out of its family fails the generation', () => {
    const exported = (text: string): string[] =>
      [...text.matchAll(/export const (validate\w+)/g)].map((m) => m[1]!);
    expect(exported(sources[0]!)).toContain('validateGenerateContentResponse');
    expect(exported(sources[0]!)).toContain('validateReadGenerateContentResponse');
    // Gemini's own McpServer (a tool kind) is a Gemini schema
    expect(exported(sources[0]!).filter((name) => /Vertex|Mcp/.test(name))).toEqual([
      'validateMcpServer',
    ]);
    expect(exported(sources[1]!).every((name) => /^validate(Read)?Mcp/.test(name))).toBe(true);
    expect(exported(sources[2]!).every((name) => /^validate(Read)?VertexV1[A-Z]/.test(name))).toBe(
      true,
    );
    const base = 'https://gemini-mcp.invalid/schemas/';
    const part = (file: string, ref: string) => ({
      file,
      typeName: 'Part',
      schema: { $id: `${base}${file}`, title: 'Part', properties: { a: { $ref: ref } } },
    });
    expect(() => byFamily([part('gemini/Part.schema.json', '../mcp/Tool.schema.json')])).toThrow(
      /gemini\/Part\.schema\.json refers to .*mcp\/Tool\.schema\.json, outside its family gemini/,
    );
    expect(() => byFamily([part('gemini/Part.schema.json', '#/properties/a')])).not.toThrow();
  });

  it('issue 14: no evaluated-properties tracking (an anyOf stops at its first passing branch); a schema that needs it fails the generation', () => {
    expect(source).not.toMatch(/\.evaluated\b/);
    const schema = {
      $id: 'https://gemini-mcp.invalid/schemas/mcp/Open.schema.json',
      title: 'Open',
      type: 'object',
      unevaluatedProperties: false,
    };
    expect(() =>
      generateValidators([{ file: 'mcp/Open.schema.json', typeName: 'Open', schema }]),
    ).toThrow(/unevaluatedProperties\/unevaluatedItems \(in mcp\/Open\.schema\.json\)/);
  });

  it('issue 14: a validator passes its context positionally (no object built per referenced schema), and errors keep their paths', () => {
    expect(source).not.toMatch(/\b(parentData|parentDataProperty|dynamicAnchors)\b/);
    expect(source).toMatch(/function validate\d+\(data, instancePath="", rootData=data\)/);
    const nested = { type: 'OBJECT', properties: { a: { items: { type: 7 } } } };
    expect(checkSchema(nested).map((v) => `${v.path} ${v.keyword}`)).toEqual([
      '/properties/a/items/type type',
      '/properties/a/items/type enum',
    ]);
  });

  it('issue 14: property names are escaped for error paths only when they hold ~ or /, and then as RFC 6901 says', () => {
    // The escaping itself lives once per module, in the helper every key goes through.
    for (const text of sources) expect(text.split('.replace(/~/g, "~0")').length - 1).toBe(1);
    const paths = checkSchema({
      type: 'OBJECT',
      properties: { 'a/b~c': { type: 7 }, plain: { type: 'NOPE' } },
    }).map((v) => v.path);
    expect(paths).toContain('/properties/a~1b~0c/type');
    expect(paths).toContain('/properties/plain/type');
  });

  it('issue 14: a oneOf of one required field per branch is skipped when exactly one is present, with the errors ajv gives for every other value', async () => {
    const { schemas } = await loadSchemaTree(join(projectRoot, 'schemas'));
    let checked = 0;
    const families = byFamily(schemas);
    const modules: [string, LoadedSchema[]][] = [
      ...[...families].map(([family, members]): [string, LoadedSchema[]] => {
        // A family's references into its base family (the Live API's into the Gemini API's).
        const base = BASE_FAMILY[family];
        return [
          `validators-${family.replace('/', '-')}.js`,
          [...members, ...(base === undefined ? [] : families.get(base)!)],
        ];
      }),
      ['validators-vertex-common.js', sharedVertex(byFamily(schemas)).common],
    ];
    for (const [module, members] of modules) {
      const text = readFileSync(join(generatedDir, module), 'utf8');
      const validators = (await import(`../../src/generated/${module}`)) as Record<
        string,
        ((data: unknown) => boolean) & { errors?: ErrorObject[] | null }
      >;
      const ajv = new Ajv2020({ schemas: members.map((s) => s.schema), ...VALIDATOR_OPTIONS });
      const fastPaths =
        /function (validate\d+)\(data[^{]*\{\/\*# sourceURL="([^"]+)"(?:(?!function validate)[\s\S])*?if\(data && typeof data == "object" && !Array\.isArray\(data\) && ((?:\(data\.\w+ !== undefined\)(?: \+ )?)+) === 1\)/g;
      for (const [, local, url, sum] of text.matchAll(fastPaths)) {
        const name = new RegExp(`export const (\\w+) = ${local}\\b`).exec(text)![1]!;
        const generated = validators[name]!;
        const reference = ajv.getSchema(url!)!;
        // The fields from the schema itself, not from the generated test of them.
        const fields: string[] = [];
        const walk = (node: unknown): void => {
          if (typeof node !== 'object' || node === null) return;
          const oneOf = (node as { oneOf?: unknown }).oneOf;
          if (Array.isArray(oneOf)) {
            for (const branch of oneOf)
              fields.push(...((branch as { required?: string[] }).required ?? []));
          }
          for (const child of Object.values(node)) walk(child);
        };
        walk(reference.schema);
        expect(fields.length, name).toBe([...sum!.matchAll(/data\.\w+/g)].length);
        const values: unknown[] = [null, 0, 'text', [], [{}], { unknownField: 1 }];
        for (let subset = 0; subset < 2 ** fields.length; subset++) {
          const part: Record<string, unknown> = {};
          fields.forEach((field, bit) => {
            if (subset & (2 ** bit)) part[field] = field === 'text' ? 'hi' : {};
          });
          values.push(part, { ...part, thought: true }, { ...part, text: 7 });
        }
        const project = (errors: ErrorObject[] | null | undefined) =>
          errors?.map(({ instancePath, schemaPath, keyword, params, message }) => ({
            instancePath,
            schemaPath,
            keyword,
            params,
            message,
          })) ?? null;
        for (const value of values) {
          const same = reference(value);
          expect(generated(value), `${name} ${JSON.stringify(value)}`).toBe(same);
          expect(project(generated.errors), `${name} ${JSON.stringify(value)}`).toEqual(
            project(reference.errors),
          );
        }
        checked++;
      }
    }
    // Part in each family, FunctionResponsePart, which both Vertex versions share, and the Live
    // API's client message (setup, clientContent, realtimeInput or toolResponse).
    expect(checked).toBe(5);
    expect(isPart({ text: 'hi' })).toBe(true);
  });

  it('validates once imported', () => {
    expect(isPart({ text: 'hi' })).toBe(true);
    expect(isPart({ text: 'hi', thought: 'yes' })).toBe(false);
  });

  it('assertX throws GeminiMcpError INVALID_PAYLOAD with the pointer and every violation', () => {
    const bad = { name: 'a b', description: '', extra: 1 };
    const error = (() => {
      try {
        assertFunctionDeclaration(bad);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(GeminiMcpError);
    expect(error).toMatchObject({
      code: 'INVALID_PAYLOAD',
      path: '/extra',
      data: { schema: 'FunctionDeclaration' },
    });
    expect((error as GeminiMcpError).details.map((d) => d.path).sort()).toEqual([
      '/extra',
      '/name',
    ]);
  });
});

/** Type names of the schemas the generator needs: the read rule's received and sent shapes. */
const TYPE_NAMES: Record<string, string> = {
  'gemini/GenerateContentResponse.schema.json': 'GenerateContentResponse',
  'gemini/GenerateContentRequest.schema.json': 'GenerateContentRequest',
  'live/BidiGenerateContentServerMessage.schema.json': 'LiveBidiGenerateContentServerMessage',
  'live/BidiGenerateContentClientMessage.schema.json': 'LiveBidiGenerateContentClientMessage',
  'vertex/v1/GenerateContentResponse.schema.json': 'VertexV1GenerateContentResponse',
  'vertex/v1/GenerateContentRequest.schema.json': 'VertexV1GenerateContentRequest',
  'vertex/v1beta1/GenerateContentResponse.schema.json': 'VertexV1Beta1GenerateContentResponse',
  'vertex/v1beta1/GenerateContentRequest.schema.json': 'VertexV1Beta1GenerateContentRequest',
  'mcp/Tool.schema.json': 'McpTool',
  'mcp/ListToolsResult.schema.json': 'McpListToolsResult',
  'mcp/CallToolResult.schema.json': 'McpCallToolResult',
  'mcp/ContentBlock.schema.json': 'McpContentBlock',
  'mcp/CreateMessageRequest.schema.json': 'McpCreateMessageRequest',
  'mcp/ListResourcesResult.schema.json': 'McpListResourcesResult',
  'mcp/ListResourceTemplatesResult.schema.json': 'McpListResourceTemplatesResult',
  'mcp/ReadResourceResult.schema.json': 'McpReadResourceResult',
  'mcp/ResourceUpdatedNotificationParams.schema.json': 'McpResourceUpdatedNotificationParams',
  'mcp/ListPromptsResult.schema.json': 'McpListPromptsResult',
  'mcp/GetPromptResult.schema.json': 'McpGetPromptResult',
  'mcp/CompleteResult.schema.json': 'McpCompleteResult',
  'mcp/Task.schema.json': 'McpTask',
  'mcp/CreateTaskResult.schema.json': 'McpCreateTaskResult',
  'mcp/GetTaskResult.schema.json': 'McpGetTaskResult',
};

/** A schemas/ tree of one small object schema per shape the generator needs, with its manifest. */
async function writeTinySchemas(root: string): Promise<void> {
  const files = [...READ_RULE.roots, ...READ_RULE.sent];
  const hashes: Record<string, string> = {};
  for (const file of files) {
    const schema = {
      $id: `${SCHEMA_ID_BASE}${file}`,
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: TYPE_NAMES[file],
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    };
    const text = `${JSON.stringify(schema, null, 2)}\n`;
    await mkdir(join(root, dirname(file)), { recursive: true });
    await writeFile(join(root, file), text);
    hashes[file] = sha256(text);
  }
  // The API limits are an input of every generation: the project's own file, as it is.
  const limits = readFileSync(join(projectRoot, 'schemas', 'limits.json'), 'utf8');
  await writeFile(join(root, 'limits.json'), limits);
  const manifest = {
    schemas: hashes,
    inputs: { gemini: { revision: '20260101' }, mcp: [{ protocolVersion: '2025-06-18' }] },
    limits: { file: 'limits.json', sha256: sha256(limits) },
  };
  await writeFile(join(root, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

describe('npm run check:generated (scripts/lib/check-generated.ts), on a tiny schema set', () => {
  let tiny: string;
  let work: string;
  beforeAll(async () => {
    tiny = await mkdtemp(join(tmpdir(), 'gemini-mcp-tiny-'));
    await writeTinySchemas(join(tiny, 'schemas'));
    await mkdir(join(tiny, 'generated'));
    for (const [name, text] of await generateAll(join(tiny, 'schemas'))) {
      await writeFile(join(tiny, 'generated', name), text);
    }
  });
  afterAll(() => rm(tiny, { recursive: true, force: true }));
  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), 'gemini-mcp-check-'));
    await cp(join(tiny, 'generated'), join(work, 'generated'), { recursive: true });
  });
  afterEach(() => rm(work, { recursive: true, force: true }));

  it('passes, counting the files, when the folder is what the schemas generate', async () => {
    const files = (await readTree(join(work, 'generated'))).size;
    expect(files).toBeGreaterThan(4);
    expect(await checkGenerated(join(tiny, 'schemas'), join(work, 'generated'))).toEqual({
      code: 0,
      lines: [`check:generated: ${files} files match a fresh generation`],
    });
  });

  it('fails naming each file edited by hand, missing, or not generated', async () => {
    const generated = join(work, 'generated');
    const edited = join(generated, 'guards.ts');
    await writeFile(edited, `${readFileSync(edited, 'utf8')}\nexport const handEdit = 1;\n`);
    await rm(join(generated, 'types.ts'));
    await writeFile(join(generated, 'stray.ts'), 'export {};\n');
    const { code, lines } = await checkGenerated(join(tiny, 'schemas'), generated);
    expect(code).toBe(1);
    expect(lines[0]).toContain('Run npm run generate');
    expect(lines.slice(1).sort()).toEqual([
      expect.stringMatching(/^ {2}\S+\/guards\.ts: differs \(line \d+: /),
      `  ${generated}/stray.ts: not generated (remove it)`,
      `  ${generated}/types.ts: missing`,
    ]);
  });

  it('fails loudly, never vacuously, when its input is missing', async () => {
    const check = await checkGenerated(join(work, 'no-such-schemas'), join(work, 'generated'));
    expect(check.code).toBe(2);
    expect(check.lines.join('\n')).toContain('manifest.json is missing');
  });
});
