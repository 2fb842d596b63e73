/**
 * The built CLI for P4 and P6. `dist/cli/main.js` when `npm run build` left one newer than
 * every file of src/; otherwise a private build in the run's temp dir: each src/ file emitted
 * by TypeScript's own `transpileModule` with the options of tsconfig.build.json (the project
 * sets `isolatedModules`, so per-file emit is what tsc emits), the generated validators copied
 * as `npm run build` does, package.json beside it and node_modules linked. A full `tsc -p
 * tsconfig.build.json` type-checks the whole project first (over 30 s on this machine), which
 * --quick cannot afford; the JavaScript is the same.
 */
import { copyFile, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** Where the CLI's entry is, and how it got there. */
export interface BuiltCli {
  readonly main: string;
  readonly how: string;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

async function newestMtime(files: readonly string[]): Promise<number> {
  const times = await Promise.all(files.map(async (file) => (await stat(file)).mtimeMs));
  return Math.max(...times);
}

/** The CLI to run: the project's fresh dist/, or a private build under `tmp`. */
export async function builtCli(root: string, tmp: string, useDist = true): Promise<BuiltCli> {
  const src = join(root, 'src');
  const sources = await filesUnder(src);
  const distMain = join(root, 'dist', 'cli', 'main.js');
  try {
    if (!useDist) throw new Error('private build asked for');
    const distFiles = await filesUnder(join(root, 'dist'));
    const built = Math.min(
      ...(await Promise.all(distFiles.map(async (f) => (await stat(f)).mtimeMs))),
    );
    if (distFiles.includes(distMain) && built >= (await newestMtime(sources))) {
      return { main: distMain, how: '`dist/` from `npm run build` (newer than every src/ file)' };
    }
  } catch {
    // no dist/: build privately
  }
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
    main: join(out, 'cli', 'main.js'),
    how: 'a private build of src/ in the temp dir (TypeScript `transpileModule` per file, tsconfig.build.json options; no fresh `dist/` was found)',
  };
}
