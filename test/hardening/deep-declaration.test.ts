/**
 * Issue 38 item 13 (unit tier, `npm test`): the generated guards never overflow the stack. A
 * declaration nested 1,000-1,500 levels deep overflowed the stack of `checkFunctionDeclaration`
 * (a RangeError out of ajv's recursion, one call per level; where exactly depends on how warm
 * the validator is). Whatever the depth, a value the validator cannot recurse through is now one
 * violation at the pointer of its first level beyond 512, and `assertFunctionDeclaration` a
 * typed error.
 */
import { describe, expect, it } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import { isFunctionDeclaration } from '../../src/generated/guards.js';
import {
  assertFunctionDeclaration,
  checkFunctionDeclaration,
  checkGenerateContentRequest,
} from '../../src/schemas.js';

/** A declaration whose parameters nest `levels` object schemas, each under `properties.a`. */
function nestedDeclaration(levels: number): { name: string; parameters: object } {
  let schema: object = { type: 'STRING' };
  for (let i = 0; i < levels; i++) schema = { type: 'OBJECT', properties: { a: schema } };
  return { name: 'deep', parameters: schema };
}

/** The pointer of JSON level 513 (the first beyond 512) down /parameters/properties/a/... */
const FIRST_TOO_DEEP = `/parameters${'/properties/a'.repeat(256)}`;

describe('issue 38 item 13: deep declarations are refused typed, never a stack overflow', () => {
  it('checkFunctionDeclaration on a declaration nested 1,500 levels (the issue): no RangeError', () => {
    for (let round = 0; round < 3; round++) {
      expect(() => checkFunctionDeclaration(nestedDeclaration(1500))).not.toThrow();
    }
  });

  for (const levels of [10_000, 100_000]) {
    it(`checkFunctionDeclaration on a declaration nested ${levels.toLocaleString('en-US')} levels: one maxDepth violation with its pointer`, () => {
      expect(checkFunctionDeclaration(nestedDeclaration(levels))).toEqual([
        { path: FIRST_TOO_DEEP, message: 'nests deeper than 512 levels', keyword: 'maxDepth' },
      ]);
    });
  }

  it('assertFunctionDeclaration: GeminiMcpError INVALID_PAYLOAD at that pointer; isFunctionDeclaration: false', () => {
    const declaration = nestedDeclaration(100_000);
    let thrown: unknown;
    try {
      assertFunctionDeclaration(declaration);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GeminiMcpError);
    expect(thrown).toMatchObject({ code: 'INVALID_PAYLOAD', path: FIRST_TOO_DEEP });
    expect(isFunctionDeclaration(declaration)).toBe(false);
  });

  it('a whole request holding that declaration: bounded the same way', () => {
    const request = {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      tools: [{ functionDeclarations: [nestedDeclaration(100_000)] }],
    };
    const [first] = checkGenerateContentRequest(request);
    expect(first).toMatchObject({ keyword: 'maxDepth', message: 'nests deeper than 512 levels' });
    expect(first?.path.startsWith('/tools/0/functionDeclarations/0/parameters/properties/a')).toBe(
      true,
    );
  });

  it('a declaration within the bound is checked as before (a violation inside it still found)', () => {
    expect(checkFunctionDeclaration(nestedDeclaration(200)).map((v) => v.keyword)).not.toContain(
      'maxDepth',
    );
    const bad = { name: 'bad name', parameters: nestedDeclaration(200).parameters };
    expect(checkFunctionDeclaration(bad).map((v) => v.path)).toContain('/name');
  });
});
