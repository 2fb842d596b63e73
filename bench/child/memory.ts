/**
 * Child process of the memory figure (run with `node --expose-gc --import tsx`): the heap taken
 * by a tool set of the corpus in argv[2], printed as one JSON line on stdout.
 */
import { readFile } from 'node:fs/promises';
import { functionDeclarations } from '../../src/declarations.js';
import { buildToolSet } from '../../src/toolset/build.js';
import type { ServerTools, ToolSet } from '../../src/toolset/types.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

function heap(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

const path = process.argv[2];
if (path === undefined) throw new Error('usage: memory.ts CORPUS.json');
const text = await readFile(path, 'utf8');

const empty = heap();
let servers: ServerTools[] | undefined = JSON.parse(text) as ServerTools[];
const withLists = heap();
const toolset: ToolSet = buildToolSet(servers).toolset;
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
