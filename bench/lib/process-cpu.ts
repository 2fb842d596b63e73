/**
 * The CPU time of another process (a server the benchmark spawned), for figures whose task is a
 * round trip through it: Linux's per-thread scheduler statistics, exact to the nanosecond, where
 * `/proc/<pid>/stat` counts whole clock ticks (10 ms, five times a 2 ms batch).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The CPU ms one thread has run, from its schedstat line (ns on the CPU, first field). */
function threadCpuMs(path: string): number {
  try {
    return Number(readFileSync(path, 'utf8').split(' ', 1)[0]) / 1e6;
  } catch {
    // The thread ended between the listing and the read: its time is no longer counted.
    return 0;
  }
}

/**
 * A reader of the CPU ms (user + system, every thread) process `pid` has used so far, or
 * undefined where the system keeps no scheduler statistics (not Linux, or no access).
 *
 * @example
 * ```ts
 * const serverCpuMs = processCpuReader(child.pid);
 * const before = serverCpuMs?.();
 * ```
 */
export function processCpuReader(pid: number): (() => number) | undefined {
  const tasks = `/proc/${pid}/task`;
  const read = (): number => {
    let total = 0;
    for (const thread of readdirSync(tasks)) total += threadCpuMs(`${tasks}/${thread}/schedstat`);
    return total;
  };
  try {
    return Number.isFinite(read()) ? read : undefined;
  } catch {
    return undefined;
  }
}
