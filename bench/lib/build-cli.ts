/**
 * gemini-mcp-kit built for the benchmarks: a private build, in the run's temp dir, of src/ as
 * committed at HEAD, so the run measures exactly the commit it names and never races a
 * concurrent edit of src/ or `npm run build` over dist/. Each src/ file is emitted by TypeScript's own `transpileModule` with the options of
 * tsconfig.build.json (the project sets `isolatedModules`, so per-file emit is what tsc emits;
 * only the source-map comment differs), the generated validators are copied as `npm run
 * build` does, package.json is put beside it and node_modules linked. A full `tsc -p
 * tsconfig.build.json` type-checks the whole project first (over 30 s on this machine), which
 * --quick cannot afford; the JavaScript is the same.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { copyFile, cp, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** Where the CLI's entry is, and how it got there. */
export interface BuiltCli {
  /** The built package's `dist` directory. */
  readonly dist: string;
  /** `dist/cli/main.js`. */
  readonly main: string;
  /**
   * The same build with the contract proofs compiled out (`adapter/contract.js` replaced by an
   * identity `proveContract`), for P1 and P3's checks-off rows: the switch lives in the
   * benchmark's own build, never in src/.
   */
  readonly unchecked: string;
  readonly how: string;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * The sources to build: src/ as committed at `rev` (default HEAD; a `git archive` snapshot), so
 * the report's commit is exactly what was measured and a file half-written by someone else never
 * is; the working tree when git cannot give one (and `rev` was not asked for).
 */
function snapshot(
  root: string,
  tmp: string,
  rev: string | undefined,
): { base: string; what: string } {
  const base = join(tmp, 'snapshot');
  try {
    mkdirSync(base, { recursive: true });
    const head = execFileSync('git', ['rev-parse', '--short', rev ?? 'HEAD'], { cwd: root })
      .toString()
      .trim();
    const tar = execFileSync(
      'git',
      [
        'archive',
        '--format=tar',
        head,
        'src',
        'package.json',
        'tsconfig.json',
        'tsconfig.build.json',
      ],
      { cwd: root, maxBuffer: 256 * 2 ** 20 },
    );
    execFileSync('tar', ['-x', '-C', base], { input: tar });
    return { base, what: `src/ as committed at ${head}` };
  } catch (error) {
    if (rev !== undefined) throw error;
    return { base: root, what: 'src/ of the working tree (no git snapshot)' };
  }
}

/**
 * Builds src/ of commit `rev` (default HEAD) under `tmp`; returns where the package's dist and
 * CLI entry are.
 */
export async function builtCli(root: string, tmp: string, rev?: string): Promise<BuiltCli> {
  const { base, what } = snapshot(root, tmp, rev);
  const src = join(base, 'src');
  const sources = await filesUnder(src);
  const pkg = join(tmp, 'cli-build');
  const out = join(pkg, 'dist');
  const config = ts.getParsedCommandLineOfConfigFile(
    join(base, 'tsconfig.build.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (config === undefined) throw new Error('cannot read tsconfig.build.json');
  const options: ts.CompilerOptions = {
    ...config.options,
    declaration: false,
    declarationMap: false,
    sourceMap: false,
    noEmit: false,
    // The package is `"type": "module"`: under NodeNext tsc emits ESM for every src/ file, but
    // transpileModule cannot see package.json, so say it.
    module: ts.ModuleKind.ES2022,
  };
  for (const file of sources.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))) {
    const output = ts.transpileModule(await readFile(file, 'utf8'), {
      compilerOptions: options,
      fileName: file,
    });
    const target = join(out, relative(src, file)).replace(/\.ts$/, '.js');
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, output.outputText);
  }
  await mkdir(join(out, 'generated'), { recursive: true });
  for (const file of await readdir(join(src, 'generated'))) {
    // One module per schema family, or the single validators.js of commits before the split.
    if (/^validators(-[\w-]+)?\.js$/.test(file)) {
      await copyFile(join(src, 'generated', file), join(out, 'generated', file));
    }
  }
  await copyFile(join(base, 'package.json'), join(pkg, 'package.json'));
  await symlink(join(root, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  const unchecked = join(pkg, 'dist-unchecked');
  await cp(out, unchecked, { recursive: true });
  await writeFile(
    join(unchecked, 'json', 'contract.js'),
    '/** Benchmark build only: every proof skipped. */\nexport function proveContract(value) {\n  return value;\n}\n',
  );
  return {
    dist: out,
    main: join(out, 'cli', 'main.js'),
    unchecked,
    how: `a private build of ${what} in the temp dir (TypeScript \`transpileModule\` per file with the tsconfig.build.json options: the JavaScript \`npm run build\` emits)`,
  };
}
