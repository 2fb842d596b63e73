/** Runs one of the project's scripts as a child process, as `npm run` would. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const projectRoot = join(import.meta.dirname, '..', '..');
export const referenceDir = join(projectRoot, '..', 'shared', 'reference');

/** The Live API's reference: the descriptor of the pinned @google-ai/generativelanguage. */
export const liveProtos = join(
  projectRoot,
  'node_modules',
  '@google-ai',
  'generativelanguage',
  'build',
  'protos',
  'protos.json',
);

/** Vertex AI's reference: the descriptor of the pinned @google-cloud/aiplatform devDependency. */
export const vertexProtos = join(
  projectRoot,
  'node_modules',
  '@google-cloud',
  'aiplatform',
  'build',
  'protos',
  'protos.json',
);

/**
 * The MCP tasks extension's schema (`io.modelcontextprotocol/tasks`): a byte-for-byte copy of
 * modelcontextprotocol/ext-tasks `schema/draft/schema.json` at e4345978be1f602f1fc48d89051e8559dd5302a6
 * (2026-08-21; blob 2d6cfbe6b7dfc9f1174c5ac7137b6c7d736838f6), kept here since the shared
 * reference folder does not hold it.
 */
export const tasksExtensionSchema = join(
  import.meta.dirname,
  'reference',
  'mcp-ext-tasks.schema.json',
);

/** The result of a script run. */
export interface ScriptRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `scripts/<name>.ts` with tsx and the given arguments, from the project root. */
export function runScript(name: string, args: readonly string[], timeoutMs = 120_000): ScriptRun {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', join('scripts', `${name}.ts`), ...args],
    {
      cwd: projectRoot,
      encoding: 'utf8',
      timeout: timeoutMs,
    },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The `--gemini`/`--mcp`/`--vertex` arguments for the shared reference files (or other copies of them). */
export function referenceArgs(
  gemini = join(referenceDir, 'gemini-v1beta.discovery.json'),
): string[] {
  return [
    '--gemini',
    gemini,
    ...['2025-06-18', '2025-11-25', '2026-07-28'].flatMap((v) => [
      '--mcp',
      join(referenceDir, `mcp-${v}.schema.json`),
    ]),
    '--mcp-extension',
    `io.modelcontextprotocol/tasks=${tasksExtensionSchema}`,
    '--vertex',
    `@google-cloud/aiplatform@6.11.0=${vertexProtos}`,
    '--live',
    `@google-ai/generativelanguage@4.1.0=${liveProtos}`,
  ];
}
