/**
 * Annotations (title, description, default, example) of a conjunction, and writing them onto
 * the output node together with the `describeLosses` note.
 */
import type { Schema } from '../generated/types.js';
import type { Scope } from './context.js';
import { describeLosses } from './losses.js';
import type { Part } from './parts.js';
import { read } from './parts.js';

/** The annotations one output node carries. */
export interface Annotations {
  title?: string;
  description?: string;
  default?: unknown;
  example?: unknown;
}

/**
 * Reads the annotations of `parts`: distinct descriptions are joined (a `$ref`'s target and the
 * place that uses it often both describe), the first title, default and example win, and
 * `examples` gives its first entry.
 */
export function collectAnnotations(scope: Scope, parts: readonly Part[]): Annotations {
  const out: Annotations = {};
  const descriptions: string[] = [];
  for (const part of parts) {
    for (const keyword of ['title', 'description'] as const) {
      const value = read(part, keyword);
      if (value === undefined) continue;
      if (typeof value !== 'string') {
        scope.lose(part, keyword, 'dropped', 'not a string');
      } else if (keyword === 'description') {
        if (!descriptions.includes(value)) descriptions.push(value);
      } else if (out.title === undefined) {
        out.title = value;
      } else if (out.title !== value) {
        scope.lose(part, keyword, 'dropped', 'another title applies here; the first is kept');
      }
    }
    const fallback = read(part, 'default');
    if (fallback !== undefined) {
      if (!Object.hasOwn(out, 'default')) out.default = structuredClone(fallback);
      else
        scope.lose(part, 'default', 'dropped', 'another default applies here; the first is kept');
    }
    readExample(scope, part, out);
  }
  if (descriptions.length > 0) out.description = descriptions.join('\n\n');
  return out;
}

function readExample(scope: Scope, part: Part, out: Annotations): void {
  const example = read(part, 'example');
  const examples = read(part, 'examples');
  if (examples !== undefined && !Array.isArray(examples)) {
    scope.lose(part, 'examples', 'dropped', 'not an array');
  }
  const first = example !== undefined ? example : Array.isArray(examples) ? examples[0] : undefined;
  if (Array.isArray(examples) && examples.length > (example === undefined ? 1 : 0)) {
    scope.lose(part, 'examples', 'weakened', 'Gemini takes one example; the others are not sent');
  }
  if (first === undefined) return;
  if (!Object.hasOwn(out, 'example')) out.example = structuredClone(first);
  else
    scope.lose(
      part,
      example === undefined ? 'examples' : 'example',
      'dropped',
      'another example applies here; the first is kept',
    );
}

/**
 * Writes `annotations` onto `schema` (they win over a single union branch's own, descriptions
 * are joined), then the loss note when `describeLosses` is on.
 */
export function applyAnnotations(schema: Schema, annotations: Annotations, scope: Scope): Schema {
  if (annotations.title !== undefined) schema.title = annotations.title;
  if (annotations.description !== undefined) {
    schema.description =
      schema.description === undefined || schema.description === annotations.description
        ? annotations.description
        : `${annotations.description}\n\n${schema.description}`;
  }
  if (Object.hasOwn(annotations, 'default')) schema.default = annotations.default;
  if (Object.hasOwn(annotations, 'example')) schema.example = annotations.example;
  if (scope.ctx.describeLosses) {
    const description = describeLosses(schema.description, scope.notes);
    if (description !== undefined) schema.description = description;
  }
  return schema;
}
