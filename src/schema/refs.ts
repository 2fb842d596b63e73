/**
 * Local `$ref` resolution: `#`, `#/json/pointer` (also percent-encoded, also into `$defs` or
 * `definitions` that are not children of the root) and plain-name anchors. Remote references
 * and references to nowhere are refused.
 */
import { GeminiMcpError } from '../errors.js';
import type { SchemaIndex } from './limits.js';
import { childPointer, parsePointer } from './pointer.js';

/** A resolved reference: the target schema and its canonical pointer. */
export interface RefTarget {
  readonly node: unknown;
  readonly pointer: string;
}

/**
 * Resolves `ref`, found at `at` (the pointer of the `$ref` keyword), against the surveyed input.
 *
 * @throws GeminiMcpError `SCHEMA_UNSUPPORTED` for a remote `$ref`, a `$ref` to nowhere or to a
 * place that holds no schema.
 */
export function resolveRef(
  index: SchemaIndex,
  rootId: string | undefined,
  ref: unknown,
  at: string,
): RefTarget {
  if (typeof ref !== 'string') {
    throw new GeminiMcpError('SCHEMA_UNSUPPORTED', '$ref must be a string', { path: at });
  }
  let local = ref;
  if (rootId !== undefined && rootId !== '' && ref.startsWith(`${rootId.replace(/#$/, '')}#`)) {
    local = ref.slice(rootId.replace(/#$/, '').length);
  }
  if (!local.startsWith('#')) {
    throw new GeminiMcpError(
      'SCHEMA_UNSUPPORTED',
      `remote $ref "${ref}" is not supported: only local references (#...) can be inlined`,
      { path: at, data: { ref } },
    );
  }
  const fragment = local.slice(1);
  const tokens = parsePointer(fragment);
  const pointer =
    tokens === undefined ? anchorPointer(index, fragment) : childPointer('', ...tokens);
  if (pointer !== undefined && index.nodes.has(pointer)) {
    return { node: index.nodes.get(pointer), pointer };
  }
  throw new GeminiMcpError('SCHEMA_UNSUPPORTED', `$ref "${ref}" points to no schema`, {
    path: at,
    data: { ref },
  });
}

function anchorPointer(index: SchemaIndex, fragment: string): string | undefined {
  let name: string;
  try {
    name = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  return index.anchors.get(name);
}
