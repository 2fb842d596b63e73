/**
 * What the API enforces beyond its schemas (the generated `API_LIMITS`, from schemas/limits.json),
 * as a budget per dialect and model, and the checks of one declaration against it. The tool set's
 * declarations are fitted to a budget in tools/fit.ts; whole requests are checked in
 * turn/request-checks.ts; both read the limits from here.
 */

import { Buffer } from 'node:buffer';
import { GeminiMcpError } from '../errors.js';
import { API_LIMITS, type ApiLimitId, type LimitDialect } from '../generated/limits.js';
import { isJsonObject } from '../json/object.js';
import { appendPointer } from '../json/pointer.js';
import { type ApiDialect, apiDialect, type Dialect } from './dialect.js';

/**
 * What a budget is for, and the figures set by hand. Every figure defaults to the limit of the
 * dialect (schemas/limits.json); a figure given replaces it, higher or lower (`Infinity`: no cap).
 */
export interface BudgetOptions {
  /** The API and version the request goes to (default `'gemini'`; `'vertex'` is `'vertex-v1beta1'`). */
  readonly dialect?: Dialect;
  /** The model the request goes to, where a limit differs per model (none known to differ yet). */
  readonly model?: string;
  /** Function declarations in one request, at most (default 512 for the Gemini API, 128 for Vertex AI). */
  readonly maxDeclarations?: number;
  /** UTF-8 bytes of the declarations of one request, as JSON, together (default 49,152). */
  readonly maxRequestBytes?: number;
  /** UTF-8 bytes of one declaration, as JSON (default 49,152). */
  readonly maxDeclarationBytes?: number;
  /** JSON levels one declaration's schemas nest, at most (default 7; a schema itself is level 1). */
  readonly maxDepth?: number;
}

/** A budget resolved for one dialect: what one request's declarations must fit. */
export interface DeclarationBudget {
  readonly dialect: ApiDialect;
  readonly model?: string;
  readonly maxDeclarations: number;
  readonly maxRequestBytes: number;
  readonly maxDeclarationBytes: number;
  readonly maxDepth: number;
}

/** The value of a numeric limit in `dialect`. */
function limitNumber(id: ApiLimitId, dialect: LimitDialect): number {
  const value: unknown = API_LIMITS[id].value[dialect];
  if (typeof value !== 'number') throw new TypeError(`limit ${id} has no number for ${dialect}`);
  return value;
}

const patterns = new Map<string, RegExp>();

/** The value of a pattern limit in `dialect` (or what the API's texts accept), compiled once. */
function limitPattern(id: ApiLimitId, dialect: LimitDialect, accepted = false): RegExp {
  const key = `${id}|${dialect}|${accepted}`;
  let pattern = patterns.get(key);
  if (pattern === undefined) {
    const limit = API_LIMITS[id] as {
      value: Record<string, unknown>;
      accepted?: Record<string, unknown>;
    };
    const value = accepted
      ? (limit.accepted?.[dialect] ?? limit.value[dialect])
      : limit.value[dialect];
    if (typeof value !== 'string') throw new TypeError(`limit ${id} has no pattern for ${dialect}`);
    pattern = new RegExp(value);
    patterns.set(key, pattern);
  }
  return pattern;
}

const BUDGET_FIGURES = [
  ['maxDeclarations', 'declarations-per-request'],
  ['maxRequestBytes', 'request-declaration-bytes'],
  ['maxDeclarationBytes', 'declaration-bytes'],
  ['maxDepth', 'schema-depth'],
] as const satisfies readonly (readonly [keyof BudgetOptions, ApiLimitId])[];

/**
 * The budget of a dialect (and model): the limits of schemas/limits.json, with any figure of
 * `options` in place of its limit. Throws INVALID_INPUT (naming the option) for a figure that is
 * not a whole number of at least 1 or `Infinity`, and for an unknown dialect.
 *
 * @example
 * ```ts
 * resolveBudget({ dialect: 'vertex' }).maxDeclarations; // 128
 * resolveBudget({ maxRequestBytes: 100_000 }).maxRequestBytes; // 100000
 * ```
 */
