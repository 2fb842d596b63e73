/**
 * The house rules (ARCHITECTURE.md): src/ is layered as folders, each importing only from the
 * layers below it; inside a layer, sub-layer folders keep their own order; nothing imports in a
 * cycle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

/**
 * The layers, bottom up. `errors.ts` is the one module below them all (the generated guards
 * throw its error class); the package's entries (`index.ts`, the root, and `schemas.ts`,
 * `auth.ts`, `features.ts`, `genai.ts`, its subpaths) stand above the library layers.
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

/**
 * Inside the layers: what a sub-layer folder must never import (project-relative prefixes), and
 * why. A file in the layer's own folder (for instance `src/runtime/options.ts`) is the shared
 * bottom of its layer.
 */
const SUBLAYER_RULES: readonly { from: string; never: readonly string[]; why: string }[] = [
  {
    from: 'src/adapter/tools/',
    never: [
      'src/adapter/turn/',
      'src/adapter/sampling/',
      'src/adapter/selection/',
      'src/adapter/resources/',
      'src/adapter/skills/',
    ],
    why: 'the tool set and its declarations come before any turn',
  },
  {
    from: 'src/adapter/turn/',
    never: [
      'src/adapter/sampling/',
      'src/adapter/selection/',
      'src/adapter/resources/',
      'src/adapter/skills/',
    ],
    why: 'sampling, selection, resources and skills build on the turn adapters, not the other way',
  },
  {
    from: 'src/runtime/model/',
    never: ['src/runtime/mcp/', 'src/runtime/turn/'],
    why: 'calling the model knows nothing of MCP servers or turns',
  },
  {
    from: 'src/runtime/mcp/',
    never: ['src/runtime/turn/'],
    why: 'talking to servers never depends on answering the model',
  },
  {
    from: 'src/runtime/turn/',
    never: [
      'src/runtime/mcp/config/',
      'src/runtime/mcp/auth/',
      'src/runtime/mcp/transports/',
      'src/runtime/mcp/features/',
    ],
    why: 'a turn uses the MCP call API, never config, auth, transports or client features',
  },
  {
    from: 'src/cli/validate/',
    never: ['src/runtime/', 'src/cli/servers/'],
    why: 'validate works offline and loads no MCP client',
  },
  {
    from: 'src/cli/servers/',
    never: ['src/cli/validate/'],
    why: 'the server commands and validate are separate commands',
  },
];

/**
 * Layers whose own files (`src/runtime/options.ts`) are the bottom of their sub-layers. The CLI's
 * own files are its entry (`main`, `program`), which dispatches to its command folders.
 */
const LAYER_ROOTS = ['src/adapter/', 'src/runtime/'] as const;

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

/** The package's entries: the root and each subpath of package.json's `exports`. */
const ENTRIES: readonly string[] = [
  'src/index.ts',
  'src/schemas.ts',
  'src/auth.ts',
  'src/features.ts',
  'src/genai.ts',
  'src/live.ts',
];

/** The layer a src/ file belongs to, or `undefined` for a file outside every layer. */
function layerOf(file: string): Layer | undefined {
  if (file === 'src/errors.ts') return 'errors';
  if (ENTRIES.includes(file)) return 'index';
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

  it('inside a layer, each sub-layer folder keeps its order (SUBLAYER_RULES)', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      for (const rule of SUBLAYER_RULES.filter((r) => file.startsWith(r.from))) {
        for (const target of imports.filter((t) => rule.never.some((p) => t.startsWith(p)))) {
          wrong.push(`${file} -> ${target}: ${rule.why}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("a layer's own files import none of its sub-layer folders", () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      const rootFolder = LAYER_ROOTS.find(
        (r) => file.startsWith(r) && !file.slice(r.length).includes('/'),
      );
      if (rootFolder === undefined) continue;
      for (const target of imports) {
        if (target.startsWith(rootFolder) && target.slice(rootFolder.length).includes('/')) {
          wrong.push(`${file} -> ${target}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the rule catches an upward import (the checker itself is checked)', () => {
    expect(ALLOWED.adapter.includes('runtime')).toBe(false);
    expect(ALLOWED.runtime.includes('cli')).toBe(false);
    expect(layerOf('src/runtime/mcp/connect.ts')).toBe('runtime');
    const turnRule = SUBLAYER_RULES.find((rule) => rule.from === 'src/runtime/turn/');
    expect(turnRule?.never.some((p) => 'src/runtime/mcp/transports/stdio.ts'.startsWith(p))).toBe(
      true,
    );
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
