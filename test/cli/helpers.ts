/** Runs the built `gemini-mcp-kit` (dist/cli/main.js) as a child process, as a user runs it. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');
export const FIXTURES = join(import.meta.dirname, 'fixtures');
export const EXAMPLE_SERVER = join(ROOT, 'dist', 'cli', 'example-server.js');

/** What a run printed and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runCli}. */
export interface RunOptions {
  /** Written to the child's stdin, then stdin is closed. */
  input?: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Extra node flags (before the script). */
  nodeArgs?: string[];
}

/** Runs `node dist/cli/main.js ...args`. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run the CLI tests with their globalSetup (npm run build)`);
  return runProcess(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], options);
}

/**
 * Runs `file ...args` (in the repository root unless `cwd` says otherwise), with `env` over
 * this process's environment (`undefined` removes a variable), and collects what it prints.
 */
export function runProcess(
  file: string,
  args: readonly string[],
  options: Omit<RunOptions, 'nodeArgs'> = {},
): Promise<CliRun> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...options.env })) {
    if (value !== undefined) env[key] = value;
  }
  return new Promise((resolveRun, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd ?? ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      stdout += s;
    });
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      stderr += s;
    });
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** A temporary directory, removed by the returned function. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'gemini-mcp-cli-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The non-empty lines of a stream's text. */
export const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');

/** A one-line message without a stack trace. */
export function expectOneLine(text: string): string {
  const all = lines(text);
  if (all.length !== 1) throw new Error(`expected one line, got ${all.length}:\n${text}`);
  if (/\n\s+at /.test(text)) throw new Error(`stack trace printed:\n${text}`);
  return all[0]!;
}
