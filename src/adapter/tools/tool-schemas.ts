/**
 * The JSON Schemas MCP servers publish with their tools (`inputSchema`, `outputSchema`):
 * compiled with ajv in the dialect the schema names, and the one place where a value is checked
 * against them and the violations are worded.
 *
 * A server's schema is hostile until bounded: patterns run on a linear-time engine (RE2JS, no
 * backtracking), `uniqueItems` is a hashed linear check, values nested too deep are refused
 * before ajv recurses into them, and compiled validators are cached by content with a bound.
 *
 * ajv's builds, RE2JS and `node:crypto` load when first needed (a pattern met, a schema
 * compiled), through `require`, which is synchronous: importing the library costs none of them.
 */

import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { RE2JS } from 're2js';
import type { ViolationDetail } from '../../errors.js';
import { enumMessage } from '../../generated/guards-common.js';
import { MAX_JSON_DEPTH } from '../../json/copy.js';
import { nestedBeyond } from '../../json/depth.js';
import { isJsonObject } from '../../json/object.js';
import { appendPointer, decodePointer } from '../../json/pointer.js';

/** Most violations reported for one value. */
const MAX_VIOLATIONS = 10;

/** Deepest value checked (as deep as a value is sent, see `toPlainJson`); deeper is a violation. */
export const MAX_VALUE_DEPTH = MAX_JSON_DEPTH;

/** The `keyword` of the violation reported for a value nested deeper than {@link MAX_VALUE_DEPTH}. */
export const TOO_DEEP = 'maxDepth';

/** Compiled schemas kept by content (least recently used dropped first). */
const MAX_CACHED_SCHEMAS = 256;

/** Schemas one ajv instance compiles before a fresh one takes over (ajv never forgets any). */
const COMPILES_PER_ENGINE = 64;

const load = createRequire(import.meta.url);

let re2: typeof RE2JS | undefined;

/** RE2JS, loaded with the first pattern. */
function linearEngine(): typeof RE2JS {
  re2 ??= (load('re2js') as typeof import('re2js')).RE2JS;
  return re2;
}

/** A pattern on RE2JS: linear in the input, whatever the pattern. */
interface LinearPattern {
  test(text: string): boolean;
  toString(): string;
}

/** ajv's `code.regExp`: RE2JS for every pattern (JavaScript syntax translated first). */
function linearRegExp(pattern: string): LinearPattern {
  const engine = linearEngine();
  const compiled = engine.compile(engine.translateRegExp(pattern));
  return {
    test: (text) => compiled.matcher(text).find(),
    // ajv keys its patterns by this text: two patterns must never share it.
    toString: () => `re2:${pattern}`,
  };
}
linearRegExp.code = 'RE2JS';

