/**
 * Reads a V8 `.cpuprofile` (from `node --cpu-prof`) into the functions and files where the
 * time went: self time (samples whose top frame is the function) and total time (samples with
 * the function anywhere on the stack, counted once per sample).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** One function's share of the profile. */
interface HotSpot {
  /** `name (file:line)`. */
  readonly where: string;
  /** Share of all sampled time, 0..1. */
  readonly self: number;
  readonly total: number;
}

/** The summary of one profile. */
export interface ProfileSummary {
  readonly sampledMs: number;
  /** Top functions by self time. */
  readonly bySelf: readonly HotSpot[];
  /** Top functions by total time (the stack they head). */
  readonly byTotal: readonly HotSpot[];
  /** Self time per source: a src/ file, a package, node internals, GC, ... */
  readonly byFile: readonly HotSpot[];
}

function sourceOf(url: string, root: string, dist: string): string {
  if (url === '') return '(native / V8)';
  const path = url.startsWith('file://') ? new URL(url).pathname : url;
  if (path.startsWith(`${dist}/`)) return `dist/${path.slice(dist.length + 1)}`;
  if (path.startsWith('node:')) return 'node internals';
  const modules = path.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const rest = path.slice(modules + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const local = relative(root, path);
  return local.startsWith('..') ? path : local;
}

/**
 * Summarises the one `.cpuprofile` in `dir`; files under `dist` (the private build) are shown
 * as `dist/...` (the JavaScript of the src/ file of the same name; line numbers are the .js's).
 */
export async function summarizeProfile(
  dir: string,
  root: string,
  dist: string,
  top = 14,
): Promise<ProfileSummary> {
  const file = (await readdir(dir)).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error(`no .cpuprofile in ${dir}`);
  const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (node: ProfileNode): string => {
    const { functionName, url, lineNumber } = node.callFrame;
    const name = functionName === '' ? '(anonymous)' : functionName;
    return url === '' ? name : `${name} (${sourceOf(url, root, dist)}:${lineNumber + 1})`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const files = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, index) => {
    const dt = profile.timeDeltas[index] ?? 0;
    const node = byId.get(id);
    if (node === undefined) return;
    if (node.callFrame.functionName === '(idle)') return;
    all += dt;
    const top = label(node);
    self.set(top, (self.get(top) ?? 0) + dt);
    const source =
      node.callFrame.url === ''
        ? `(${node.callFrame.functionName || 'native'})`
        : sourceOf(node.callFrame.url, root, dist);
    files.set(source, (files.get(source) ?? 0) + dt);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (frame === undefined) break;
      const name = label(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + dt);
    }
  });
  const ranked = (map: Map<string, number>, other?: Map<string, number>): HotSpot[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([where, time]) => ({
        where,
        self: (other === undefined ? time : (self.get(where) ?? 0)) / all,
        total: (other === undefined ? (total.get(where) ?? 0) : time) / all,
      }));
  const skip = new Set(['(root)', '(program)']);
  const totals = new Map([...total].filter(([name]) => !skip.has(name.split(' ')[0]!)));
  return {
    sampledMs: all / 1000,
    bySelf: ranked(self),
    byTotal: ranked(totals, self),
    byFile: ranked(files),
  };
}

/** The summary as markdown lines. */
export function profileMarkdown(title: string, summary: ProfileSummary): string[] {
  const pct = (share: number): string => `${(share * 100).toFixed(1)}%`;
  const out = [
    `Profile: ${title} (\`node --cpu-prof\`, ${summary.sampledMs.toFixed(0)} ms sampled).`,
    '',
    '| Self time by source | Share |',
    '| --- | --- |',
    ...summary.byFile.slice(0, 6).map((spot) => `| ${spot.where} | ${pct(spot.self)} |`),
    '',
    '| Function (self time) | Self | Total |',
    '| --- | --- | --- |',
    ...summary.bySelf.map((spot) => `| ${spot.where} | ${pct(spot.self)} | ${pct(spot.total)} |`),
    '',
    '| Function (total time, stack below it included) | Self | Total |',
    '| --- | --- | --- |',
    ...summary.byTotal.map((spot) => `| ${spot.where} | ${pct(spot.self)} | ${pct(spot.total)} |`),
  ];
  return out;
}
