/** The house rules of DESIGN.md section 1: imports run one way and never in a cycle. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

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

const srcFiles = sourceFiles('src');
const graph = new Map(srcFiles.map((file) => [file, localImports(file)]));

describe('architecture', () => {
  it('src/generated imports only itself and the leaf module src/errors.ts', () => {
    expect(graph.get('src/generated/guards.ts')).toContain('src/errors.ts');
    for (const [file, imports] of graph) {
      if (!file.startsWith('src/generated/')) continue;
      for (const target of imports) {
        expect(
          target.startsWith('src/generated/') || target === 'src/errors.ts',
          `${file} -> ${target}`,
        ).toBe(true);
      }
    }
    expect(graph.get('src/errors.ts')).toEqual([]);
  });

  it('nothing in src/ imports scripts/, test/ or bench/', () => {
    for (const [file, imports] of graph) {
      for (const target of imports) expect(target, file).toMatch(/^src\//);
    }
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