export function resolveBudget(options: BudgetOptions = {}): DeclarationBudget {
  const dialect = apiDialect(options.dialect);
  const figures: Record<string, number> = {};
  for (const [option, limit] of BUDGET_FIGURES) {
    const given: unknown = options[option];
    if (given === undefined) {
      figures[option] = limitNumber(limit, dialect);
      continue;
    }
    if (
      typeof given !== 'number' ||
      !(given === Number.POSITIVE_INFINITY || (Number.isSafeInteger(given) && given >= 1))
    ) {
      throw new GeminiMcpError(
        'INVALID_INPUT',
        `budget option ${option} must be a whole number >= 1 (or Infinity), got ${typeof given === 'number' ? String(given) : typeof given}`,
        { path: `/${option}`, data: { option, expected: 'a whole number >= 1, or Infinity' } },
      );
    }
    figures[option] = given;
  }
  return {
    dialect,
    ...(options.model === undefined ? {} : { model: options.model }),
    maxDeclarations: figures.maxDeclarations!,
    maxRequestBytes: figures.maxRequestBytes!,
    maxDeclarationBytes: figures.maxDeclarationBytes!,
    maxDepth: figures.maxDepth!,
  };
}

/** Where a limit comes from, in a few words: the first two sources that speak for `dialect`. */
export function limitSource(id: ApiLimitId, dialect: ApiDialect): string {
  const key = `${id}|${dialect}`;
  let text = sourceTexts.get(key);
  if (text === undefined) {
    text = sourceText(id, dialect);
    sourceTexts.set(key, text);
  }
  return text;
}

const sourceTexts = new Map<string, string>();

function sourceText(id: ApiLimitId, dialect: ApiDialect): string {
  const sources = API_LIMITS[id].sources as readonly {
    kind: string;
    dialects: readonly string[];
    cite?: string;
    document?: string;
    at?: string;
  }[];
  const named = sources
    .filter((source) => source.dialects.includes(dialect))
    .map((source) =>
      source.kind === 'reference'
        ? `${source.document === 'gemini-discovery' ? 'the Gemini API reference' : 'the Vertex AI reference'} at ${source.at}`
        : String(source.cite),
    );
  return [...new Set(named)].slice(0, 2).join('; ') || 'schemas/limits.json';
}

/** Size and depth of one declaration. */
export interface DeclarationMeasure {
  /** UTF-8 bytes of the declaration as JSON. */
  readonly bytes: number;
  /**
   * JSON levels its schemas nest (0 without schemas): a schema is level 1, each object or array
   * inside it one level below the one holding it.
   */
  readonly depth: number;
  /** JSON pointer (within the declaration) of the first object or array at that depth. */
  readonly deepest?: string;
}

/** The declaration fields that hold schemas, in both forms. */
const SCHEMA_FIELDS = ['parameters', 'parametersJsonSchema', 'response', 'responseJsonSchema'];

/** Keywords holding one schema, a list of them, or a map of names to them. */
const ONE = ['items', 'additionalProperties', 'not'];
const LIST = ['items', 'prefixItems', 'anyOf', 'oneOf', 'allOf'];
const MAP = ['properties', '$defs', 'definitions'];

interface Place {
  readonly value: Record<string, unknown>;
  readonly pointer: string;
  readonly level: number;
}

