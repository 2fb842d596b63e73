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
  /** The child's CPU time (user + system since it started), ms (when `cpu` was asked). */
  readonly cpuMs?: number;
}

/** Options of {@link runChild}. */
export interface ChildOptions {
  readonly cwd?: string;
  /** Measure the peak RSS: with `/usr/bin/time -v`, else a `--import` preload (node only). */
  readonly maxRss?: boolean;
  /** Fail unless the exit code is one of these (default `[0]`). */
  readonly okCodes?: readonly number[];
  /** Measure the child's CPU time: a `--import` preload prints it at exit (node only). */
  readonly cpu?: boolean;
}

const GNU_TIME = '/usr/bin/time';
const RSS_LINE = /Maximum resident set size \(kbytes\): (\d+)/;
const PRELOAD = fileURLToPath(new URL('../child/max-rss.mjs', import.meta.url));
const CPU_LINE = /CPU time \(microseconds\): (\d+)/;
const CPU_PRELOAD = fileURLToPath(new URL('../child/cpu-time.mjs', import.meta.url));

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
  if (options.cpu === true) {
    if (command !== process.execPath) throw new Error(`cannot measure the CPU time of ${command}`);
    argv = ['--import', CPU_PRELOAD, ...argv];
  }
  if (options.maxRss === true) {
    if (existsSync(GNU_TIME)) {
      argv = ['-v', command, ...argv];
      file = GNU_TIME;
    } else if (command === process.execPath) {
      argv = ['--import', PRELOAD, ...argv];
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
      const cpu = CPU_LINE.exec(stderr)?.[1];
      resolve({
        ms,
        code,
        stdout,
        stderr,
        ...(rss === undefined ? {} : { maxRssBytes: Number(rss) * 1024 }),
        ...(cpu === undefined ? {} : { cpuMs: Number(cpu) / 1000 }),
      });
    });
  });
}

/** One kind of child run of a comparison. */
export interface ChildTask {
  readonly name: string;
  readonly run: () => Promise<ChildRun>;
}

/**
 * Runs each task once per round, interleaved (A B, B A, ...), after one untimed run of each
 * when `warmup`; returns every run of each task, in round order.
 */
export async function childRounds(
  tasks: readonly ChildTask[],
  rounds: number,
  warmup = true,
): Promise<ReadonlyMap<string, ChildRun[]>> {
  if (warmup) for (const task of tasks) await task.run();
  const runs = new Map<string, ChildRun[]>(tasks.map((task) => [task.name, []]));
  for (let round = 0; round < rounds; round++) {
    const ordered = round % 2 === 0 ? tasks : [...tasks].reverse();
    for (const task of ordered) runs.get(task.name)!.push(await task.run());
  }
  return runs;
}

/** The CPU time of each run, ms (throws if a run was not measured with `cpu`). */
export function cpuOfRuns(runs: readonly ChildRun[]): number[] {
  return runs.map((run) => {
    if (run.cpuMs === undefined) throw new Error('a child run has no CPU time');
    return run.cpuMs;
  });
}
