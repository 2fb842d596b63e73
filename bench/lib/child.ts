/** Child processes timed from spawn to exit, with their peak RSS when asked. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** What a child did. */
export interface ChildRun {
  /** Wall time from spawn to exit, ms. */
  readonly ms: number;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Peak resident set size, bytes (when `maxRss` was asked). */
  readonly maxRssBytes?: number;
}

/** Options of {@link runChild}. */
export interface ChildOptions {
  readonly cwd?: string;
  /** Measure the peak RSS: with `/usr/bin/time -v`, else a `--import` preload (node only). */
  readonly maxRss?: boolean;
  /** Fail unless the exit code is one of these (default `[0]`). */
  readonly okCodes?: readonly number[];
}

const GNU_TIME = '/usr/bin/time';
const RSS_LINE = /Maximum resident set size \(kbytes\): (\d+)/;
const PRELOAD = fileURLToPath(new URL('../child/max-rss.mjs', import.meta.url));

/** How peak RSS is measured on this machine. */
export function rssMethod(): string {
  return existsSync(GNU_TIME)
    ? '`/usr/bin/time -v` (Maximum resident set size)'
    : "the child's own `process.resourceUsage().maxRSS`, printed at exit by bench/child/max-rss.mjs";
}

/** Runs `node` (process.execPath) or another command and waits for it. */
export function runChild(
  command: string,
  args: readonly string[],
  options: ChildOptions = {},
): Promise<ChildRun> {
  let file = command;
  let argv = [...args];
  if (options.maxRss === true) {
    if (existsSync(GNU_TIME)) {
      argv = ['-v', command, ...args];
      file = GNU_TIME;
    } else if (command === process.execPath) {
      argv = ['--import', PRELOAD, ...args];
    } else {
      throw new Error(`cannot measure the peak RSS of ${command} without ${GNU_TIME}`);
    }
  }
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, argv, {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      const ok = options.okCodes ?? [0];
      if (code === null || !ok.includes(code)) {
        reject(
          new Error(
            `${command} ${args.join(' ')} exited ${code}: ${stderr.slice(-2000) || stdout.slice(-2000)}`,
          ),
        );
        return;
      }
      const rss = RSS_LINE.exec(stderr)?.[1];
      resolve({
        ms,
        code,
        stdout,
        stderr,
        ...(rss === undefined ? {} : { maxRssBytes: Number(rss) * 1024 }),
      });
    });
  });
}
