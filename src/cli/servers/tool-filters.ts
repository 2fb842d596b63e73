/**
 * `--include` and `--exclude`: exact tool names, `TOOL` (any server) or `SERVER/TOOL`, turned
 * into the tool set's per-server filters.
 */
import type { ToolFilter, ToolSetWarning } from '../../adapter/tools/toolset-types.js';

/** The flags' names, split into a server (when the part before `/` is one) and a tool. */
interface Named {
  serverId: string | undefined;
  tool: string;
}

function named(flag: string, serverIds: readonly string[]): Named {
  const slash = flag.indexOf('/');
  const server = slash === -1 ? undefined : flag.slice(0, slash);
  return server !== undefined && serverIds.includes(server)
    ? { serverId: server, tool: flag.slice(slash + 1) }
    : { serverId: undefined, tool: flag };
}

/**
 * Per-server filters for the flags. With any `--include`, every server gets an include list
 * (its own names and the unqualified ones): only the named tools are exposed.
 *
 * @example
 * ```ts
 * toolFilters(['fs/read_file', 'echo'], [], ['fs', 'everything']);
 * // {fs: {include: ['read_file', 'echo']}, everything: {include: ['echo']}}
 * ```
 */
export function toolFilters(
  include: readonly string[],
  exclude: readonly string[],
  serverIds: readonly string[],
): Record<string, ToolFilter> {
  const filters = new Map<string, { include?: string[]; exclude?: string[] }>();
  const add = (list: 'include' | 'exclude', flags: readonly string[]): void => {
    for (const flag of flags) {
      const { serverId, tool } = named(flag, serverIds);
      for (const id of serverId === undefined ? serverIds : [serverId]) {
        const filter = filters.get(id) ?? {};
        filter[list] = [...(filter[list] ?? []), tool];
        filters.set(id, filter);
      }
    }
  };
  if (include.length > 0) for (const id of serverIds) filters.set(id, { include: [] });
  add('include', include);
  add('exclude', exclude);
  return Object.fromEntries(filters);
}

/**
 * The tool set's warnings with those about unqualified flag names reduced: a name some server
 * has is not reported for the others; a name no server has is reported once, as the flag.
 *
 * @example
 * ```ts
 * flagWarnings(warnings, ['echo'], [], ['fs', 'everything']); // no "fs does not list echo"
 * ```
 */
export function flagWarnings(
  warnings: readonly ToolSetWarning[],
  include: readonly string[],
  exclude: readonly string[],
  serverIds: readonly string[],
): ToolSetWarning[] {
  const unqualified = new Map<string, 'include' | 'exclude'>();
  for (const [list, flags] of [
    ['include', include],
    ['exclude', exclude],
  ] as const) {
    for (const flag of flags) {
      if (named(flag, serverIds).serverId === undefined) unqualified.set(flag, list);
    }
  }
  const missing = new Map<string, number>();
  for (const w of warnings) {
    if (w.code === 'FILTER_UNMATCHED' && w.toolName !== undefined && unqualified.has(w.toolName)) {
      missing.set(w.toolName, (missing.get(w.toolName) ?? 0) + 1);
    }
  }
  const reported = new Set<string>();
  return warnings.flatMap((w) => {
    const name = w.toolName;
    if (w.code !== 'FILTER_UNMATCHED' || name === undefined || !unqualified.has(name)) return [w];
    if ((missing.get(name) ?? 0) < serverIds.length || reported.has(name)) return [];
    reported.add(name);
    return [
      {
        code: w.code,
        serverId: '*',
        toolName: name,
        message: `--${unqualified.get(name)} ${name}: no server lists a tool "${name}"`,
      },
    ];
  });
}
