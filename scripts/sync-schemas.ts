/**
 * `npm run schemas:sync -- --gemini <discovery.json|URL> --mcp [VERSION=]<schema.json|URL>...
 *   [--mcp-extension IDENTIFIER=<schema.json|URL>]...
 *   [--vertex PACKAGE@VERSION=<protos.json>] [--live PACKAGE@VERSION=<protos.json>] [--out DIR] [--check]`
 * or `npm run schemas:sync -- --sources schema-sources.json [--out DIR] [--check]`
 *
 * Rebuilds `schemas/` from the Gemini API's discovery document and the MCP specification's
 * schemas, prints a field-level change report, and with `--check` exits 1 instead of writing when
 * `schemas/` would change. Bad input: a clear message naming the input, exit 2, nothing written.
 * With `--sources`, the inputs are the ones the sources file lists, and a write records there the
 * Gemini revision synced. Writing `schemas/` (or with `--readme FILE`) also rewrites the table of
 * fields that differ between the Gemini API and the Vertex AI versions in the README.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isJsonObject } from './lib/canonical-json.js';
import { changeReport, parseTree, unfoundCitations } from './lib/change-report.js';
import { dialectTable, withDialectTable } from './lib/dialect-table.js';
import { readTree, replaceTree } from './lib/schema-dir.js';
import {
  load,
  loadVertexProtos,
  readSources,
  recordSynced,
  vertexPackageVersion,
} from './lib/sources.js';
import { buildSchemaTree, type SyncInput } from './lib/sync.js';
import { SyncInputError } from './lib/sync-error.js';

const PROTOCOL_VERSION = /(\d{4}-\d{2}-\d{2})/;

async function mcpInput(argument: string): Promise<SyncInput> {
  const explicit = /^(\d{4}-\d{2}-\d{2})=(.+)$/.exec(argument);
  const location = explicit ? explicit[2]! : argument;
  const protocolVersion = explicit
    ? explicit[1]
    : PROTOCOL_VERSION.exec(location.split('/').at(-1) ?? '')?.[1];
  if (!protocolVersion) {
    throw new SyncInputError(
      location,
      'no protocol version: name it as --mcp 2025-11-25=<file|URL>',
    );
  }
  return { location, protocolVersion, bytes: await load(location) };
}

/** `--mcp-extension IDENTIFIER=<schema.json|URL>`: an MCP extension's schema. */
async function extensionInput(argument: string): Promise<SyncInput> {
  const named = /^([^=]+\/[^=]+)=(.+)$/.exec(argument);
  if (!named) {
    throw new SyncInputError(
      argument,
      'name the extension: --mcp-extension io.modelcontextprotocol/tasks=<file|URL>',
    );
  }
  return { location: named[2]!, extension: named[1]!, bytes: await load(named[2]!) };
}

/**
 * `--vertex PACKAGE@VERSION=<protos.json>` (or `--live`): the descriptor and the package it
 * comes from.
 */
async function packageInput(argument: string, example: string): Promise<SyncInput> {
  const named = /^(@?[^=@]+@\d+\.\d+\.\d+)=(.+)$/.exec(argument);
  if (!named) throw new SyncInputError(argument, `name the package: ${example}=<protos.json>`);
  return { location: named[2]!, packageVersion: named[1]!, bytes: await load(named[2]!) };
}

