/**
 * JSON pointers (RFC 6901) into the source schema, and local `$ref` resolution: `#`,
 * `#/json/pointer` (also percent-encoded, also into `$defs` or `definitions` that are not children
 * of the root) and plain-name anchors. Remote references and references to nowhere are refused.
 */
import { GeminiMcpError } from '../errors.js';
import { appendPointer } from '../json/pointer.js';

/** A resolved reference: the target schema and its canonical pointer. */
export interface RefTarget {
  readonly node: unknown;
  readonly pointer: string;
}

/** Where `$ref` resolution finds the schemas of the input. */
export interface SchemaIndex {
  /** The schema node at the place the (unescaped) pointer tokens name, or `undefined` if none. */
  schemaAt(tokens: readonly string[]): unknown;
  /** The node a plain-name fragment (`$anchor`, or a draft-7 `$id: "#name"`) names, if any. */
  anchor(name: string): RefTarget | undefined;
}

/** `pointer` extended by `tokens`, each escaped (most need no escaping: that path is kept cheap). */
export function childPointer(pointer: string, ...tokens: readonly (string | number)[]): string {
  let out = pointer;
  for (const token of tokens) {
    const text = String(token);
    out = text.includes('~') || text.includes('/') ? appendPointer(out, text) : `${out}/${text}`;
  }
  return out;
}

/** The pointer of the property `name` of the schema at `pointer` (`.../properties/name`). */
export function propertyPointer(pointer: string, name: string): string {
  return name.includes('~') || name.includes('/')
    ? appendPointer(`${pointer}/properties`, name)
    : `${pointer}/properties/${name}`;
}

/**
 * The tokens of a JSON pointer fragment (`/a/b~1c` gives `['a', 'b/c']`) and its canonical
 * pointer, or `undefined` when it is not a pointer (a malformed escape or percent-encoding).
 */
function parsePointer(fragment: string): { tokens: string[]; pointer: string } | undefined {
  if (fragment === '') return { tokens: [], pointer: '' };
  if (!fragment.startsWith('/')) return undefined;
  // Without escapes or percent-encoding (most pointers), the fragment is its canonical pointer.
  if (!fragment.includes('~') && !fragment.includes('%')) {
    return { tokens: fragment.slice(1).split('/'), pointer: fragment };
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  const tokens: string[] = [];
  for (const raw of decoded.slice(1).split('/')) {
    if (/~[^01]|~$/.test(raw)) return undefined;
    tokens.push(raw.replaceAll('~1', '/').replaceAll('~0', '~'));
  }
  return { tokens, pointer: tokens.reduce<string>((at, token) => childPointer(at, token), '') };
}

/**
 * The `$ref`s of one conversion: the index is built on the first reference followed, and each
 * reference text is parsed and resolved once.
 */
export class RefResolver {
  readonly #rootId: string | undefined;
  readonly #buildIndex: () => SchemaIndex;
  #index: SchemaIndex | undefined;
  /** Resolved references by text; made on the first one. */
  #resolved: Map<string, RefTarget> | undefined;

  /** `rootId`: the root's `$id`, so `$ref`s spelled with it count as local. */
  constructor(rootId: string | undefined, buildIndex: () => SchemaIndex) {
    this.#rootId = rootId;
    this.#buildIndex = buildIndex;
  }

  /**
   * Resolves `ref`, found at `at` (the pointer of the `$ref` keyword; with `keyword`, the pointer
   * of the schema that holds it, the keyword's pointer made only if an error names it).
   *
   * @throws GeminiMcpError `SCHEMA_UNSUPPORTED` for a remote `$ref`, a `$ref` to nowhere or to a
   * place that holds no schema.
   */
  resolve(ref: unknown, at: string, keyword?: string): RefTarget {
    if (typeof ref === 'string') {
      const known = this.#resolved?.get(ref);
      if (known !== undefined) return known;
    }
    this.#index ??= this.#buildIndex();
    const target = resolveRef(
      this.#index,
      this.#rootId,
      ref,
      keyword === undefined ? at : childPointer(at, keyword),
    );
    this.#resolved ??= new Map();
    this.#resolved.set(ref as string, target);
    return target;
  }
}

function resolveRef(
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
  const parsed = parsePointer(fragment);
  const target =
    parsed === undefined ? anchorTarget(index, fragment) : pointerTarget(index, parsed);
  if (target !== undefined) return target;
  throw new GeminiMcpError('SCHEMA_UNSUPPORTED', `$ref "${ref}" points to no schema`, {
    path: at,
    data: { ref },
  });
}

function pointerTarget(
  index: SchemaIndex,
  { tokens, pointer }: { tokens: string[]; pointer: string },
): RefTarget | undefined {
  const node = index.schemaAt(tokens);
  return node === undefined ? undefined : { node, pointer };
}

function anchorTarget(index: SchemaIndex, fragment: string): RefTarget | undefined {
  let name: string;
  try {
    name = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  return index.anchor(name);
}
