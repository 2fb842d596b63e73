/** src/json/: the plain-JSON toolkit every layer above shares. */
import { describe, expect, it } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import { checkPart } from '../../src/generated/guards.js';
import { proveContract } from '../../src/json/contract.js';
import {
  cloneJson,
  frozenSnapshot,
  MAX_JSON_DEPTH,
  SharedLeaves,
  toPlainJson,
} from '../../src/json/copy.js';
import { hasInvisible, stripInvisible } from '../../src/json/invisible.js';
import { isJsonObject, isPlainObject, ownValue } from '../../src/json/object.js';
import { appendPointer, decodePointer } from '../../src/json/pointer.js';
import { sanitizeJsonStrings } from '../../src/json/sanitize.js';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('json: object checks', () => {
  it.each([
    ['a parsed object', JSON.parse('{"a":1}'), true, true],
    ['a null-prototype object', Object.create(null), true, true],
    ['an array', [], false, false],
    ['null', null, false, false],
    ['a class instance', new Date(0), true, false],
    ['a Map', new Map(), true, false],
  ])('%s: isJsonObject %s, isPlainObject %s', (_, value, json, plain) => {
    expect(isJsonObject(value)).toBe(json);
    expect(isPlainObject(value)).toBe(plain);
  });

  it('ownValue never reads the prototype', () => {
    const object = JSON.parse('{"__proto__": 1, "a": 2}') as Record<string, unknown>;
    expect(ownValue(object, '__proto__')).toBe(1);
    expect(ownValue({}, 'toString')).toBeUndefined();
    expect(ownValue({ a: 2 }, 'a')).toBe(2);
  });
});

describe('json: pointers (RFC 6901)', () => {
  it('encode and decode are inverses, ~ and / escaped', () => {
    const tokens = ['properties', 'a/b', 'c~d', '', '0'];
    const pointer = tokens.reduce(appendPointer, '');
    expect(pointer).toBe('/properties/a~1b/c~0d//0');
    expect(decodePointer(pointer)).toEqual(tokens);
  });

  it('the root and malformed pointers', () => {
    expect(decodePointer('')).toEqual([]);
    expect(decodePointer('a/b')).toBeUndefined();
    expect(decodePointer('/a~2')).toBeUndefined();
    expect(decodePointer('/a~')).toBeUndefined();
  });
});

describe('json: one depth policy for copies', () => {
  it('cloneJson copies whole, shares nothing, keeps __proto__ as a key', () => {
    const source = JSON.parse('{"__proto__": {"x": 1}, "list": [{"y": 2}]}') as Record<
      string,
      unknown
    >;
    const copy = cloneJson(source);
    expect(copy).toEqual(source);
    expect(copy.list).not.toBe(source.list);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it(`cloneJson refuses data deeper than ${MAX_JSON_DEPTH} levels, typed; toPlainJson cuts it with a marker at the same depth`, () => {
    expect(() => cloneJson(nested(MAX_JSON_DEPTH - 1))).not.toThrow();
    const deep = nested(20_000);
    expect(() => cloneJson(deep)).toThrow(GeminiMcpError);
    const plain = JSON.stringify(toPlainJson(deep));
    expect(plain).toContain(`[cut: nested deeper than ${MAX_JSON_DEPTH} levels]`);
    expect(plain.split('{"a":').length - 1).toBe(MAX_JSON_DEPTH);
  });

  it('issue 14: frozenSnapshot copies as cloneJson does, deep-frozen, and names the fields hiding text', () => {
    const source = JSON.parse(
      '{"__proto__": {"x": 1}, "plain": [{"y": "é ✓"}], "value": ["a", {"b": "c\u200b"}], "key": {"k\u00ad": 1}, "top": "t\u2060"}',
    ) as Record<string, unknown>;
    const { value, fieldsWithHiddenText } = frozenSnapshot(source);
    expect(value).toEqual(cloneJson(source));
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(value.plain).not.toBe(source.plain);
    const frozen: unknown[] = [value];
    for (let at = frozen.pop(); at !== undefined; at = frozen.pop()) {
      expect(Object.isFrozen(at)).toBe(true);
      for (const inner of Object.values(at as object)) {
        if (typeof inner === 'object' && inner !== null) frozen.push(inner);
      }
    }
    // A string value or an object key with an invisible character, at any depth of the field.
    expect(fieldsWithHiddenText).toEqual(['value', 'key', 'top']);
    expect(frozenSnapshot('x\u200b')).toEqual({ value: 'x\u200b', fieldsWithHiddenText: [] });
    expect(() => frozenSnapshot(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => frozenSnapshot(nested(MAX_JSON_DEPTH + 1))).toThrow(GeminiMcpError);
    expect(() => cloneJson(nested(MAX_JSON_DEPTH + 1))).toThrow(GeminiMcpError);
  });

  it('issue 34: snapshots made with one SharedLeaves share each leaf of equal JSON text (scalars only), never a node with children, their own level, an inexact scalar or a long text', () => {
    const leaves = new SharedLeaves();
    const long = 'x'.repeat(80);
    const holey = (): number[] => {
      const list = new Array<number>(3);
      list[0] = 1;
      list[2] = 2;
      return list;
    };
    const tool = (name: string) => ({
      name,
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: ['string', 'null'] }, c: { text: long } },
        required: ['a'],
      },
      inexact: [{ n: -0 }, holey(), { u: undefined }, { n: Number.NaN }],
    });
    const first = frozenSnapshot(tool('one'), leaves).value;
    const second = frozenSnapshot(tool('two'), leaves).value;
    for (const value of [first, second]) expect(value).toEqual(cloneJson(tool(value.name)));
    const [one, two] = [first.inputSchema, second.inputSchema];
    // Equal leaves are one frozen object across snapshots, and inside one (required, b.type).
    expect(two.properties.a).toBe(one.properties.a);
    expect(two.properties.b.type).toBe(one.properties.b.type);
    expect(two.required).toBe(one.required);
    expect(Object.isFrozen(one.properties.a)).toBe(true);
    // Nodes with children and the snapshot's own level stay its own; so does what JSON text
    // would change (-0, a hole, undefined, NaN) and a leaf whose text passes 64 characters.
    expect(two).not.toBe(one);
    expect(two.properties).not.toBe(one.properties);
    expect(second).not.toBe(first);
    expect(second.inexact.map((leaf, i) => leaf === first.inexact[i])).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(1 in (second.inexact[1] as unknown[])).toBe(false);
    expect(two.properties.c).not.toBe(one.properties.c);
    // Without a SharedLeaves, nothing is shared.
    expect(frozenSnapshot(tool('three')).value.inputSchema.properties.a).not.toBe(one.properties.a);
  });

  it('toPlainJson: non-finite numbers named, lone surrogates replaced, undefined left out', () => {
    expect(
      toPlainJson({ n: Number.NaN, i: -Infinity, s: 'a\ud800', u: undefined, list: [1n] }),
    ).toEqual({ n: 'NaN', i: '-Infinity', s: 'a\ufffd', list: ['1'] });
  });
});

