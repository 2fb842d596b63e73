/** Loads `schemas/` for generation: every schema with its type name, and the manifest's hash. */
import { join } from 'node:path';
import { isJsonObject, type JsonObject, sha256 } from './canonical-json.js';
import { readTree } from './schema-dir.js';
import { SCHEMA_ID_BASE } from './schema-set.js';

/** One vendored schema. */
export interface LoadedSchema {
  /** Path below `schemas/`. */
  file: string;
  typeName: string;
  schema: JsonObject;
}

/** What the generator reads. */
export interface SchemaTree {
  schemas: LoadedSchema[];
  manifestSha256: string;
  /**
   * What the vendored schemas are, for notices: `revision 20260325`, `MCP 2025-06-18, 2025-11-25
   * and 2026-07-28`, `@google-ai/generativelanguage@4.1.0`.
   */
  knownTo: { gemini: string; mcp: string; live: string };
  /** The API limits (`schemas/limits.json`, listed with its sha256 under the manifest's `limits`). */
  limits: JsonObject;
}

/** `schemas/limits.json` as the manifest lists it, checked against its sha256. */
function loadLimits(tree: Map<string, string>, manifest: unknown): JsonObject {
  const entry = isJsonObject(manifest) && isJsonObject(manifest.limits) ? manifest.limits : {};
  const file = typeof entry.file === 'string' ? entry.file : undefined;
  const text = file === undefined ? undefined : tree.get(file);
  if (file === undefined || text === undefined)
    throw new Error(
      'schemas/manifest.json lists no limits file, or it is missing: run npm run schemas:sync',
    );
  if (sha256(text) !== entry.sha256)
    throw new Error(`schemas/${file} does not match its sha256 in the manifest`);
  const limits: unknown = JSON.parse(text);
  if (!isJsonObject(limits) || !isJsonObject(limits.limits))
    throw new Error(`schemas/${file} holds no limits`);
  return limits;
}

function listed(names: string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The Gemini revision, the MCP protocol versions and the Live API package the manifest records. */
function knownTo(manifest: unknown): SchemaTree['knownTo'] {
  const inputs = isJsonObject(manifest) && isJsonObject(manifest.inputs) ? manifest.inputs : {};
  const gemini = isJsonObject(inputs.gemini) ? inputs.gemini.revision : undefined;
  const mcp = Array.isArray(inputs.mcp)
    ? inputs.mcp.map((input) => (isJsonObject(input) ? input.protocolVersion : undefined))
    : [];
  if (typeof gemini !== 'string' || mcp.length === 0 || !mcp.every((v) => typeof v === 'string'))
    throw new Error('schemas/manifest.json lacks the Gemini revision or the MCP protocol versions');
  const live = isJsonObject(inputs.live) ? inputs.live.package : undefined;
  return {
    gemini: `revision ${gemini}`,
    mcp: `MCP ${listed(mcp as string[])}`,
    live: typeof live === 'string' ? live : 'no Live API input',
  };
}

/** Reads and checks `schemas/`; a missing or inconsistent input fails loudly. */
export async function loadSchemaTree(root: string): Promise<SchemaTree> {
  const tree = await readTree(root);
  const manifestText = tree.get('manifest.json');
  if (manifestText === undefined)
    throw new Error(`${join(root, 'manifest.json')} is missing: run npm run schemas:sync`);
  const manifest: unknown = JSON.parse(manifestText);
  const listed = isJsonObject(manifest) && isJsonObject(manifest.schemas) ? manifest.schemas : {};
  const schemas: LoadedSchema[] = [];
  for (const [file, hash] of Object.entries(listed)) {
    const text = tree.get(file);
    if (text === undefined)
      throw new Error(`schemas/${file} is listed in the manifest but missing`);
    if (sha256(text) !== hash)
      throw new Error(`schemas/${file} does not match its sha256 in the manifest`);
    const schema: unknown = JSON.parse(text);
    if (
      !isJsonObject(schema) ||
      typeof schema.title !== 'string' ||
      schema.$id !== `${SCHEMA_ID_BASE}${file}`
    ) {
      throw new Error(`schemas/${file} lacks its title or has a foreign $id`);
    }
    schemas.push({ file, typeName: schema.title, schema });
  }
  const limits = loadLimits(tree, manifest);
  const limitsFile = (manifest as { limits: { file: string } }).limits.file;
  for (const file of tree.keys()) {
    if (file !== 'manifest.json' && file !== limitsFile && !(file in listed))
      throw new Error(`schemas/${file} is not in the manifest`);
  }
  if (schemas.length === 0) throw new Error(`${root} holds no schemas`);
  schemas.sort((a, b) => (a.typeName < b.typeName ? -1 : 1));
  return { schemas, manifestSha256: sha256(manifestText), knownTo: knownTo(manifest), limits };
}
