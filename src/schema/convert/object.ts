/**
 * OBJECT nodes: properties (merged across the conjunction, in source order, which also gives
 * `propertyOrdering`), required, property counts. A property that accepts nothing is left out;
 * a required name without a schema gets "any value"; names Gemini may refuse are reported.
 */

import type { Schema } from '../../generated/types.js';
import { isJsonObject, setOwn } from '../../json/object.js';
import type { Conjunct } from '../keywords.js';
import { isGeminiPropertyName, KW, conjunct as makeConjunct, Unsatisfiable } from '../keywords.js';
import { propertyPointer } from '../refs.js';
import type { EnumValues } from '../scalars.js';
import { countBounds, int64, PROPERTY_COUNT, typedNode, weakenEnum } from '../scalars.js';
import { ANY_VALUE_NODES, anyValue } from './any.js';
import { repeats } from './lists.js';
import type { NodeScope } from './scope.js';

/** An OBJECT node for the conjunction `conjuncts`, at `depth`. */
export function buildObject(
  scope: NodeScope,
  conjuncts: readonly Conjunct[],
  depth: number,
  allowed: EnumValues | undefined,
): Schema {
  if (allowed?.values.some(isJsonObject)) {
    weakenEnum(
      allowed,
      'objects cannot be listed in a Gemini enum: any object of the type is accepted',
    );
  }
  // The source properties: those of the one conjunct that has some (most objects), else by name.
  let sole: Conjunct | undefined;
  let byName: Map<string, Conjunct[]> | undefined;
  for (const conjunct of conjuncts) {
    if ((conjunct.keys & KW.properties) === 0) continue;
    if (!isJsonObject((conjunct.node as Record<string, unknown>).properties)) {
      scope.lose(conjunct, 'properties', 'dropped', 'not an object of schemas');
      continue;
    }
    if (sole === undefined && byName === undefined) {
      sole = conjunct;
      continue;
    }
    if (sole !== undefined) {
      byName = propertiesByName(sole, new Map());
      sole = undefined;
    }
    propertiesByName(conjunct, byName as Map<string, Conjunct[]>);
  }
  const required = readRequired(scope, conjuncts);
  let properties: Record<string, Schema>;
  if (sole !== undefined) {
    const source = propertiesOf(sole);
    const base = `${sole.pointer}/properties/`;
    properties = {};
    for (const name in source) {
      if (!Object.hasOwn(source, name)) continue;
      const node = source[name];
      if (node === undefined) continue;
      const pointer =
        name.includes('~') || name.includes('/')
          ? propertyPointer(sole.pointer, name)
          : base + name;
      const schema = convertProperty(
        scope,
        name,
        [makeConjunct(node, pointer, sole.refs)],
        depth,
        required,
      );
      if (schema === undefined) continue;
      if (name === '__proto__') setOwn(properties, name, schema);
      else properties[name] = schema;
    }
  } else {
    properties = {};
    for (const [name, list] of byName ?? []) {
      const schema = convertProperty(scope, name, list, depth, required);
      if (schema !== undefined) setOwn(properties, name, schema);
    }
  }
  if (required !== undefined) {
    // A required name in the source properties is converted, or its conversion threw.
    let missing: number[] | undefined;
    for (let i = 0; i < required.names.length; i++) {
      if (Object.hasOwn(properties, required.names[i] as string)) continue;
      missing ??= [];
      missing.push(i);
    }
    if (missing !== undefined) {
      for (const i of missing) {
        scope.ctx.budget.spend(required.owner(i).pointer, ANY_VALUE_NODES);
        setOwn(properties, required.names[i] as string, anyValue());
      }
      scope.lose(
        required.owner(missing[0] as number),
        'required',
        'rewritten',
        `required without a schema (${missing.map((i) => `"${required.names[i]}"`).join(', ')}): declared as any value`,
      );
    }
  }
  const schema = typedNode('OBJECT');
  const names = Object.keys(properties);
  if (names.length > 0) schema.properties = properties;
  if (names.length > 1) schema.propertyOrdering = names;
  if (required !== undefined && required.names.length > 0) schema.required = required.names;
  const { min, max } = countBounds(scope, conjuncts, PROPERTY_COUNT);
  if (min !== undefined) schema.minProperties = int64(min);
  if (max !== undefined) schema.maxProperties = int64(max);
  return schema;
}

