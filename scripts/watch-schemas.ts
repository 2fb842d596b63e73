/**
 * `npm run schemas:watch [-- --sources FILE] [--gemini FILE|URL] [--mcp VERSION=FILE|URL]...
 *   [--schemas DIR] [--generated DIR] [--report FILE] [--github-output FILE]`
 *
 * Reads every source that `schema-sources.json` lists (or a local file given in its place), syncs
 * into a scratch folder, regenerates there, and writes a Markdown report (stdout, and `--report`):
 * each source against what was last synced, the field changes per source, the generated files
 * that would change, the public types that change shape. Exit 0 when nothing changed, 1 when
 * something did, 2 when a source cannot be read or is not what it should be (never a silent
 * pass). With `--github-output`, `changed=true|false` is appended to that file and a change
 * exits 0, so that a workflow can go on to apply it; a bad source still exits 2.
 */
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isJsonObject, type JsonObject, sha256 } from './lib/canonical-json.js';
import { limitChanges, parseTree, schemaChanges } from './lib/change-report.js';
import { readDiscovery } from './lib/discovery.js';
import {
  type DriftFindings,
  renderDriftReport,
  renderSourceErrors,
  type SourceStatus,
} from './lib/drift-report.js';
import { readTree, replaceTree } from './lib/schema-dir.js';
import {
  load,
  loadVertexProtos,
  type McpSource,
  readSources,
  type SchemaSources,
  SOURCES_FILE,
  vertexPackageVersion,
} from './lib/sources.js';
import { buildSchemaTree, LIMITS_FILE, type SyncInput } from './lib/sync.js';
import { SyncInputError } from './lib/sync-error.js';
import { treeDifferences } from './lib/tree-diff.js';

function options() {
  return parseArgs({
    options: {
      sources: { type: 'string', default: SOURCES_FILE },
      gemini: { type: 'string' },
      mcp: { type: 'string', multiple: true },
      schemas: { type: 'string', default: 'schemas' },
      generated: { type: 'string', default: 'src/generated' },
      report: { type: 'string' },
      'github-output': { type: 'string' },
    },
    strict: true,
  }).values;
}

type Options = ReturnType<typeof options>;

/** The sources file with the command line's local files in place of its locations. */
function withOverrides(sources: SchemaSources, values: Options): SchemaSources {
  const mcp = new Map(sources.mcp.map((source) => [source.protocolVersion, source.location]));
  for (const argument of values.mcp ?? []) {
    const named = /^(\d{4}-\d{2}-\d{2})=(.+)$/.exec(argument);
    if (!named) throw new SyncInputError(argument, 'name the version: --mcp 2025-11-25=<file|URL>');
    mcp.set(named[1]!, named[2]!);
  }
  const followed: McpSource[] = [...mcp]
    .map(([protocolVersion, location]) => ({ protocolVersion, location }))
    .sort((a, b) => (a.protocolVersion < b.protocolVersion ? -1 : 1));
  return {
    ...sources,
    gemini: { ...sources.gemini, location: values.gemini ?? sources.gemini.location },
    mcp: followed,
  };
}

/** The inputs of one sync. */
interface Inputs {
  gemini: SyncInput;
  mcp: SyncInput[];
  vertex?: SyncInput;
  live?: SyncInput;
}

/** Reads every source; every one that fails is named, not only the first. */
async function loadAll(sources: SchemaSources): Promise<Inputs> {
  const vertex = sources.vertex;
  const vertexPackage = vertex ? await vertexPackageVersion(vertex) : '';
  const live = sources.live;
  const livePackage = live ? await vertexPackageVersion(live) : '';
  const wanted: Omit<SyncInput, 'bytes'>[] = [
    { location: sources.gemini.location },
    ...(vertex ? [{ location: vertex.location, packageVersion: vertexPackage }] : []),
    ...(live ? [{ location: live.location, packageVersion: livePackage }] : []),
    ...sources.mcp.map(({ location, protocolVersion }) => ({ location, protocolVersion })),
    ...sources.mcpExtensions.map(({ location, extension }) => ({ location, extension })),
  ];
  const read = await Promise.allSettled(wanted.map(({ location }) => load(location)));
  const errors = read.flatMap((result) =>
    result.status === 'rejected' ? [(result.reason as Error).message] : [],
  );
  if (errors.length > 0) throw new SourceErrors(errors);
  const inputs = wanted.map((input, i) => ({
    ...input,
    bytes: (read[i] as PromiseFulfilledResult<Uint8Array>).value,
  }));
  const mcpFrom = 1 + (vertex ? 1 : 0) + (live ? 1 : 0);
  return {
    gemini: inputs[0]!,
    mcp: inputs.slice(mcpFrom),
    ...(vertex ? { vertex: inputs[1]! } : {}),
    ...(live ? { live: inputs[vertex ? 2 : 1]! } : {}),
  };
}

