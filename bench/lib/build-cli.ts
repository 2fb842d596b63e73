/**
 * gemini-mcp built for the benchmarks: a private build of src/ in the run's temp dir, so the
 * run measures the sources as they are and never races a concurrent `npm run build` over
 * dist/. Each src/ file is emitted by TypeScript's own `transpileModule` with the options of
 * tsconfig.build.json (the project sets `isolatedModules`, so per-file emit is what tsc emits;
 * only the source-map comment differs), the generated validators are copied as `npm run
 * build` does, package.json is put beside it and node_modules linked. A full `tsc -p
 * tsconfig.build.json` type-checks the whole project first (over 30 s on this machine), which
 * --quick cannot afford; the JavaScript is the same.
 */
import { copyFile, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** Where the CLI's entry is, and how it got there. */
export interface BuiltCli {
  /** The built package's `dist` directory. */
  readonly dist: string;
  /** `dist/cli/main.js`. */
  readonly main: string;
  readonly how: string;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Builds src/ under `tmp`; returns where the package's dist and CLI entry are. */
export async function builtCli(root: string, tmp: string): Promise<BuiltCli> {
  const src = join(root, 'src');
  const sources = await filesUnder(src);
  const pkg = join(tmp, 'cli-build');
  const out = join(pkg, 'dist');
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.build.json'),
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
  await copyFile(join(src, 'generated', 'validators.js'), join(out, 'generated', 'validators.js'));
  await copyFile(join(root, 'package.json'), join(pkg, 'package.json'));
  await symlink(join(root, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  return {
    dist: out,
    main: join(out, 'cli', 'main.js'),
    how: 'a private build of the current src/ in the temp dir (TypeScript `transpileModule` per file with the tsconfig.build.json options: the JavaScript `npm run build` emits)',
  };
}
