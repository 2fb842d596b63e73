/**
 * `npm run schemas:sync -- --gemini <discovery.json|URL> --mcp [VERSION=]<schema.json|URL>... [--out DIR] [--check]`
 *
 * Rebuilds `schemas/` from the Gemini API's discovery document and the MCP specification's
 * schemas, prints a field-level change report, and with `--check` exits 1 instead of writing when
 * `schemas/` would change. Bad input: a clear message naming the input, exit 2, nothing written.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isJsonObject, type JsonObject } from './lib/canonical-json.js';
import { changeReport } from './lib/change-report.js';
import { readTree, replaceTree } from './lib/schema-dir.js';
import { buildSchemaTree, type SyncInput } from './lib/sync.js';
import { SyncInputError } from './lib/sync-error.js';

const PROTOCOL_VERSION = /(\d{4}-\d{2}-\d{2})/;

async function load(location: string): Promise<Uint8Array> {
  try {
    if (/^https?:\/\//.test(location)) {
      const response = await fetch(location);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    }
    return await readFile(location);
  } catch (error) {
    throw new SyncInputError(location, `cannot be read (${(error as Error).message})`);
  }
}

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

function parseTree(tree: Map<string, string>): Map<string, JsonObject> {
  const parsed = new Map<string, JsonObject>();
  for (const [file, text] of tree) {
    try {
      const value: unknown = JSON.parse(text);
      if (isJsonObject(value)) parsed.set(file, value);
    } catch {
      // an unparsable old file shows up as removed and re-added
    }
  }
  return parsed;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      gemini: { type: 'string' },
      mcp: { type: 'string', multiple: true },
      out: { type: 'string', default: 'schemas' },
      check: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!values.gemini || !values.mcp?.length) {
    throw new SyncInputError(
      'usage',
      'schemas:sync -- --gemini <file|URL> --mcp <file|URL>... [--out DIR] [--check]',
    );
  }
  const gemini: SyncInput = { location: values.gemini, bytes: await load(values.gemini) };
  const mcp = await Promise.all(values.mcp.map(mcpInput));
  const next = buildSchemaTree(gemini, mcp);
  const out = resolve(values.out);
  const current = await readTree(out);

  const changed =
    current.size !== next.size || [...next].some(([file, text]) => current.get(file) !== text);
  const report = changeReport(parseTree(current), parseTree(next));
  for (const line of report) console.log(line);
  if (!changed) {
    console.log(`schemas: up to date (${next.size} files)`);
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
