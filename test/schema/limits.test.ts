/**
 * SC-6: schema bombs are typed errors in bounded time, never hangs or stack overflows; the
 * limits are options; legitimately large schemas still convert.
 */
import { describe, expect, it } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import { toGeminiSchema } from '../../src/schema/to-gemini-schema.js';
import { deepFreeze } from './support.js';

/**
 * Runs `convert` and returns the error it threw and the CPU time it took: CPU time, not wall
 * time, so a loaded machine (tests run in parallel) does not make the bound flaky.
 */
function refusal(convert: () => unknown): { error: unknown; ms: number } {
  const start = process.cpuUsage();
  let error: unknown;
  try {
    convert();
  } catch (caught) {
    error = caught;
  }
  const used = process.cpuUsage(start);
  return { error, ms: (used.user + used.system) / 1000 };
}

function deepProperties(depth: number): unknown {
  let schema: unknown = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

/** `$defs` where each level refers twice to the one below: 2^levels nodes once expanded. */
function billionLaughs(levels: number, shape: 'properties' | 'anyOf'): unknown {
  const defs: Record<string, unknown> = { l0: { type: 'string', minLength: 1 } };
  for (let i = 1; i <= levels; i++) {
    const ref = { $ref: `#/$defs/l${i - 1}` };
    defs[`l${i}`] =
      shape === 'properties'
        ? { type: 'object', properties: { a: ref, b: ref } }
        : { anyOf: [{ allOf: [ref, { title: 'x' }] }, { allOf: [ref, { title: 'y' }] }] };
  }
  return { $ref: `#/$defs/l${levels}`, $defs: defs };
}

describe('SC-6 limits', () => {
  it('SC-6: a 10,000-deep schema is refused as SCHEMA_TOO_LARGE in under a second', () => {
    const { error, ms } = refusal(() => toGeminiSchema(deepFreeze(deepProperties(10_000))));
    expect(error).toBeInstanceOf(GeminiMcpError);
    expect(error).toMatchObject({ code: 'SCHEMA_TOO_LARGE', data: { maxDepth: 64 } });
    expect((error as GeminiMcpError).path).toMatch(/^(\/properties\/a){64,}/);
    expect(ms).toBeLessThan(1000);
  });

  it('SC-6: a 10,000-deep array nesting and a 10,000-deep default value are refused too', () => {
    let items: unknown = { type: 'string' };
    for (let i = 0; i < 10_000; i++) items = { type: 'array', items };
    let value: unknown = 1;
    for (let i = 0; i < 10_000; i++) value = [value];
    for (const schema of [items, { type: 'array', default: value }]) {
      const { error, ms } = refusal(() => toGeminiSchema(schema));
      expect(error).toMatchObject({ code: 'SCHEMA_TOO_LARGE' });
      expect(ms).toBeLessThan(1000);
    }
  });

  it.each(['properties', 'anyOf'] as const)(
    'SC-6: a billion-laughs $ref tree (%s) is refused as SCHEMA_TOO_LARGE in under a second',
    (shape) => {
      const { error, ms } = refusal(() => toGeminiSchema(deepFreeze(billionLaughs(30, shape))));
      expect(error).toBeInstanceOf(GeminiMcpError);
      expect(error).toMatchObject({ code: 'SCHEMA_TOO_LARGE', data: { maxExpandedNodes: 20_000 } });
      expect(ms).toBeLessThan(1000);
    },
  );

  it('SC-6: a small $ref tree within the budget converts', () => {
    const { schema } = toGeminiSchema(billionLaughs(4, 'properties'));
    expect(JSON.stringify(schema).match(/STRING/g)).toHaveLength(16);
  });

  it('SC-6: a $ref chain longer than maxDepth is refused', () => {
    const defs: Record<string, unknown> = { d0: { type: 'string' } };
    for (let i = 1; i <= 200; i++) defs[`d${i}`] = { $ref: `#/$defs/d${i - 1}` };
    const { error } = refusal(() => toGeminiSchema({ $ref: '#/$defs/d200', $defs: defs }));
    expect(error).toMatchObject({ code: 'SCHEMA_TOO_LARGE' });
  });

  it('SC-6: more schema nodes than maxNodes is refused; the limit is an option', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 200; i++) properties[`p${i}`] = { type: 'string' };
    const schema = { type: 'object', properties };
    expect(refusal(() => toGeminiSchema(schema, { maxNodes: 100 })).error).toMatchObject({
      code: 'SCHEMA_TOO_LARGE',
      data: { maxNodes: 100 },
    });
    expect(Object.keys(toGeminiSchema(schema).schema.properties ?? {})).toHaveLength(200);
  });

  it('SC-6: maxDepth and maxExpandedNodes are options', () => {
    expect(refusal(() => toGeminiSchema(deepProperties(5), { maxDepth: 4 })).error).toMatchObject({
      code: 'SCHEMA_TOO_LARGE',
      data: { maxDepth: 4 },
    });
    expect(toGeminiSchema(deepProperties(100), { maxDepth: 200 }).schema.type).toBe('OBJECT');
    expect(
      refusal(() => toGeminiSchema(deepProperties(5), { maxExpandedNodes: 3 })).error,
    ).toMatchObject({
      code: 'SCHEMA_TOO_LARGE',
      data: { maxExpandedNodes: 3 },
    });
  });

  it('SC-6: a JavaScript object cycle (not JSON) is refused, not followed forever', () => {
    const schema: { type: string; properties: Record<string, unknown> } = {
      type: 'object',
      properties: {},
    };
    schema.properties.self = schema;
    expect(refusal(() => toGeminiSchema(schema)).error).toMatchObject({ code: 'SCHEMA_TOO_LARGE' });
  });

  it('SC-6: a wide legitimate schema (5,000 properties) converts quickly', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 5000; i++) properties[`p${i}`] = { type: 'integer', minimum: 0 };
    const { error, ms } = refusal(() => {
      const { schema } = toGeminiSchema(deepFreeze({ type: 'object', properties }));
      expect(Object.keys(schema.properties ?? {})).toHaveLength(5000);
    });
    expect(error).toBeUndefined();
    expect(ms).toBeLessThan(1000);
  });
});