/** Calls `visit` for every schema inside `schema` (itself included), iteratively, with its level. */
function walkSchemas(schema: unknown, pointer: string, visit: (place: Place) => void): void {
  if (!isJsonObject(schema)) return;
  const stack: Place[] = [{ value: schema, pointer, level: 1 }];
  for (let place = stack.pop(); place !== undefined; place = stack.pop()) {
    visit(place);
    const { value, level } = place;
    const push = (child: unknown, at: string): void => {
      if (isJsonObject(child)) stack.push({ value: child, pointer: at, level: level + 1 });
    };
    for (const key of ONE) {
      if (Object.hasOwn(value, key)) push(value[key], appendPointer(place.pointer, key));
    }
    for (const key of LIST) {
      const list = Object.hasOwn(value, key) ? value[key] : undefined;
      if (!Array.isArray(list)) continue;
      const at = appendPointer(place.pointer, key);
      list.forEach((child, index) => {
        push(child, appendPointer(at, index));
      });
    }
    for (const key of MAP) {
      const map = Object.hasOwn(value, key) ? value[key] : undefined;
      if (!isJsonObject(map)) continue;
      const at = appendPointer(place.pointer, key);
      for (const [name, child] of Object.entries(map)) push(child, appendPointer(at, name));
    }
  }
}

const measured = new WeakMap<object, DeclarationMeasure>();

interface Level {
  readonly value: object;
  readonly level: number;
  readonly parent: Level | undefined;
  readonly token: string | number;
}

/** The JSON depth of `value` (an object or array is level 1) and the first place that deep. */
function jsonDepth(value: unknown, pointer: string): { depth: number; deepest?: string } {
  if (typeof value !== 'object' || value === null) return { depth: 0 };
  let deepest: Level = { value, level: 1, parent: undefined, token: '' };
  const stack: Level[] = [deepest];
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    if (at.level > deepest.level) deepest = at;
    const parent = at;
    const push = (child: unknown, token: string | number): void => {
      if (typeof child === 'object' && child !== null) {
        stack.push({ value: child, level: parent.level + 1, parent, token });
      }
    };
    // Last child first, so the walk meets places in document order (holes of an array skipped).
    if (Array.isArray(at.value)) {
      for (let i = at.value.length - 1; i >= 0; i--) push(at.value[i], i);
    } else {
      const keys = Object.keys(at.value);
      for (let i = keys.length - 1; i >= 0; i--) {
        push((at.value as Record<string, unknown>)[keys[i]!], keys[i]!);
      }
    }
  }
  const tokens: (string | number)[] = [];
  for (let at: Level | undefined = deepest; at?.parent !== undefined; at = at.parent) {
    tokens.unshift(at.token);
  }
  return {
    depth: deepest.level,
    deepest: tokens.reduce<string>((path, token) => appendPointer(path, token), pointer),
  };
}

/**
 * The size (UTF-8 bytes as JSON) and depth (JSON levels of its schemas) of a declaration: what
 * the `declaration-bytes`, `request-declaration-bytes` and `schema-depth` limits count.
 * Iterative (any depth is safe), and remembered per frozen declaration, so a declaration of a
 * tool set is measured once.
 *
 * @example
 * ```ts
 * measureDeclaration({ name: 'f', description: '', parametersJsonSchema: { type: 'object' } });
 * // { bytes: 67, depth: 1, deepest: '/parametersJsonSchema' }
 * ```
 */
export function measureDeclaration(declaration: object): DeclarationMeasure {
  const known = measured.get(declaration);
  if (known !== undefined) return known;
  let depth = 0;
  let deepest: string | undefined;
  for (const field of SCHEMA_FIELDS) {
    if (!Object.hasOwn(declaration, field)) continue;
    const found = jsonDepth((declaration as Record<string, unknown>)[field], `/${field}`);
    if (found.depth > depth) ({ depth, deepest } = found);
  }
  const measure: DeclarationMeasure = {
    bytes: Buffer.byteLength(JSON.stringify(declaration), 'utf8'),
    depth,
    ...(deepest === undefined ? {} : { deepest }),
  };
  if (Object.isFrozen(declaration)) measured.set(declaration, measure);
  return measure;
}