/** Several sources at fault at once. */
class SourceErrors extends Error {
  readonly errors: string[];
  constructor(errors: string[]) {
    super(errors.join('\n'));
    this.errors = errors;
  }
}

/** The discovery document must be the API the sources file names, and not older than the last sync. */
function checkGemini(sources: SchemaSources, input: SyncInput): string {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(input.bytes).toString('utf8'));
  } catch (error) {
    throw new SyncInputError(
      input.location,
      `not valid JSON, perhaps truncated (${(error as Error).message})`,
    );
  }
  const discovery = readDiscovery(input.location, value);
  if (discovery.id !== sources.gemini.id) {
    throw new SyncInputError(
      input.location,
      `is the discovery document of "${discovery.id}", not "${sources.gemini.id}"`,
    );
  }
  if (discovery.revision < sources.gemini.revision) {
    throw new SyncInputError(
      input.location,
      `has revision ${discovery.revision}, older than the ${sources.gemini.revision} last synced (${basename(sources.file)})`,
    );
  }
  return discovery.revision;
}

const short = (hash: string): string => hash.slice(0, 12);

function manifestInputs(current: Map<string, string>): {
  gemini?: JsonObject;
  mcp: JsonObject[];
  mcpExtensions: JsonObject[];
  vertex?: JsonObject;
  live?: JsonObject;
} {
  const manifest = parseTree(current).get('manifest.json');
  const inputs = isJsonObject(manifest?.inputs) ? manifest.inputs : {};
  return {
    ...(isJsonObject(inputs.gemini) ? { gemini: inputs.gemini } : {}),
    mcp: Array.isArray(inputs.mcp) ? inputs.mcp.filter(isJsonObject) : [],
    mcpExtensions: Array.isArray(inputs.mcpExtensions)
      ? inputs.mcpExtensions.filter(isJsonObject)
      : [],
    ...(isJsonObject(inputs.vertex) ? { vertex: inputs.vertex } : {}),
    ...(isJsonObject(inputs.live) ? { live: inputs.live } : {}),
  };
}

function sourceStatuses(
  sources: SchemaSources,
  inputs: Inputs,
  revision: string,
  current: Map<string, string>,
): SourceStatus[] {
  const synced = manifestInputs(current);
  const geminiHash = sha256(inputs.gemini.bytes);
  const statuses: SourceStatus[] = [
    {
      name: 'Gemini API',
      location: inputs.gemini.location,
      lastSynced: `revision ${sources.gemini.revision}, sha256 ${short(String(synced.gemini?.sha256 ?? '?'))}`,
      now: `revision ${revision}, sha256 ${short(geminiHash)}`,
      changed: synced.gemini?.sha256 !== geminiHash,
    },
  ];
  if (inputs.vertex) {
    const hash = sha256(inputs.vertex.bytes);
    const last = synced.vertex;
    statuses.push({
      name: 'Vertex AI',
      location: inputs.vertex.location,
      lastSynced: last
        ? `${String(last.package)}, sha256 ${short(String(last.sha256))}`
        : 'not followed yet',
      now: `${inputs.vertex.packageVersion ?? '?'}, sha256 ${short(hash)}`,
      changed: last?.sha256 !== hash,
    });
  }
  if (inputs.live) {
    const hash = sha256(inputs.live.bytes);
    const last = synced.live;
    statuses.push({
      name: 'Gemini Live API',
      location: inputs.live.location,
      lastSynced: last
        ? `${String(last.package)}, sha256 ${short(String(last.sha256))}`
        : 'not followed yet',
      now: `${inputs.live.packageVersion ?? '?'}, sha256 ${short(hash)}`,
      changed: last?.sha256 !== hash,
    });
  }
  for (const input of inputs.mcp) {
    const last =
      input.extension === undefined
        ? synced.mcp.find((entry) => entry.protocolVersion === input.protocolVersion)
        : synced.mcpExtensions.find((entry) => entry.extension === input.extension);
    const hash = sha256(input.bytes);
    statuses.push({
      name: `MCP ${input.extension ?? input.protocolVersion}`,
      location: input.location,
      lastSynced: last ? `sha256 ${short(String(last.sha256))}` : 'not followed yet (new version)',
      now: `sha256 ${short(hash)}`,
      changed: last?.sha256 !== hash,
    });
  }
  for (const last of synced.mcp) {
    if (inputs.mcp.some((input) => input.protocolVersion === last.protocolVersion)) continue;
    statuses.push({
      name: `MCP ${String(last.protocolVersion)}`,
      location: String(last.source),
      lastSynced: `sha256 ${short(String(last.sha256))}`,
      now: `no longer followed (not in ${basename(sources.file)})`,
      changed: true,
    });
  }
  return statuses;
}

