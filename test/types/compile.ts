/**
 * The type test's compiler: TypeScript code (the README's blocks, the integration points) compiled
 * in memory, as a user's project compiles it, against one installed version of @google/genai and
 * one of @modelcontextprotocol/sdk (the package's, genai's and the code's imports all see that one
 * copy, as in an app where npm installed the peers once). `gemini-mcp-kit` resolves by the
 * package's own name through its `exports` map to the built `dist/*.d.ts`, which is what an
 * installed gemini-mcp-kit gives a user.
 */
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { fencedBlocks } from '../../scripts/lib/fenced-blocks.js';

const root = resolve(import.meta.dirname, '..', '..');

/** One TypeScript source to compile, and where its line 1 comes from. */
export interface Snippet {
  /** A file name, unique among the snippets compiled together. */
  name: string;
  text: string;
  /** The file the text was taken from, and the line its first line has there. */
  origin: { file: string; line: number };
}

/**
 * The installs of @google/genai the types are compiled against (`genai3` is an npm alias). The
 * peer range's floor is the newest 2.x: the oldest release with everything the code and the open
 * issues use (`Session.sendContextUpdate` came last, in 2.32.0).
 */
export const GENAI_VERSIONS = [
  { label: 'the peer floor, newest 2.x', pkg: '@google/genai' },
  { label: 'newest 3.x', pkg: 'genai3' },
] as const;

/** The installs of @modelcontextprotocol/sdk, oldest and newest of the peer range (an npm alias). */
export const MCP_SDK_VERSIONS = [
  { label: 'oldest in the peer range', pkg: 'mcp-sdk-oldest' },
  { label: 'newest', pkg: '@modelcontextprotocol/sdk' },
] as const;

/** `strict` as most projects set it, and with the two flags this project adds. */
export const STRICTNESS = {
  strict: {},
  strictest: { noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true },
} as const satisfies Record<string, ts.CompilerOptions>;

/**
 * Every ```ts (or ```typescript) block of a Markdown text, verbatim, with the line it starts on.
 */
export function typescriptBlocks(markdown: string, file: string): Snippet[] {
  return fencedBlocks(markdown, ['ts', 'typescript']).map((block, index) => ({
    name: `block-${index + 1}.ts`,
    text: block.text,
    origin: { file, line: block.line },
  }));
}

/** Declaration files parsed once for every compilation (they never change during a run). */
const parsed = new Map<string, ts.SourceFile | undefined>();
const plainHost = ts.createCompilerHost({});

function libraryFile(
  path: string,
  languageVersion: ts.ScriptTarget | ts.CreateSourceFileOptions,
): ts.SourceFile | undefined {
  const format = typeof languageVersion === 'object' ? languageVersion.impliedNodeFormat : '';
  const key = `${path}\0${format}`;
  if (!parsed.has(key)) parsed.set(key, plainHost.getSourceFile(path, languageVersion));
  return parsed.get(key);
}

/**
 * Compiles the snippets together (each its own ES module, as if in a project folder next to
 * the package) with `@google/genai` resolved to the install `genaiPackage` and
 * `@modelcontextprotocol/sdk` to `sdkPackage`, and returns every diagnostic as
 * `file:line:column: message`, the position mapped back to the snippet's origin.
 */
export function compileSnippets(
  snippets: readonly Snippet[],
  genaiPackage: string,
  strictness: ts.CompilerOptions,
  sdkPackage = '@modelcontextprotocol/sdk',
): string[] {
  // Virtual files in a folder of this package, so that `gemini-mcp-kit` resolves to it by name.
  const folder = join(root, 'test', 'types', '.snippets');
  const byPath = new Map(snippets.map((snippet) => [join(folder, snippet.name), snippet]));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    ...strictness,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    typeRoots: [join(root, 'node_modules', '@types')],
    paths: {
      '@google/genai': [join(root, 'node_modules', genaiPackage, 'dist', 'node', 'node.d.ts')],
      // The SDK's `exports` map sends its `./*` subpaths to dist/esm: the same, in the chosen install.
      '@modelcontextprotocol/sdk/*': [join(root, 'node_modules', sdkPackage, 'dist', 'esm', '*')],
    },
  };
  const host = ts.createCompilerHost(options);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.fileExists = (path) => byPath.has(path) || fileExists(path);
  host.readFile = (path) => byPath.get(path)?.text ?? readFile(path);
  host.getSourceFile = (path, language) => {
    const snippet = byPath.get(path);
    if (snippet === undefined) return libraryFile(path, language);
    return ts.createSourceFile(path, snippet.text, language, true, ts.ScriptKind.TS);
  };
  const program = ts.createProgram([...byPath.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const file = diagnostic.file;
    if (file === undefined || diagnostic.start === undefined) return message;
    const { line, character } = file.getLineAndCharacterOfPosition(diagnostic.start);
    const snippet = byPath.get(file.fileName);
    const where =
      snippet === undefined
        ? `${file.fileName}:${line + 1}`
        : `${snippet.origin.file}:${snippet.origin.line + line}`;
    return `${where}:${character + 1}: TS${diagnostic.code}: ${message}`;
  });
}
