/** The in-memory form of `schemas/`: files keyed by their path below `schemas/`. */
import type { JsonObject } from './canonical-json.js';

/** Base of every `$id` the project writes; `.invalid` is reserved and never resolves. */
export const SCHEMA_ID_BASE = 'https://gemini-mcp.invalid/schemas/';

/** A family of schemas, one folder of `schemas/`. */
export type Family = 'gemini' | 'live' | 'mcp' | 'vertex/v1' | 'vertex/v1beta1';

/** One schema file to write. */
export interface SchemaFile {
  /** Path below `schemas/`, e.g. `gemini/Part.schema.json`. */
  file: string;
  /** The TypeScript type name the generator gives it (also its `title`). */
  typeName: string;
  schema: JsonObject;
}

/** Path below `schemas/` of a named schema in a family. */
function schemaFile(family: Family, name: string): string {
  return `${family}/${name}.schema.json`;
}

/** The `$id` of a schema file. */
function schemaId(file: string): string {
  return `${SCHEMA_ID_BASE}${file}`;
}

/**
 * The type name a schema gets: Gemini names as they are, the others prefixed by family (the Live
 * API's `LiveGoAway`; Vertex AI versions by their version: `VertexV1Part`, `VertexV1Beta1Part`); a letter
 * after a digit is upper-cased (`V1alpha` -> `V1Alpha`), as json-schema-to-typescript would.
 */
function typeNameOf(family: Family, name: string): string {
  const safe = name.replace(
    /(\d)([a-z])/g,
    (_, digit: string, letter: string) => digit + letter.toUpperCase(),
  );
  if (family === 'gemini') return safe;
  if (family === 'mcp') return `Mcp${safe}`;
  if (family === 'live') return `Live${safe}`;
  // schemas/vertex/v1beta1/Part -> VertexV1Beta1Part
  return typeNameOf('gemini', `Vertex${family.slice('vertex/'.length).replace(/^v/, 'V')}${name}`);
}

/** A schema file: the schema with its `$schema`, `$id`, `title` and (our own) description. */
export function makeSchemaFile(
  family: Family,
  name: string,
  schema: JsonObject,
  description: string | undefined,
): SchemaFile {
  const file = schemaFile(family, name);
  const typeName = typeNameOf(family, name);
  return {
    file,
    typeName,
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: schemaId(file),
      title: typeName,
      ...(description ? { description } : {}),
      ...schema,
    },
  };
}
