/**
 * Annotations (title, description, default, example) of a conjunction, and writing them onto
 * the output node together with the `describeLosses` note.
 */

import type { Schema } from '../../generated/types.js';
import type { Conjunct } from '../keywords.js';
import { ANNOTATIONS, KW, keywordMask, read } from '../keywords.js';
import { describeLosses } from '../losses.js';
import type { NodeScope } from './scope.js';

/** The annotations one output node carries. */
interface Annotations {
  title?: string;
  description?: string;
  default?: unknown;
  example?: unknown;
}

/** The annotation keywords of {@link KW}. */
export const ANNOTATION_KEYS = keywordMask(ANNOTATIONS);

/** `example` and `examples`. */
const EXAMPLE_KEYS = KW.example | KW.examples;

/**
 * The annotations of a node as {@link collectAnnotations} finds them: none, a description alone
 * (most nodes: no record then), or {@link Annotations}.
 */
export type Found = Annotations | string | undefined;

/** The description of `found`. */
export function descriptionOf(found: Found): string | undefined {
  return typeof found === 'object' ? found.description : found;
}

/**
 * Reads the annotations of `conjuncts`: distinct descriptions are joined (a `$ref`'s target and the
 * place that uses it often both describe), the first title, default and example win, and
 * `examples` gives its first entry.
 */
export function collectAnnotations(scope: NodeScope, conjuncts: readonly Conjunct[]): Found {
  // Made for a title, default or example.
  let out: Annotations | undefined;
  // The first description, then all of them once there are two.
  let description: string | undefined;
  let descriptions: string[] | undefined;
  for (const conjunct of conjuncts) {
    if ((conjunct.keys & ANNOTATION_KEYS) === 0) continue;
    const node = conjunct.node as Record<string, unknown>;
    const title = (conjunct.keys & KW.title) === 0 ? undefined : node.title;
    if (title !== undefined) {
      out ??= {};
      if (typeof title !== 'string') {
        scope.lose(conjunct, 'title', 'dropped', 'not a string');
      } else if (out.title === undefined) {
        out.title = title;
      } else if (out.title !== title) {
        scope.lose(conjunct, 'title', 'dropped', 'another title applies here; the first is kept');
      }
    }
    const text = (conjunct.keys & KW.description) === 0 ? undefined : node.description;
    if (text !== undefined) {
      if (typeof text !== 'string') {
        scope.lose(conjunct, 'description', 'dropped', 'not a string');
      } else if (description === undefined) {
        description = text;
      } else if (descriptions === undefined) {
        if (text !== description) descriptions = [description, text];
      } else if (!descriptions.includes(text)) {
        descriptions.push(text);
      }
    }
    const fallback = (conjunct.keys & KW.default) === 0 ? undefined : node.default;
    if (fallback !== undefined) {
      out ??= {};
      if (!Object.hasOwn(out, 'default')) out.default = copyValue(fallback);
      else
        scope.lose(
          conjunct,
          'default',
          'dropped',
          'another default applies here; the first is kept',
        );
    }
    if ((conjunct.keys & EXAMPLE_KEYS) !== 0) {
      out ??= {};
      readExample(scope, conjunct, out);
    }
  }
  const text = description === undefined ? undefined : (descriptions?.join('\n\n') ?? description);
  if (out === undefined) return text;
  if (text !== undefined) out.description = text;
  return out;
}

function readExample(scope: NodeScope, conjunct: Conjunct, out: Annotations): void {
  const example = read(conjunct, 'example');
  const examples = read(conjunct, 'examples');
  if (examples !== undefined && !Array.isArray(examples)) {
    scope.lose(conjunct, 'examples', 'dropped', 'not an array');
  }
  const first = example !== undefined ? example : Array.isArray(examples) ? examples[0] : undefined;
  if (Array.isArray(examples) && examples.length > (example === undefined ? 1 : 0)) {
    scope.lose(
      conjunct,
      'examples',
      'weakened',
      'Gemini takes one example; the others are not sent',
    );
  }
  if (first === undefined) return;
  if (!Object.hasOwn(out, 'example')) out.example = copyValue(first);
  else
    scope.lose(
      conjunct,
      example === undefined ? 'examples' : 'example',
      'dropped',
      'another example applies here; the first is kept',
    );
}

/** A copy of a JSON value from the source (surveyed: plain JSON), primitives as they are. */
function copyValue(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

/**
 * Writes `annotations` onto `schema` (they win over a single union branch's own, descriptions
 * are joined), then the loss note when `describeLosses` is on.
 */
export function applyAnnotations(schema: Schema, found: Found, scope: NodeScope): Schema {
  if (found === undefined && !scope.ctx.describeLosses) return schema;
  const annotations = typeof found === 'object' ? found : undefined;
  if (annotations?.title !== undefined) schema.title = annotations.title;
  const description = descriptionOf(found);
  if (description !== undefined) {
    schema.description =
      schema.description === undefined || schema.description === description
        ? description
        : `${description}\n\n${schema.description}`;
  }
  if (annotations !== undefined) {
    if (Object.hasOwn(annotations, 'default')) schema.default = annotations.default;
    if (Object.hasOwn(annotations, 'example')) schema.example = annotations.example;
  }
  if (scope.ctx.describeLosses) {
    const description = describeLosses(schema.description, scope.notes);
    if (description !== undefined) schema.description = description;
  }
  return schema;
}
