/** The committed corpus file (bench/corpus/tools.json): its shape, reading and writing. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One server package of the corpus and the tools it listed. */
export interface CorpusServerEntry {
  /** The npm package. */
  readonly name: string;
  /** The pinned version it was gathered from. */
  readonly version: string;
  /** The package's license (its package.json `license`). */
  readonly license: string;
  /** Arguments the server was started with (dummy values). */
  readonly args?: readonly string[];
  /** Names of the dummy environment variables it was given. */
  readonly env?: readonly string[];
  readonly toolCount: number;
  /** The tools as `tools/list` returned them, sorted by name. */
  readonly tools: readonly Record<string, unknown>[];
}

/** A package that could not be started offline, and why. */
interface SkippedServer {
  readonly name: string;
  readonly version: string;
  readonly reason: string;
}

/** The whole file. */
export interface CorpusFile {
  readonly description: string;
  readonly toolCount: number;
  /** Sorted by package name. */
  readonly servers: readonly CorpusServerEntry[];
  readonly skipped: readonly SkippedServer[];
}

/** The committed corpus. */
export const CORPUS_PATH = fileURLToPath(new URL('./tools.json', import.meta.url));

/** `tools` sorted by name (code-unit order), so the file does not depend on a server's order. */
export function sortTools(tools: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return [...tools].sort((a, b) => {
    const x = String(a.name);
    const y = String(b.name);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/**
 * The file's text: JSON with one tool per line, so a change of pins shows as a readable diff
 * and the file stays compact.
 */
export function formatCorpus(file: CorpusFile): string {
  const lines: string[] = ['{'];
  lines.push(`"description": ${JSON.stringify(file.description)},`);
  lines.push(`"toolCount": ${file.toolCount},`);
  lines.push('"servers": [');
  file.servers.forEach((server, index) => {
    const { tools, ...rest } = server;
    const head = JSON.stringify(rest).slice(0, -1);
    lines.push(`${head},"tools": [`);
    tools.forEach((tool, at) => {
      lines.push(`${JSON.stringify(tool)}${at < tools.length - 1 ? ',' : ''}`);
    });
    lines.push(`]}${index < file.servers.length - 1 ? ',' : ''}`);
  });
  lines.push('],');
  lines.push(`"skipped": ${JSON.stringify(file.skipped)}`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** Reads the committed corpus. */
export function readCorpus(path = CORPUS_PATH): CorpusFile {
  return JSON.parse(readFileSync(path, 'utf8')) as CorpusFile;
}
