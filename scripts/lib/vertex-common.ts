/**
 * The Vertex AI messages that are the same in v1 and v1beta1, compiled once: their validators
 * live in `validators-vertex-common.js`, which both versions' validator modules import and
 * re-export under their own names.
 */
import { canonicalJson, type JsonObject, refsIn } from './canonical-json.js';
import type { Family } from './schema-set.js';
import { SCHEMA_ID_BASE } from './schema-set.js';
import type { LoadedSchema } from './schema-tree.js';

/** The versions whose shared messages are compiled once. */
const VERSIONS = ['vertex/v1', 'vertex/v1beta1'] as const satisfies readonly Family[];

/** The suffix of the common module's name: `validators-vertex-common.js`. */
export const VERTEX_COMMON = 'vertex-common';

/** What the versions share. */
export interface SharedVertex {
  /** Every shared message once (and its read twin), in its common form: the common module's. */
  readonly common: LoadedSchema[];
  /** A version's shared schema, by `$id`, to the type name of its common form. */
  readonly commonName: ReadonlyMap<string, string>;
}

/** `vertex/v1beta1` -> `V1Beta1`: a version as type names spell it after `Vertex`. */
const versionTag = (family: Family): string =>
  family
    .slice('vertex/'.length)
    .replace(/^v/, 'V')
    .replace(/(\d)([a-z])/g, (_, digit: string, letter: string) => digit + letter.toUpperCase());

/** `vertex/v1/Part.schema.json` and `read/vertex/v1beta1/Part.schema.json` -> their version-free key. */
const keyOf = (file: string, family: Family): string => file.replace(`${family}/`, 'vertex/');

/**
 * A schema of `family` with what names its version (its root `$id`, title and the version in its
 * description) written for both: `read/vertex/common/Part.schema.json`, `ReadVertexPart`, "(Vertex
 * AI v1 and v1beta1)". Whatever else differs keeps the two forms apart.
 */
function commonForm(loaded: LoadedSchema, family: Family): LoadedSchema {
  const { file, typeName, schema } = loaded;
  const own = `Vertex${versionTag(family)}`;
  if (!typeName.includes(own)) {
    throw new Error(`generate-validators: ${file} is titled ${typeName}, without ${own}`);
  }
  const version = family.slice('vertex/'.length);
  const commonFile = file.replace(`${family}/`, 'vertex/common/');
  const common: JsonObject = {
    ...schema,
    $id: `${SCHEMA_ID_BASE}${commonFile}`,
    title: typeName.replace(own, 'Vertex'),
  };
  if (typeof schema.description === 'string') {
    common.description = schema.description.replace(
      `(Vertex AI ${version})`,
      `(Vertex AI ${VERSIONS.map((v) => v.slice('vertex/'.length)).join(' and ')})`,
    );
  }
  return { file: commonFile, typeName: common.title as string, schema: common };
}

/** A version's schema and its common form. */
interface Entry {
  readonly loaded: LoadedSchema;
  readonly common: LoadedSchema;
}

/**
 * The messages (and read twins) of the Vertex versions that are the same in both, once their
 * names and version are set aside, and that refer only to such messages: compiled once, they
 * check both versions alike.
 */
export function sharedVertex(groups: ReadonlyMap<Family, readonly LoadedSchema[]>): SharedVertex {
  const [first, second] = VERSIONS.map(
    (family) =>
      new Map(
        (groups.get(family) ?? []).map((s) => [
          keyOf(s.file, family),
          { loaded: s, common: commonForm(s, family) },
        ]),
      ),
  ) as [Map<string, Entry>, Map<string, Entry>];
  const shared = new Map<string, Entry>();
  for (const [key, entry] of first) {
    const other = second.get(key);
    if (
      other !== undefined &&
      canonicalJson(entry.common.schema) === canonicalJson(other.common.schema)
    ) {
      shared.set(key, entry);
    }
  }
  // A message that refers to one the versions do not share cannot be shared: drop it, until
  // what is left refers only to each other.
  for (let dropped = true; dropped; ) {
    dropped = false;
    for (const [key, { loaded }] of shared) {
      const base = loaded.schema.$id as string;
      const outside = [...refsIn(loaded.schema)].some((ref) => {
        const target = new URL(ref, base).href.replace(/#.*$/, '');
        return (
          target !== base && !shared.has(keyOf(target.slice(SCHEMA_ID_BASE.length), VERSIONS[0]))
        );
      });
      if (outside) {
        shared.delete(key);
        dropped = true;
      }
    }
  }
  const commonName = new Map<string, string>();
  for (const key of shared.keys()) {
    for (const versions of [first, second]) {
      const { loaded, common } = versions.get(key)!;
      commonName.set(loaded.schema.$id as string, common.typeName);
    }
  }
  const common = [...shared.values()]
    .map((entry) => entry.common)
    .sort((a, b) => (a.typeName < b.typeName ? -1 : 1));
  return { common, commonName };
}
