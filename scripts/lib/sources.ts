/**
 * The sources of `schemas/`: reading an input (a local file or a URL), and the repository's list
 * of sources, `schema-sources.json` (where each reference lives, and what was last synced).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { isJsonObject } from './canonical-json.js';
import { SyncInputError } from './sync-error.js';

/** The repository's list of sources, relative to the project root. */
export const SOURCES_FILE = 'schema-sources.json';

const URL_PATTERN = /^https?:\/\//;
const PROTOCOL_VERSION = /^\d{4}-\d{2}-\d{2}$/;
const REVISION = /^\d{8}$/;
/** A reference document is a few hundred kilobytes: a minute is generous. */
const FETCH_TIMEOUT_MS = 60_000;

/** True when a location is a URL rather than a local path. */
function isUrl(location: string): boolean {
  return URL_PATTERN.test(location);
}

/** Reads an input: a URL is fetched, anything else is a local file. Failures name the input. */
export async function load(location: string): Promise<Uint8Array> {
  try {
    if (isUrl(location)) {
      const response = await fetch(location, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    }
    return await readFile(location);
  } catch (error) {
    throw new SyncInputError(location, `cannot be read (${(error as Error).message})`);
  }
}

/** The Gemini API reference: a discovery document. */
interface GeminiSource {
  location: string;
  /** The discovery document's `id`; a document with another id is the wrong document. */
  id: string;
  /** The discovery revision last synced into `schemas/`. */
  revision: string;
}

/** One MCP protocol version we follow. */
export interface McpSource {
  protocolVersion: string;
  location: string;
}

/** One MCP extension we follow: its identifier and where its schema lives. */
interface McpExtensionSource {
  extension: string;
  location: string;
}

/** A reference that is the protobufjs descriptor an npm package ships (Vertex AI's, the Live API's). */
export interface VertexSource {
  /** The npm package (a pinned devDependency), e.g. `@google-cloud/aiplatform`. */
  package: string;
  /** The version last synced. */
  version: string;
  /** Its `protos.json`. */
  location: string;
}

/** `schema-sources.json`, read and checked. */
export interface SchemaSources {
  /** The file it was read from. */
  file: string;
  gemini: GeminiSource;
  /** Oldest protocol version first. */
  mcp: McpSource[];
  /** The MCP extensions whose schemas we vendor (`mcpExtensions`), by identifier. */
  mcpExtensions: McpExtensionSource[];
  vertex?: VertexSource;
  /** The Live API's messages: `@google-ai/generativelanguage`'s descriptor. */
  live?: VertexSource;
}

function text(file: string, value: unknown, what: string, pattern?: RegExp): string {
  if (typeof value !== 'string' || value === '' || (pattern && !pattern.test(value))) {
    throw new SyncInputError(file, `${what} must be ${pattern ? `like ${pattern}` : 'a string'}`);
  }
  return value;
}

/** A location from the file: a URL as it is, a path relative to the file's folder. */
function located(file: string, location: string): string {
  return isUrl(location) ? location : resolve(dirname(file), location);
}

/** Reads and checks a sources file; anything missing or malformed is a SyncInputError. */
export async function readSources(file: string): Promise<SchemaSources> {
  const bytes = await load(file);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (error) {
    throw new SyncInputError(file, `not valid JSON (${(error as Error).message})`);
  }
  if (!isJsonObject(value) || !isJsonObject(value.gemini) || !isJsonObject(value.mcp)) {
    throw new SyncInputError(file, 'needs a "gemini" object and an "mcp" object');
  }
  const gemini: GeminiSource = {
    location: located(file, text(file, value.gemini.location, 'gemini.location')),
    id: text(file, value.gemini.id, 'gemini.id'),
    revision: text(file, value.gemini.revision, 'gemini.revision', REVISION),
  };
  const mcp = Object.entries(value.mcp).map(([protocolVersion, location]) => ({
    protocolVersion: text(file, protocolVersion, 'an mcp key', PROTOCOL_VERSION),
    location: located(file, text(file, location, `mcp.${protocolVersion}`)),
  }));
  if (mcp.length === 0) throw new SyncInputError(file, 'lists no MCP protocol version');
  mcp.sort((a, b) => (a.protocolVersion < b.protocolVersion ? -1 : 1));
  if (value.mcpExtensions !== undefined && !isJsonObject(value.mcpExtensions)) {
    throw new SyncInputError(file, '"mcpExtensions" must be an object');
  }
  const mcpExtensions = Object.entries(value.mcpExtensions ?? {})
    .map(([extension, location]) => ({
      extension,
      location: located(file, text(file, location, `mcpExtensions.${extension}`)),
    }))
    .sort((a, b) => (a.extension < b.extension ? -1 : 1));
  const vertex = packageSource(file, value.vertex, 'vertex');
  const live = packageSource(file, value.live, 'live');
  return {
    file,
    gemini,
    mcp,
    mcpExtensions,
    ...(vertex ? { vertex } : {}),
    ...(live ? { live } : {}),
  };
}

/** A package's descriptor as the sources file names it (`vertex`, `live`), if it names one. */
function packageSource(file: string, value: unknown, key: string): VertexSource | undefined {
  if (value === undefined) return undefined;
  if (!isJsonObject(value)) throw new SyncInputError(file, `"${key}" must be an object`);
  return {
    package: text(file, value.package, `${key}.package`),
    version: text(file, value.version, `${key}.version`, /^\d+\.\d+\.\d+$/),
    location: located(file, text(file, value.location, `${key}.location`)),
  };
}

/**
 * The version of the npm package a local `protos.json` belongs to (its `package.json` two folders
 * up, as `@google-cloud/aiplatform` lays it out), or the version the sources file names.
 */
export async function vertexPackageVersion(source: VertexSource): Promise<string> {
  if (isUrl(source.location)) return `${source.package}@${source.version}`;
  try {
    const manifest: unknown = JSON.parse(
      await readFile(resolve(dirname(source.location), '..', '..', 'package.json'), 'utf8'),
    );
    if (isJsonObject(manifest) && manifest.name === source.package) {
      return `${source.package}@${String(manifest.version)}`;
    }
  } catch {
    // not laid out as the package is: the sources file's word stands
  }
  return `${source.package}@${source.version}`;
}

/**
 * Records in the sources file what was just synced: the Gemini revision, and the versions of the
 * Vertex AI and Live API packages (the rest of the file is kept).
 */
export async function recordSynced(
  file: string,
  revision: string,
  vertexPackage: string | undefined,
  livePackage?: string,
): Promise<void> {
  const value: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (!isJsonObject(value) || !isJsonObject(value.gemini)) {
    throw new SyncInputError(file, 'needs a "gemini" object');
  }
  const before = JSON.stringify(value);
  value.gemini.revision = revision;
  const version = vertexPackage?.slice(vertexPackage.lastIndexOf('@') + 1);
  if (isJsonObject(value.vertex) && version) value.vertex.version = version;
  const liveVersion = livePackage?.slice(livePackage.lastIndexOf('@') + 1);
  if (isJsonObject(value.live) && liveVersion) value.live.version = liveVersion;
  if (JSON.stringify(value) === before) return;
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Vertex AI's `tool.proto` of each API version, from the folder a local `protos.json` lies in
 * (`google/cloud/aiplatform/<version>/tool.proto`, as `@google-cloud/aiplatform` lays it out):
 * the comments there state limits that `protos.json` drops. A version whose file is absent (a URL,
 * another layout) is left out, and the limits it would confirm are recorded as not found.
 */
export async function loadVertexProtos(
  protosJson: string,
): Promise<Partial<Record<'v1' | 'v1beta1', string>>> {
  if (isUrl(protosJson)) return {};
  const texts: Partial<Record<'v1' | 'v1beta1', string>> = {};
  for (const version of ['v1', 'v1beta1'] as const) {
    try {
      texts[version] = await readFile(
        resolve(dirname(protosJson), 'google', 'cloud', 'aiplatform', version, 'tool.proto'),
        'utf8',
      );
    } catch {
      // not there: its citations are recorded as not found
    }
  }
  return texts;
}