/** The `properties` of `conjunct`, known to be an object. */
function propertiesOf(conjunct: Conjunct): Record<string, unknown> {
  return (conjunct.node as Record<string, Record<string, unknown>>).properties as Record<
    string,
    unknown
  >;
}

/** Adds each property of `conjunct` to the conjunction of its name in `out`. */
function propertiesByName(
  conjunct: Conjunct,
  out: Map<string, Conjunct[]>,
): Map<string, Conjunct[]> {
  const properties = propertiesOf(conjunct);
  for (const name of Object.keys(properties)) {
    const node = properties[name];
    if (node === undefined) continue;
    const list = out.get(name) ?? [];
    list.push(makeConjunct(node, propertyPointer(conjunct.pointer, name), conjunct.refs));
    out.set(name, list);
  }
  return out;
}

/**
 * The property `name` (the conjunction `list`) converted, or `undefined` when it accepts no
 * value and `required` does not name it (it is left out).
 */
function convertProperty(
  scope: NodeScope,
  name: string,
  list: readonly Conjunct[],
  depth: number,
  required: Required | undefined,
): Schema | undefined {
  const at = list[0] as Conjunct;
  let schema: Schema;
  try {
    schema = scope.convertChild(list, depth + 1);
  } catch (error) {
    if (!(error instanceof Unsatisfiable)) throw error;
    if (required?.has(name) === true) throw error;
    scope.lose(
      at,
      'properties',
      'dropped',
      `property "${name}" accepts no value: left out, so it is not forbidden`,
    );
    return undefined;
  }
  if (!isGeminiPropertyName(name)) {
    scope.lose(
      at,
      'properties',
      'weakened',
      `property name "${name}" kept, but Gemini's reference allows only letters, digits and _ (at most 64): the API may refuse it`,
    );
  }
  return schema;
}

/** Whether `value` is an array of strings. */
function isNameList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

/**
 * The names a conjunction requires, distinct, in the order first met, each with the conjunct
 * that requires it first (most objects: one conjunct requires them all).
 */
class Required {
  /** The names: a new list, the output's `required`. */
  readonly names: string[];
  readonly #first: Conjunct;
  /** The conjunct of each name, once a second conjunct adds names. */
  #owners: Conjunct[] | undefined;
  /** The names as a set, made when first asked (or a second conjunct adds names). */
  #set: Set<string> | undefined;

  constructor(names: readonly string[], conjunct: Conjunct) {
    this.names = repeats(names) ? [...new Set(names)] : [...names];
    this.#first = conjunct;
    this.#owners = undefined;
    this.#set = undefined;
  }

  /** Whether `name` is required. */
  has(name: string): boolean {
    this.#set ??= new Set(this.names);
    return this.#set.has(name);
  }

  /** The conjunct that requires the name at `index` of {@link names}. */
  owner(index: number): Conjunct {
    return this.#owners?.[index] ?? this.#first;
  }

  /** Adds the names `conjunct` requires that are not yet. */
  add(names: readonly string[], conjunct: Conjunct): void {
    this.#set ??= new Set(this.names);
    const set = this.#set;
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      if (set.has(name)) continue;
      set.add(name);
      this.#owners ??= this.names.map(() => this.#first);
      this.names.push(name);
      this.#owners.push(conjunct);
    }
  }
}

/** The required names of the conjunction, each with the conjunct that requires it. */
function readRequired(scope: NodeScope, conjuncts: readonly Conjunct[]): Required | undefined {
  let required: Required | undefined;
  for (const conjunct of conjuncts) {
    if ((conjunct.keys & KW.required) === 0) continue;
    const names = (conjunct.node as Record<string, unknown>).required;
    if (!isNameList(names)) {
      scope.lose(conjunct, 'required', 'dropped', 'not an array of property names');
      continue;
    }
    if (required === undefined) required = new Required(names, conjunct);
    else required.add(names, conjunct);
  }
  return required;
}