/** Whether RE2JS takes the pattern (`false` for lookaround, backreferences, bad syntax). */
function isLinearPattern(pattern: string): boolean {
  try {
    linearRegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** Canonical JSON (object keys sorted): equal texts for deep-equal JSON values. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** `uniqueItems` in linear time: items hashed by canonical JSON (ajv's own check is quadratic). */
function uniqueItems(unique: boolean, data: unknown[]): boolean {
  if (!unique) return true;
  const seen = new Set<string>();
  for (const item of data) {
    const key =
      typeof item === 'object' && item !== null
        ? canonicalJson(item)
        : `${typeof item}:${String(item)}`;
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

const OPTIONS: Options = {
  strict: false,
  allErrors: true,
  addUsedSchema: false,
  validateFormats: false,
  logger: false,
  // 0.07 is a multiple of 0.01 (0.07 / 0.01 is 7.000000000000001 in floating point).
  multipleOfPrecision: 9,
  code: { regExp: linearRegExp },
};

type Engine = Ajv | Ajv2019 | Ajv2020;
type DialectName = 'draft07' | 'draft2019' | 'draft2020';

/** A fresh ajv of the dialect's build (the build loaded with the dialect's first schema). */
function newEngine(dialect: DialectName): Engine {
  const engine =
    dialect === 'draft07'
      ? new (load('ajv') as typeof import('ajv')).Ajv(OPTIONS)
      : dialect === 'draft2019'
        ? new (load('ajv/dist/2019.js') as typeof import('ajv/dist/2019.js')).Ajv2019(OPTIONS)
        : new (load('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020(OPTIONS);
  engine.removeKeyword('uniqueItems');
  engine.addKeyword({
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    errors: false,
    validate: uniqueItems,
  });
  return engine;
}

/**
 * The ajv instance per dialect, replaced after {@link COMPILES_PER_ENGINE} compilations: an
 * instance keeps every schema it compiled, so a retired one is freed once the validators it
 * made are gone (with the tool sets and cache entries holding them).
 */
const engines = new Map<DialectName, { engine: Engine; compiles: number }>();

/** Draft-07 for `$schema` draft-04 to -07 (they mostly read the same), 2019-09, else 2020-12. */
function dialectOf($schema: unknown): DialectName {
  const dialect = typeof $schema === 'string' ? $schema : '';
  if (/json-schema\.org\/draft-0[4-7]\/schema/.test(dialect)) return 'draft07';
  if (dialect.includes('2019-09')) return 'draft2019';
  return 'draft2020';
}

function compileIn(dialect: DialectName, body: object): ValidateFunction {
  let current = engines.get(dialect);
  if (current === undefined || current.compiles >= COMPILES_PER_ENGINE) {
    current = { engine: newEngine(dialect), compiles: 0 };
    engines.set(dialect, current);
  }
  current.compiles += 1;
  return current.engine.compile(body);
}

/** A keyword of a server's schema that is not checked, and why. */
export interface UncheckedKeyword {
  /** JSON pointer to the keyword in the schema. */
  readonly path: string;
  /**
   * `pattern`, `patternProperties` (one entry of it) or the `additionalProperties` /
   * `unevaluatedProperties` beside it, or a `$ref` to a schema outside the document (a network
   * URI: never fetched).
   */
  readonly keyword: string;
  /** Why it is not checked. */
  readonly reason: string;
}

/** Keywords whose values are data, not schemas: never searched for patterns. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);

interface Analysis {
  /** The schema to compile: the original, or a copy without the keywords below. */
  readonly body: Record<string, unknown>;
  readonly dialect: DialectName;
  readonly unchecked: readonly UncheckedKeyword[];
}

function unsupported(pattern: string): string {
  return `pattern ${JSON.stringify(pattern)} is outside the linear-time regular expression syntax (RE2: no lookaround, no backreferences)`;
}

/** Characters of a `$ref` quoted in a reason, at most. */
const MAX_QUOTED_REF = 200;

/**
 * Whether `ref` points into the schema's own document: a fragment (`#/$defs/x`, `#anchor`), or
 * the root's `$id` with or without one. Anything else (a network URI, another file) would need
 * a fetch, which MCP 2026-07-28 (SEP-2106) forbids a client to make on its own.
 */
function isDocumentRef(ref: string, rootId: unknown): boolean {
  if (ref.startsWith('#')) return true;
  return typeof rootId === 'string' && (ref === rootId || ref.startsWith(`${rootId}#`));
}

/**
 * The keywords argument checks cannot run, found by an iterative walk over the schema's
 * subschemas (data keywords skipped): patterns RE2JS cannot run, and `$ref`s outside the
 * document (never fetched). A bad `pattern` or an outside `$ref` is left out; a bad
 * `patternProperties` entry is left out with the `additionalProperties` /
 * `unevaluatedProperties` beside it (which properties it covered is unknown), so nothing valid
 * is refused.
 */
function findUnchecked(schema: Record<string, unknown>): UncheckedKeyword[] {
  const unchecked: UncheckedKeyword[] = [];
  const pending: Array<{ node: unknown; pointer: string }> = [{ node: schema, pointer: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { node, pointer } = next;
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        pending.push({ node: item, pointer: appendPointer(pointer, index) });
      });
      continue;
    }
    if (!isJsonObject(node)) continue;
    for (const [key, value] of Object.entries(node)) {
      const at = appendPointer(pointer, key);
      if (key === 'pattern' && typeof value === 'string') {
        if (!isLinearPattern(value))
          unchecked.push({ path: at, keyword: key, reason: unsupported(value) });
      } else if (key === '$ref' && typeof value === 'string') {
        if (!isDocumentRef(value, schema.$id)) {
          const quoted = JSON.stringify(value.slice(0, MAX_QUOTED_REF));
          unchecked.push({
            path: at,
            keyword: key,
            reason: `${quoted} is outside the schema's document, and never fetched`,
          });
        }
      } else if (key === 'patternProperties' && isJsonObject(value)) {
        const bad = Object.keys(value).filter((pattern) => !isLinearPattern(pattern));
        for (const pattern of bad) {
          unchecked.push({
            path: appendPointer(at, pattern),
            keyword: key,
            reason: unsupported(pattern),
          });
        }
        if (bad.length > 0) {
          for (const beside of ['additionalProperties', 'unevaluatedProperties']) {
            if (Object.hasOwn(node, beside) && node[beside] !== true) {
              unchecked.push({
                path: appendPointer(pointer, beside),
                keyword: beside,
                reason: 'a patternProperties entry beside it is not checked',
              });
            }
          }
        }
      }
      if (!DATA_KEYWORDS.has(key)) pending.push({ node: value, pointer: at });
    }
  }
  return unchecked;
}

/** `schema` without the unchecked keywords (copied along their paths only). */
function withoutUnchecked(
  schema: Record<string, unknown>,
  unchecked: readonly UncheckedKeyword[],
): Record<string, unknown> {
  const root = { ...schema };
  for (const { path } of unchecked) {
    const tokens = decodePointer(path) ?? [];
    const last = tokens.pop();
    let node: Record<string, unknown> = root;
    for (const token of tokens) {
      const child: unknown = node[token];
      // Arrays are copied as objects keyed by index would not be: keep them arrays.
      const copy = (Array.isArray(child) ? child.slice() : { ...(child as object) }) as Record<
        string,
        unknown
      >;
      node[token] = copy;
      node = copy;
    }
    if (last !== undefined) delete (node as Record<string, unknown>)[last];
  }
  return root;
}

const analyses = new WeakMap<object, Analysis>();

function analysisOf(schema: object): Analysis {
  let analysis = analyses.get(schema);
  if (analysis === undefined) {
    const { $schema, ...body } = schema as Record<string, unknown>;
    const unchecked = findUnchecked(body);
    analysis = {
      body: unchecked.length === 0 ? body : withoutUnchecked(body, unchecked),
      dialect: dialectOf($schema),
      unchecked,
    };
    analyses.set(schema, analysis);
  }
  return analysis;
}

/**
 * The keywords of a server's JSON Schema that {@link toolSchemaViolations} does not check: each
 * `pattern` (or `patternProperties` entry) outside the linear-time RE2 syntax (lookaround,
 * backreferences, invalid syntax), and each `$ref` outside the schema's document (a network URI,
 * which is never fetched: MCP 2026-07-28, SEP-2106), with its path (JSON pointer) into the
 * schema. Everything else the schema says is still checked. `functionDeclarations` reports
 * these through `onWarning`.
 *
 * @example
 * ```ts
 * uncheckedKeywords({ type: 'string', pattern: '^(?!admin)' });
 * // [{ path: '/pattern', keyword: 'pattern', reason: 'pattern "^(?!admin)" is outside ...' }]
 * ```
 */
export function uncheckedKeywords(schema: object): readonly UncheckedKeyword[] {
  return analysisOf(schema).unchecked;
}

/** Compiled validators by content (insertion order is recency); `null`: ajv cannot compile it. */
const byContent = new Map<string, ValidateFunction | null>();
/** The same, by schema object: no hashing on the hot path. */
const bySchema = new WeakMap<object, ValidateFunction | null>();

function contentKey(analysis: Analysis): string | undefined {
  const { createHash } = load('node:crypto') as typeof import('node:crypto');
  try {
    return createHash('sha256')
      .update(`${analysis.dialect}\n${JSON.stringify(analysis.body)}`)
      .digest('base64');
  } catch {
    return undefined; // too deep for JSON.stringify: not cached by content
  }
}

function compile(analysis: Analysis): ValidateFunction | null {
  try {
    return compileIn(analysis.dialect, analysis.body);
  } catch {
    return null;
  }
}

/** The schema's validator, compiled once per content and cached; `null` when ajv cannot compile it. */
function validatorOf(schema: object): ValidateFunction | null {
  const known = bySchema.get(schema);
  if (known !== undefined) return known;
  const analysis = analysisOf(schema);
  const key = contentKey(analysis);
  let validate = key === undefined ? undefined : byContent.get(key);
  if (validate === undefined) validate = compile(analysis);
  if (key !== undefined) {
    byContent.delete(key);
    byContent.set(key, validate);
    if (byContent.size > MAX_CACHED_SCHEMAS) {
      const oldest = byContent.keys().next().value;
      if (oldest !== undefined) byContent.delete(oldest);
    }
  }
  bySchema.set(schema, validate);
  return validate;
}

/** The value at a violation's instance path (its depth already bounded), for the message. */
function valueAt(value: unknown, pointer: string): unknown {
  let at = value;
  for (const token of decodePointer(pointer) ?? []) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = Object.hasOwn(at, token) ? (at as Record<string, unknown>)[token] : undefined;
  }
  return at;
}

/** ajv errors as violations, worded as the generated guards word them. */
function violationsOf(
  errors: readonly ErrorObject[] | null | undefined,
  value: unknown,
): ViolationDetail[] {
  return (errors ?? []).slice(0, MAX_VIOLATIONS).map((error) => {
    if (error.keyword === 'enum' || error.keyword === 'const') {
      const { allowedValues, allowedValue } = error.params as Record<string, unknown>;
      const allowed = error.keyword === 'const' ? [allowedValue] : allowedValues;
      return {
        path: error.instancePath,
        message: enumMessage(
          valueAt(value, error.instancePath),
          Array.isArray(allowed) ? allowed : [],
        ),
        keyword: error.keyword,
      };
    }
    const missing = error.keyword === 'required' ? error.params.missingProperty : undefined;
    if (typeof missing === 'string') {
      return {
        path: appendPointer(error.instancePath, missing),
        message: `required field "${missing}" is missing`,
        keyword: 'required',
      };
    }
    if (error.keyword === 'uniqueItems') {
      return {
        path: error.instancePath,
        message: 'must NOT have duplicate items',
        keyword: 'uniqueItems',
      };
    }
    return {
      path: error.instancePath,
      message: error.message ?? `fails ${error.keyword}`,
      keyword: error.keyword,
    };
  });
}

/**
 * The violations of `value` against a server's JSON Schema (empty when it conforms), at most
 * ten, each with the JSON pointer into `value`. Draft 2020-12 by default, draft-07 when the
 * schema's `$schema` says so (04 and 06 are read as 07); formats are not checked. A schema ajv
 * cannot compile (an unknown feature) checks nothing: `undefined`, and the
 * server stays the judge of its own data.
 *
 * Bounded whatever the schema and value: patterns run in linear time (those RE2 cannot run are
 * left out, see {@link uncheckedKeywords}), `uniqueItems` is linear, `multipleOf` allows for
 * floating point (0.07 is a multiple of 0.01), a `$ref` outside the document is left out (never
 * fetched), and a value nested deeper than
 * {@link MAX_VALUE_DEPTH} is one violation with keyword {@link TOO_DEEP}, never a stack overflow.
 *
 * @example
 * ```ts
 * toolSchemaViolations(tool.inputSchema, { city: 42 });
 * // [{ path: '/city', message: 'must be string', keyword: 'type' }]
 * ```
 */
export function toolSchemaViolations(
  schema: object,
  value: unknown,
): ViolationDetail[] | undefined {
  const validate = validatorOf(schema);
  if (validate === null) return undefined;
  const deepAt = nestedBeyond(value, MAX_VALUE_DEPTH - 1);
  if (deepAt !== undefined) {
    return [
      { path: deepAt, message: `nests deeper than ${MAX_VALUE_DEPTH} levels`, keyword: TOO_DEEP },
    ];
  }
  return validate(value) ? [] : violationsOf(validate.errors, value);
}
