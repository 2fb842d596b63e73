/** Finds input property names that Gemini may refuse or misread. */
import { isJsonObject, ownValue } from '../../json/object.js';
import { appendPointer } from '../../json/pointer.js';
import { GEMINI_PROPERTY_NAME } from '../../schema/keywords.js';

/** Nesting deeper than this is not searched (schemas are JSON; this bounds the walk). */
const MAX_DEPTH = 64;

const SUBSCHEMA_KEYS = [
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
] as const;
const SUBSCHEMA_LIST_KEYS = ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items'] as const;
const SUBSCHEMA_MAP_KEYS = ['$defs', 'definitions', 'patternProperties', 'dependentSchemas'];

/** An input property name {@link unsafePropertyNames} reports. */
export interface UnsafePropertyName {
  /** The property name. */
  name: string;
  /** JSON pointer of the property's schema inside the inputSchema. */
  path: string;
}

function walk(schema: unknown, pointer: string, depth: number, found: UnsafePropertyName[]): void {
  if (!isJsonObject(schema) || depth > MAX_DEPTH) return;
  const properties = ownValue(schema, 'properties');
  if (isJsonObject(properties)) {
    for (const [name, subschema] of Object.entries(properties)) {
      const at = appendPointer(appendPointer(pointer, 'properties'), name);
      if (!GEMINI_PROPERTY_NAME.test(name)) found.push({ name, path: at });
      walk(subschema, at, depth + 1, found);
    }
  }
  for (const key of SUBSCHEMA_KEYS) {
    const subschema = ownValue(schema, key);
    // The pointer is built only for a keyword that is there: most schemas hold few of them.
    if (isJsonObject(subschema)) walk(subschema, appendPointer(pointer, key), depth + 1, found);
  }
  for (const key of SUBSCHEMA_LIST_KEYS) {
    const list = ownValue(schema, key);
    if (!Array.isArray(list)) continue;
    list.forEach((subschema, index) => {
      walk(subschema, appendPointer(appendPointer(pointer, key), index), depth + 1, found);
    });
  }
  for (const key of SUBSCHEMA_MAP_KEYS) {
    const map = ownValue(schema, key);
    if (!isJsonObject(map)) continue;
    for (const [name, subschema] of Object.entries(map)) {
      walk(subschema, appendPointer(appendPointer(pointer, key), name), depth + 1, found);
    }
  }
}

/**
 * Every property name in `inputSchema` (at any depth: nested objects, items, combinators,
 * definitions) outside Gemini's documented rule for property names (letters, digits and `_`,
 * 1 to 64 of them; the same rule the openapi converter applies). Gemini does not refuse every
 * such name, but it is where its schema handling is known to break.
 *
 * @example
 * ```ts
 * unsafePropertyNames({ type: 'object', properties: { 'my arg': { type: 'string' } } });
 * // [{ name: 'my arg', path: '/properties/my arg' }]
 * ```
 */
export function unsafePropertyNames(inputSchema: unknown): UnsafePropertyName[] {
  const found: UnsafePropertyName[] = [];
  walk(inputSchema, '', 0, found);
  return found;
}
