/**
 * Gemini's Schema has no "any value". These are the closest it can say: every type, nullable,
 * with arrays one level deep (their items any scalar or object), since an array's `items` is
 * mandatory and cannot refer back to itself.
 */

import type { Schema } from '../../generated/types.js';

/** Any string, number, boolean, object or null: the items of an array that declares none. */
export function anyScalarOrObject(): Schema {
  return {
    anyOf: [
      { type: 'STRING', nullable: true },
      { type: 'NUMBER', nullable: true },
      { type: 'BOOLEAN', nullable: true },
      { type: 'OBJECT', nullable: true },
    ],
  };
}

/** Any value, arrays holding scalars or objects only. */
export function anyValue(): Schema {
  return {
    anyOf: [
      { type: 'STRING', nullable: true },
      { type: 'NUMBER', nullable: true },
      { type: 'BOOLEAN', nullable: true },
      { type: 'ARRAY', items: anyScalarOrObject(), nullable: true },
      { type: 'OBJECT', nullable: true },
    ],
  };
}

/** How many schema nodes {@link anyScalarOrObject} writes (for the expansion budget). */
export const ANY_SCALAR_OR_OBJECT_NODES = 5;

/** How many schema nodes {@link anyValue} writes (for the expansion budget). */
export const ANY_VALUE_NODES = 11;