/** The inputs: from a sources file, or from `--gemini` and `--mcp`. */
async function inputs(values: {
  sources?: string | undefined;
  gemini?: string | undefined;
  mcp?: string[] | undefined;
  'mcp-extension'?: string[] | undefined;
  vertex?: string | undefined;
  live?: string | undefined;
}): Promise<{ gemini: SyncInput; mcp: SyncInput[]; vertex?: SyncInput; live?: SyncInput }> {
  if (values.sources) {
    if (
      values.gemini ||
      values.mcp?.length ||
      values['mcp-extension']?.length ||
      values.vertex ||
      values.live
    ) {
      throw new SyncInputError(
        'usage',
        '--sources replaces --gemini and --mcp: give one or the other',
      );
    }
    const sources = await readSources(values.sources);
    return {
      gemini: { location: sources.gemini.location, bytes: await load(sources.gemini.location) },
      mcp: await Promise.all([
        ...sources.mcp.map(async ({ protocolVersion, location }) => ({
          location,
          protocolVersion,
          bytes: await load(location),
        })),
        ...sources.mcpExtensions.map(async ({ extension, location }) => ({
          location,
          extension,
          bytes: await load(location),
        })),
      ]),
      ...(sources.vertex
        ? {
            vertex: {
              location: sources.vertex.location,
              packageVersion: await vertexPackageVersion(sources.vertex),
              bytes: await load(sources.vertex.location),
            },
          }
        : {}),
      ...(sources.live
        ? {
            live: {
              location: sources.live.location,
              packageVersion: await vertexPackageVersion(sources.live),
              bytes: await load(sources.live.location),
            },
          }
        : {}),
    };
  }
  if (!values.gemini || !values.mcp?.length) {
    throw new SyncInputError(
      'usage',
      'schemas:sync -- (--gemini <file|URL> --mcp <file|URL>... | --sources FILE) [--out DIR] [--check]',
    );
  }
  return {
    gemini: { location: values.gemini, bytes: await load(values.gemini) },
    mcp: await Promise.all([
      ...values.mcp.map(mcpInput),
      ...(values['mcp-extension'] ?? []).map(extensionInput),
    ]),
    ...(values.vertex
      ? { vertex: await packageInput(values.vertex, '--vertex @google-cloud/aiplatform@6.11.0') }
      : {}),
    ...(values.live
      ? { live: await packageInput(values.live, '--live @google-ai/generativelanguage@4.1.0') }
      : {}),
  };
}

/** The Gemini revision a built tree records in its manifest. */
function revisionOf(tree: Map<string, string>): string {
  const manifest: unknown = JSON.parse(tree.get('manifest.json') ?? '{}');
  const inputs = isJsonObject(manifest) ? manifest.inputs : undefined;
  const gemini = isJsonObject(inputs) ? inputs.gemini : undefined;
  return isJsonObject(gemini) ? String(gemini.revision) : '';
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      gemini: { type: 'string' },
      mcp: { type: 'string', multiple: true },
      'mcp-extension': { type: 'string', multiple: true },
      sources: { type: 'string' },
      vertex: { type: 'string' },
      live: { type: 'string' },
      out: { type: 'string', default: 'schemas' },
      readme: { type: 'string' },
      check: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const { gemini, mcp, vertex, live } = await inputs(values);
  const protos = vertex === undefined ? {} : await loadVertexProtos(vertex.location);
  const next = buildSchemaTree(gemini, mcp, vertex, protos, live);
  const out = resolve(values.out);
  const current = await readTree(out);

  const changed =
    current.size !== next.size || [...next].some(([file, text]) => current.get(file) !== text);
  const report = changeReport(parseTree(current), parseTree(next));
  for (const line of report) console.log(line);
  for (const line of unfoundCitations(next)) console.warn(line);
  if (!changed) {
    console.log(`schemas: up to date (${next.size} files)`);
    if (values.sources && !values.check)
      await recordSynced(
        values.sources,
        revisionOf(next),
        vertex?.packageVersion,
        live?.packageVersion,
      );
    return 0;
  }
  if (report.length === 0)
    console.log('schemas: bytes differ (provenance or formatting), no field changes');
  if (values.check) {
    console.error(`schemas: ${values.out} would change (run without --check to write it)`);
    return 1;
  }
  await replaceTree(out, next);
  console.log(`schemas: wrote ${next.size} files to ${values.out}`);
  const readme = values.readme ?? (values.out === 'schemas' ? 'README.md' : undefined);
  if (readme && vertex) {
    const table = dialectTable(parseTree(next));
    await writeFile(readme, withDialectTable(await readFile(readme, 'utf8'), table));
    console.log(`schemas: the Gemini / Vertex AI differences table in ${readme} rewritten`);
  }
  if (values.sources)
    await recordSynced(
      values.sources,
      revisionOf(next),
      vertex?.packageVersion,
      live?.packageVersion,
    );
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`schemas:sync: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
