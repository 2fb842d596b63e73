/**
 * SC-6 / issue 14 item 1: no real tool refused. Recursive `$ref` graphs that expand past 20,000
 * nodes at the default `maxRefDepth` (the shapes of layout and directory servers) convert within
 * the node budget, every cut reported as weakened at its `$ref`, in under 5 ms of CPU each; only
 * a true bomb is refused, within a millisecond.
 */
import { describe, expect, it } from 'vitest';
import { checkSchema } from '../../src/generated/guards.js';
import type { Schema } from '../../src/generated/types.js';
import type { ToGeminiSchemaOptions } from '../../src/schema/to-gemini-schema.js';
import { toGeminiSchema } from '../../src/schema/to-gemini-schema.js';
import { billionLaughs, componentTree, entityCycle, entityGraph } from './shapes.js';
import { atPointer, deepFreeze } from './support.js';

/** The least CPU time (ms) of several runs after a warm-up: one run can meet a GC pause or a JIT compile. */
function cpuMs(run: () => unknown, runs = 7): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i <= runs; i++) {
    const start = process.cpuUsage();
    try {
      run();
    } catch {
      // refusals are timed too
    }
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

function nodes(schema: Schema): number {
  let count = 1;
  for (const child of Object.values(schema.properties ?? {})) count += nodes(child);
  if (schema.items !== undefined) count += nodes(schema.items);
  for (const branch of schema.anyOf ?? []) count += nodes(branch);
  return count;
}

/** Converts `given`, checks the output and the warnings' paths, and returns them. */
function convert(given: unknown, options: ToGeminiSchemaOptions = {}) {
  const input = deepFreeze(given);
  const result = toGeminiSchema(input, options);
  expect(checkSchema(result.schema)).toEqual([]);
  for (const warning of result.warnings) {
    expect(atPointer(input, warning.path), warning.path).toBeDefined();
  }
  return result;
}

describe('SC-6 recursive $ref graphs within the budget', () => {
  it('issue 14: unrolled maxRefDepth (3) times, as before the budget, the component tree is huge', () => {
    const unbounded = { maxOutputNodes: 1_000_000 };
    const tree = toGeminiSchema(componentTree(), unbounded).schema;
    expect(nodes(tree)).toBeGreaterThan(5_000);
    expect(JSON.stringify(tree).length).toBeGreaterThan(500_000);
    // The entity cycle, unrolled so, passed maxExpandedNodes: the old converter refused it
    // (shape/entityCycle in __snapshots__/outputs.txt before this change).
  });

  it('issue 14: a self-recursive component tree converts, each recursion cut at its first re-entry and reported', () => {
    const { schema, warnings } = convert(componentTree());
    expect(nodes(schema)).toBeLessThanOrEqual(500);
    expect(JSON.stringify(schema).length).toBeLessThan(20_000);
    // One cut per slot that refers back to the component, each weakened at its $ref.
    expect(warnings).toHaveLength(16);
    for (const warning of warnings) {
      expect(warning).toMatchObject({ keyword: '$ref', action: 'weakened' });
      expect(warning.path).toMatch(/^\/\$defs\/Component\/properties\/slot\d+(\/items)?$/);
      expect(warning.detail).toContain('cut at its first re-entry');
    }
    // A cut component keeps its type and description.
    const root = schema.properties?.root;
    expect(root?.properties?.slot0).toEqual({
      type: 'OBJECT',
      description: 'Slot 0\n\nA layout component',
    });
    expect(cpuMs(() => toGeminiSchema(componentTree()))).toBeLessThan(5);
  });

  it('issue 14: a cycle of 3 entity definitions each referring to the others converts with its cuts reported', () => {
    const { schema, warnings } = convert(entityCycle());
    expect(nodes(schema)).toBeLessThanOrEqual(500);
    expect(JSON.stringify(schema).length).toBeLessThan(20_000);
    expect(warnings.length).toBeGreaterThan(0);
    for (const warning of warnings) {
      expect(warning).toMatchObject({ keyword: '$ref', action: 'weakened' });
      expect(warning.path).toMatch(/^\/definitions\/(User|Group|Device)\/properties\//);
      expect(warning.detail).toMatch(
        /recursive \$ref cycle #\/definitions\/\w+ -> .* cut at its first re-entry/,
      );
    }
    // Each entity is expanded once on a path: a user's group's device is there, its user is cut.
    const group = schema.properties?.user?.properties?.group;
    expect(group?.properties?.device?.description).toBe('A Device');
    expect(group?.properties?.user).toEqual({ type: 'OBJECT', description: 'A User' });
    expect(cpuMs(() => toGeminiSchema(entityCycle()))).toBeLessThan(5);
  });

  it('issue 14: a graph whose paths alone exceed the budget is expanded breadth-first, the deeper $refs cut', () => {
    const { schema, warnings } = convert(entityGraph(12));
    expect(nodes(schema)).toBeLessThanOrEqual(500);
    const breadth = warnings.filter((w) => w.detail.includes('breadth-first'));
    expect(breadth.length).toBeGreaterThan(0);
    for (const warning of breadth)
      expect(warning).toMatchObject({ keyword: '$ref', action: 'weakened' });
    // The first level is whole; below the cut, entities are loose OBJECTs keeping their description.
    const root = schema.properties?.root;
    expect(Object.keys(root?.properties ?? {})).toHaveLength(13);
    expect(root?.properties?.entity5?.properties?.entity7).toEqual({
      type: 'OBJECT',
      description: 'The Entity7',
    });
    expect(cpuMs(() => toGeminiSchema(entityGraph(12)))).toBeLessThan(5);
  });

  it('issue 14: maxOutputNodes is an option; within it the recursion is unrolled maxRefDepth times as before', () => {
    const small = convert(componentTree(1));
    expect(small.warnings[0]?.detail).toContain('cut after 3 expansions');
    const tight = convert(componentTree(1), { maxOutputNodes: 5 });
    expect(tight.warnings[0]?.detail).toContain('cut at its first re-entry');
    expect(nodes(tight.schema)).toBeLessThan(nodes(small.schema));
  });

  it('SC-6: a billion-laughs fan-out without recursion is refused at once, before any conversion', () => {
    for (const shape of ['properties', 'anyOf'] as const) {
      expect(() => toGeminiSchema(billionLaughs(30, shape))).toThrow(
        expect.objectContaining({ code: 'SCHEMA_TOO_LARGE', data: { maxExpandedNodes: 20_000 } }),
      );
      // About 0.2 ms alone; the ceiling is generous, for a loaded machine running suites in parallel.
      expect(cpuMs(() => toGeminiSchema(billionLaughs(30, shape)), 15)).toBeLessThan(5);
    }
  });
});