/** Regenerates from the scratch `schemas/` and compares with the committed generated files. */
async function regenerate(tree: Map<string, string>): Promise<Map<string, string>> {
  const scratch = await mkdtemp(join(tmpdir(), 'gemini-mcp-watch-'));
  try {
    const schemas = join(scratch, 'schemas');
    await replaceTree(schemas, tree);
    // the generator and ts-morph load only when there is something to generate
    const { generateAll } = await import('./lib/generate.js');
    return await generateAll(schemas);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function applyCommands(sourcesFile: string, overridden: boolean): string[] {
  const sync = overridden
    ? 'npm run schemas:sync -- --gemini <file|URL> --mcp <VERSION=file|URL>...'
    : `npm run schemas:sync -- --sources ${sourcesFile}`;
  return [sync, 'npm run generate', 'npm test'];
}

async function watch(values: Options): Promise<{ code: number; report: string }> {
  const sources = withOverrides(await readSources(resolve(values.sources)), values);
  const inputs = await loadAll(sources);
  const revision = checkGemini(sources, inputs.gemini);
  const protos = inputs.vertex === undefined ? {} : await loadVertexProtos(inputs.vertex.location);
  const next = buildSchemaTree(inputs.gemini, inputs.mcp, inputs.vertex, protos, inputs.live);
  const current = await readTree(resolve(values.schemas));
  if (current.size === 0) {
    throw new SyncInputError(values.schemas, 'holds no schemas: nothing to compare with');
  }
  const schemasChanged =
    current.size !== next.size || [...next].some(([file, text]) => current.get(file) !== text);

  let generated: DriftFindings['generated'] = null;
  let types: DriftFindings['types'] = null;
  if (schemasChanged) {
    const fresh = await regenerate(next);
    const committed = await readTree(resolve(values.generated));
    generated = treeDifferences(committed, fresh);
    const { typeShapeChanges } = await import('./lib/type-shapes.js');
    types = typeShapeChanges(committed.get('types.ts') ?? '', fresh.get('types.ts') ?? '');
  }
  const overridden = values.gemini !== undefined || (values.mcp?.length ?? 0) > 0;
  const findings: DriftFindings = {
    sources: sourceStatuses(sources, inputs, revision, current),
    changes: schemaChanges(parseTree(current), parseTree(next)),
    limits: limitChanges(parseTree(current).get(LIMITS_FILE), parseTree(next).get(LIMITS_FILE)),
    schemasChanged,
    generated,
    types,
    apply: applyCommands(values.sources, overridden),
  };
  return { code: schemasChanged ? 1 : 0, report: renderDriftReport(findings) };
}

async function main(): Promise<number> {
  const values = options();
  let outcome: { code: number; report: string };
  try {
    outcome = await watch(values);
  } catch (error) {
    const errors =
      error instanceof SourceErrors
        ? error.errors
        : [error instanceof Error ? error.message : String(error)];
    for (const message of errors) console.error(`schemas:watch: ${message}`);
    outcome = { code: 2, report: renderSourceErrors(errors) };
  }
  process.stdout.write(outcome.report);
  if (values.report) await writeFile(values.report, outcome.report);
  const output = values['github-output'];
  if (output && outcome.code !== 2) {
    await appendFile(output, `changed=${outcome.code === 1}\n`);
    return 0;
  }
  return outcome.code;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`schemas:watch: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
