// The memory figure's child (`node --expose-gc bench/child/memory.mjs DIST CORPUS.json`): the
// heap a tool set of the corpus takes, as one JSON line on stdout. DIST is the built package.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, path] = process.argv.slice(2);
if (dist === undefined || path === undefined) throw new Error('usage: memory.mjs DIST CORPUS.json');
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
// The package's public entry, as a user imports it.
const { buildToolSet, functionDeclarations } = await import(
  pathToFileURL(join(dist, 'index.js')).href
);

const heap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};

const text = await readFile(path, 'utf8');
const empty = heap();
let servers = JSON.parse(text);
const withLists = heap();
const { toolset } = buildToolSet(servers);
const withSet = heap();
servers = undefined;
const setAlone = heap();
const declarations = functionDeclarations(toolset);
const withDeclarations = heap();

process.stdout.write(
  `${JSON.stringify({
    tools: toolset.entries.length,
    declarations: declarations.length,
    toolLists: withLists - empty,
    setOverLists: withSet - withLists,
    setRetained: setAlone - empty,
    declarationsBytes: withDeclarations - setAlone,
    jsonBytes: Buffer.byteLength(text),
  })}\n`,
);
