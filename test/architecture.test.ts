/**
 * The house rules of DESIGN.md section 1: src/ is layered as folders, each importing only from
 * the layers below it, and nothing imports in a cycle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

/**
 * The layers, bottom up. `errors.ts` is the one module below them all (the generated guards
 * throw its error class); `index.ts` and `genai.ts` (the `gemini-mcp/genai` entry) are the
 * package's entries above the library layers.
 */
const LAYERS = ['generated', 'json', 'schema', 'adapter', 'runtime', 'cli'] as const;
type Layer = (typeof LAYERS)[number] | 'errors' | 'index';

/** What each layer may import, besides itself. */
const ALLOWED: Record<Layer, readonly Layer[]> = {
  errors: [],
  generated: ['errors'],
  json: ['errors', 'generated'],
  schema: ['errors', 'generated', 'json'],
  adapter: ['errors', 'generated', 'json', 'schema'],
  runtime: ['errors', 'generated', 'json', 'schema', 'adapter'],
  // The library never imports the CLI; the CLI may import the whole library.
  cli: ['errors', 'generated', 'json', 'schema', 'adapter', 'runtime'],
  index: ['errors', 'generated', 'json', 'schema', 'adapter', 'runtime'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|js)$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => join(dir, file));
}

/** Relative imports of a file, as project-relative paths of .ts sources. */
function localImports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => {
    const target = relative(root, resolve(dirname(join(root, file)), match[1]!));
    return target.endsWith('validators.js') ? target : target.replace(/\.js$/, '.ts');
  });
}

/** The layer a src/ file belongs to, or `undefined` for a file outside every layer. */
function layerOf(file: string): Layer | undefined {
  if (file === 'src/errors.ts') return 'errors';
  if (file === 'src/index.ts' || file === 'src/genai.ts') return 'index';
  const folder = file.split('/')[1];
  return LAYERS.find((layer) => layer === folder);
}

const srcFiles = sourceFiles('src');
const graph = new Map(srcFiles.map((file) => [file, localImports(file)]));

describe('architecture', () => {
  it('every src/ file belongs to a layer: ls src shows generated, json, schema, adapter, runtime, cli', () => {
    const loose = srcFiles.filter((file) => layerOf(file) === undefined);
    expect(loose).toEqual([]);
    const folders = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual([...LAYERS].sort());
  });

  it('test/ has a folder for every layer of src/', () => {
    const folders = new Set(
      readdirSync(join(root, 'test'), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name),
    );
    for (const layer of LAYERS) expect(folders.has(layer), `test/${layer}`).toBe(true);
  });

  it('each layer imports only from the layers below it (the library never imports the CLI)', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      const from = layerOf(file);
      if (from === undefined) continue;
      for (const target of imports) {
        const to = layerOf(target);
        if (to === undefined || (to !== from && !ALLOWED[from].includes(to))) {
          wrong.push(`${file} (${from}) -> ${target} (${to ?? 'outside src'})`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the rule catches an upward import (the checker itself is checked)', () => {
    expect(ALLOWED.adapter.includes('runtime')).toBe(false);
    expect(ALLOWED.runtime.includes('cli')).toBe(false);
    expect(layerOf('src/runtime/connect.ts')).toBe('runtime');
    expect(layerOf('src/loose.ts')).toBeUndefined();
  });

  it('src/ has no import cycles', () => {
    const state = new Map<string, 'visiting' | 'done'>();
    const cycles: string[] = [];
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'visiting');
      for (const target of graph.get(file) ?? []) visit(target, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
