/**
 * Issue 13 (item 8): no spread over a possibly unbounded array in a call's arguments anywhere
 * in src/ (`f(...xs)`, `push(...xs)`, `Math.max(...xs)`, `Object.assign({}, ...xs)`): past
 * about 100,000 elements such a call throws a RangeError (the arguments do not fit the stack).
 * Rest parameters (`(...keys: string[])`) and array or object literals are fine.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** A `(` that opens a call (after a name, `)` or `]`; not `for (`, `if (` ...), then `...` before any other paren. */
const SPREAD_ARGUMENT =
  /(?<![\w$])(?!(?:for|if|while|switch|catch|function)\b)([\w$.]+|\)|\])\s*\(((?:[^(){}[\]]|\{\}|\[\])*?,\s*)?\.\.\.(?![\w$]+\s*[:?])/;

function spreadCalls(text: string): string[] {
  return text
    .split('\n')
    .map((line, i) => ({ line: line.trim(), number: i + 1 }))
    .filter(({ line }) => !/^(\*|\/\/|\/\*)/.test(line))
    .filter(({ line }) => SPREAD_ARGUMENT.test(line))
    .map(({ line, number }) => `${number}: ${line}`);
}

describe('issue 13: no spread in call arguments in src/', () => {
  it('the pattern finds what it must and skips rest parameters', () => {
    expect(spreadCalls('a.push(...items);')).toHaveLength(1);
    expect(spreadCalls('Math.max(...rows.map((r) => r.length))')).toHaveLength(1);
    expect(spreadCalls('Object.assign({}, ...chunks)')).toHaveLength(1);
    expect(spreadCalls("childPointer('', ...tokens)")).toHaveLength(1);
    expect(spreadCalls('function f(pointer: string, ...tokens: readonly string[]) {')).toEqual([]);
    expect(spreadCalls('const has = (value: object, ...keys: string[]) => true;')).toEqual([]);
    expect(spreadCalls('for (const [i, { a, ...rest }] of list) {')).toEqual([]);
    expect(spreadCalls('f({ ...options, a: 1 }, [...xs])')).toEqual([]);
    expect(spreadCalls('report({ file, ...(line === undefined ? {} : { line }) })')).toEqual([]);
  });

  it('no file of src/ (but src/generated) spreads into a call', () => {
    const hits = sources(join(ROOT, 'src')).flatMap((file) => {
      const name = relative(ROOT, file);
      return spreadCalls(readFileSync(file, 'utf8')).map((hit) => `${name}:${hit}`);
    });
    expect(hits).toEqual([]);
  });
});