/** Something about one declaration that breaks a limit (an error) or risks one (a warning). */
export interface DeclarationProblem {
  /** The limit (an id of schemas/limits.json). */
  readonly rule: ApiLimitId;
  readonly severity: 'error' | 'warning';
  /** JSON pointer into the declaration. */
  readonly path: string;
  readonly message: string;
}

/** Problems of one rule in one declaration, at most; one more says how many were left out. */
const MAX_PROBLEMS_PER_RULE = 10;

class Problems {
  readonly list: DeclarationProblem[] = [];
  readonly #counts = new Map<ApiLimitId, number>();

  add(rule: ApiLimitId, severity: 'error' | 'warning', path: string, message: string): void {
    const count = (this.#counts.get(rule) ?? 0) + 1;
    this.#counts.set(rule, count);
    if (count <= MAX_PROBLEMS_PER_RULE) this.list.push({ rule, severity, path, message });
  }

  close(): DeclarationProblem[] {
    for (const [rule, count] of this.#counts) {
      if (count <= MAX_PROBLEMS_PER_RULE) continue;
      const first = this.list.find((problem) => problem.rule === rule)!;
      this.list.push({
        ...first,
        path: '',
        message: `and ${count - MAX_PROBLEMS_PER_RULE} more ${rule} problem(s) in this declaration`,
      });
    }
    return this.list;
  }
}

/** Whether `type` names OBJECT (the API's enum, or the lower-case spelling clients send). */
const isObjectType = (type: unknown): boolean =>
  typeof type === 'string' && type.toUpperCase() === 'OBJECT';

/** The checks of a schema in the OpenAPI subset (`parameters`, `response`). */
function checkOpenApiSchema(
  field: 'parameters' | 'response',
  schema: unknown,
  budget: DeclarationBudget,
  problems: Problems,
): void {
  const { dialect } = budget;
  const parameterName = limitPattern('parameter-name', dialect);
  walkSchemas(schema, `/${field}`, ({ value, pointer, level }) => {
    const properties = Object.hasOwn(value, 'properties') ? value.properties : undefined;
    if (
      isObjectType(value.type) &&
      !(isJsonObject(properties) && Object.keys(properties).length > 0)
    ) {
      problems.add(
        'object-properties-not-empty',
        'error',
        pointer,
        `an OBJECT schema without properties, which the API refuses ("properties: should be non-empty for OBJECT type"; ${limitSource('object-properties-not-empty', dialect)})`,
      );
    }
    if (field === 'parameters' && isJsonObject(properties)) {
      for (const name of Object.keys(properties)) {
        if (parameterName.test(name)) continue;
        const top = level === 1;
        problems.add(
          'parameter-name',
          top ? 'error' : 'warning',
          appendPointer(appendPointer(pointer, 'properties'), name),
          `${top ? 'parameter' : 'nested property'} name ${JSON.stringify(name)} is not letters, digits and _ (a letter or _ first, at most 64)${top ? ', which the API refuses' : ': the API states the rule for parameter names, and may apply it here'} (${limitSource('parameter-name', dialect)})`,
        );
      }
    }
    const values = Object.hasOwn(value, 'enum') ? value.enum : undefined;
    if (Array.isArray(values)) {
      values.forEach((item, index) => {
        if (typeof item === 'string') return;
        problems.add(
          'enum-strings',
          'error',
          appendPointer(appendPointer(pointer, 'enum'), index),
          `enum value ${JSON.stringify(item)} is not a string; the API takes only strings (${limitSource('enum-strings', dialect)})`,
        );
      });
    }
  });
}

/**
 * What in one declaration breaks (error) or risks (warning) a limit of the budget's dialect, each
 * with its pointer into the declaration and its source:
 *
 * - `function-name`: outside what the API's texts accept (error), or accepted but not the safe
 *   name every dialect takes and every call carries back (warning: a `.` or `:`);
 * - `parameters-exclusive`: both schema forms;
 * - `schema-depth`, `declaration-bytes`: over the budget;
 * - in `parameters` and `response` (the OpenAPI subset): `object-properties-not-empty`,
 *   `parameter-name` (top-level names an error, nested ones a warning), `enum-strings`.
 *
 * Anything that is not a declaration is passed over (shapes are the schemas' job); at most 10
 * problems per rule, then one that counts the rest.
 *
 * @example
 * ```ts
 * declarationProblems(
 *   { name: 'f', description: '', parameters: { type: 'OBJECT', properties: { 'a-b': { type: 'STRING' } } } },
 *   resolveBudget(),
 * );
 * // [{ rule: 'parameter-name', severity: 'error', path: '/parameters/properties/a-b', message: '...' }]
 * ```
 */
export function declarationProblems(
  declaration: unknown,
  budget: DeclarationBudget,
): DeclarationProblem[] {
  if (!isJsonObject(declaration)) return [];
  // A frozen declaration (a tool set's) is checked once per budget.
  const key = `${budget.dialect}|${budget.maxDepth}|${budget.maxDeclarationBytes}`;
  const frozen = Object.isFrozen(declaration);
  const known = frozen ? checked.get(declaration)?.get(key) : undefined;
  if (known !== undefined) return [...known];
  const found = problemsOf(declaration, budget);
  if (frozen) {
    const byBudget = checked.get(declaration) ?? new Map<string, readonly DeclarationProblem[]>();
    byBudget.set(key, found);
    checked.set(declaration, byBudget);
  }
  return [...found];
}

const checked = new WeakMap<object, Map<string, readonly DeclarationProblem[]>>();

function problemsOf(
  declaration: Record<string, unknown>,
  budget: DeclarationBudget,
): DeclarationProblem[] {
  const problems = new Problems();
  const { dialect } = budget;
  const { name } = declaration;
  if (typeof name === 'string' && !limitPattern('function-name', dialect).test(name)) {
    const accepted = limitPattern('function-name', dialect, true).test(name);
    problems.add(
      'function-name',
      accepted ? 'warning' : 'error',
      '/name',
      accepted
        ? `function name "${name}" holds . or :, which a declaration may but a function call cannot carry back (${limitSource('function-name', dialect)})`
        : `function name "${name}" is not letters, digits, _ and - (a letter or _ first, at most 64), which the API refuses (${limitSource('function-name', dialect)})`,
    );
  }
  for (const [a, b] of [
    ['parameters', 'parametersJsonSchema'],
    ['response', 'responseJsonSchema'],
  ] as const) {
    if (Object.hasOwn(declaration, a) && Object.hasOwn(declaration, b)) {
      problems.add(
        'parameters-exclusive',
        'error',
        '',
        `both "${a}" (OpenAPI subset) and "${b}" (JSON Schema): send one (${limitSource('parameters-exclusive', dialect)})`,
      );
    }
  }
  const measure = measureDeclaration(declaration);
  if (measure.depth > budget.maxDepth) {
    problems.add(
      'schema-depth',
      'error',
      measure.deepest ?? '',
      `its schemas nest ${measure.depth} JSON levels, deeper than the ${budget.maxDepth} of the budget (the API refuses "exceeds the maximum allowed nesting depth"; ${limitSource('schema-depth', dialect)})`,
    );
  }
  if (measure.bytes > budget.maxDeclarationBytes) {
    problems.add(
      'declaration-bytes',
      'error',
      '',
      `${measure.bytes} bytes as JSON, over the ${budget.maxDeclarationBytes} of the budget for one declaration (a stand-in for "too many states"; ${limitSource('declaration-bytes', dialect)})`,
    );
  }
  for (const field of ['parameters', 'response'] as const) {
    if (Object.hasOwn(declaration, field)) {
      checkOpenApiSchema(field, declaration[field], budget, problems);
    }
  }
  return problems.close();
}