describe('json: contract proof', () => {
  it('returns a valid value as it is, and throws CONTRACT_VIOLATION naming schema, tool and pointer otherwise', () => {
    const part = { text: 'hi' };
    expect(proveContract(part, checkPart, { schema: 'Part' })).toBe(part);
    try {
      proveContract({ text: 1 }, checkPart, { schema: 'Part', tool: 'hello' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GeminiMcpError);
      expect((error as GeminiMcpError).code).toBe('CONTRACT_VIOLATION');
      expect((error as GeminiMcpError).message).toContain('Part for tool "hello" at "/text"');
    }
  });
});

describe('json: sanitized strings', () => {
  it.each([
    ['printable ASCII', 'Says hello', false],
    ['tab and newline', 'a\tb\nc', false],
    ['visible non-ASCII', 'héllo 😀 日本', false],
    ['a zero-width space', 'he\u200Bllo', true],
    ['a bidi override', 'abc\u202E', true],
    ['a tag character', 'x\u{E0041}', true],
    ['a carriage return', 'a\rb', true],
    ['a lone surrogate', 'a\ud800', true],
    ['a soft hyphen', 'a\u00ADb', true],
  ])('PI-1: hasInvisible on %s is %s, as stripInvisible finds', (_, text, expected) => {
    expect(hasInvisible(text)).toBe(expected);
    expect(stripInvisible(text).removed > 0).toBe(expected);
  });

  it('issue 14: data without invisible characters is returned as it is, not copied', () => {
    const clean = { properties: { a: { title: 'x', enum: ['é', 1, null] } } };
    const result = sanitizeJsonStrings(clean);
    expect(result.value).toBe(clean);
    expect(result.changedStrings).toBe(0);
    const dirty = { properties: { a: { title: 'x\u200b' } }, other: { b: 'y' } };
    const cleaned = sanitizeJsonStrings(dirty);
    expect(cleaned.value).not.toBe(dirty);
    expect(cleaned.value).toEqual({ properties: { a: { title: 'x' } }, other: { b: 'y' } });
    expect(cleaned.pointers).toEqual(['/properties/a/title']);
  });

  it('issue 14: with freeze, the value returned is deep-frozen: the clean input itself, or the copy', () => {
    const isDeepFrozen = (value: unknown): boolean =>
      typeof value !== 'object' ||
      value === null ||
      (Object.isFrozen(value) && Object.values(value).every(isDeepFrozen));
    const clean = { properties: { a: { title: 'x', enum: ['é', { b: [1] }] } } };
    const kept = sanitizeJsonStrings(clean, { freeze: true });
    expect(kept.value).toBe(clean);
    expect(isDeepFrozen(clean)).toBe(true);
    const dirty = { properties: { a: { title: 'x\u200b' } }, other: { b: ['y'] } };
    const cleaned = sanitizeJsonStrings(dirty, { freeze: true });
    expect(cleaned.value).toEqual({ properties: { a: { title: 'x' } }, other: { b: ['y'] } });
    expect(isDeepFrozen(cleaned.value)).toBe(true);
    expect(Object.isFrozen(sanitizeJsonStrings({ a: 'x' }).value)).toBe(false);
  });

  it('a hidden key alone is reported, the value still returned as it is', () => {
    const data = { properties: { 'a\u200b': { type: 'string' } } };
    const result = sanitizeJsonStrings(data);
    expect(result.value).toEqual(data);
    expect(result.hiddenKeyPointers).toEqual(['/properties/a\u200b']);
  });
});
