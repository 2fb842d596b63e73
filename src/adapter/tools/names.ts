/**
 * Exposed tool names: valid for Gemini function declarations and calls (and other providers),
 * injective over (server, tool) identities, and independent of the order tools arrive in.
 */
import { createRequire } from 'node:module';
import { GeminiMcpError } from '../../errors.js';

/** Every exposed name matches this: a letter or `_`, then up to 63 letters, digits, `_` or `-`. */
export const EXPOSED_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** The longest exposed name. */
const MAX_EXPOSED_NAME_LENGTH = 64;

/**
 * How colliding names are told apart: `'on-collision'` prefixes every tool of a colliding group
 * with its server (`server__tool`), `'always'` prefixes every tool, `'never'` refuses collisions.
 */
export type PrefixMode = 'on-collision' | 'always' | 'never';

/** A tool's identity: the server that owns it and its name there. */
export interface ToolIdentity {
  serverId: string;
  toolName: string;
}

/** Joins a server part and a tool part in a prefixed name. */
const SEPARATOR = '__';

/**
 * The namespace of gemini-mcp-kit's own functions (the tool search, the resource functions):
 * a server id no configuration may take, so that its prefix {@link RESERVED_PREFIX} is guarded
 * like any server's (a tool named with it is exposed under its own server's prefix).
 */
export const RESERVED_SERVER_ID = 'gmk';

/**
 * The prefix of every function gemini-mcp-kit declares itself (`gmk__search_tools`): no exposed
 * tool name starts with it (compared without regard to case), its functions are counted in the
 * request's budget, and a call to one is never sent to a server.
 */
export const RESERVED_PREFIX = `${RESERVED_SERVER_ID}${SEPARATOR}`;

/**
 * Whether `name` is in gemini-mcp-kit's reserved namespace (the prefix `gmk__`, in any case).
 *
 * @example
 * ```ts
 * isReservedName('gmk__search_tools'); // true
 * isReservedName('search_tools'); // false
 * ```
 */
export function isReservedName(name: string): boolean {
  return name.toLowerCase().startsWith(RESERVED_PREFIX);
}

/**
 * Whether a server id would take the reserved namespace: it is {@link RESERVED_SERVER_ID}, or its
 * prefixed names would start with {@link RESERVED_PREFIX} (compared after sanitizing, any case).
 */
export function isReservedServerId(serverId: string): boolean {
  const sanitized = sanitizeName(serverId).toLowerCase();
  return sanitized === RESERVED_SERVER_ID || `${sanitized}${SEPARATOR}`.startsWith(RESERVED_PREFIX);
}

/** Hex digits of the identity hash appended to a name cut to fit. */
const CAP_HASH_LENGTH = 8;

/**
 * The naming levels, tried in order until names are unique:
 * `plain` (the tool name, sanitized), `prefixed` (`server__tool`), then two `hashed` levels
 * that append a hash of the identity to the previous base (12, then 40 hex digits).
 */
type Level = 'plain' | 'prefixed' | 'hashed' | 'long-hashed';

const HASH_LENGTH: Readonly<Record<'hashed' | 'long-hashed', number>> = {
  hashed: 12,
  'long-hashed': 40,
};

/** `node:crypto`, loaded with the first name that needs a hash (most tool sets have none). */
let crypto: typeof import('node:crypto') | undefined;

/** The identity's sha256, in hex, cut to `length` digits. */
function identityHash(identity: ToolIdentity, length: number): string {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return crypto
    .createHash('sha256')
    .update(JSON.stringify([identity.serverId, identity.toolName]))
    .digest('hex')
    .slice(0, length);
}

/** Replaces every code point outside `[A-Za-z0-9_-]` with `_`. */
function replaceInvalid(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/gu, '_');
}

/** `text` with invalid characters replaced and a `_` put before a leading digit or `-` (or for `""`). */
function sanitizeName(text: string): string {
  const replaced = replaceInvalid(text);
  return /^[A-Za-z_]/.test(replaced) ? replaced : `_${replaced}`;
}

/** `name` cut so that `_` plus `hash` fits in 64 characters, then suffixed with them. */
function withHash(name: string, hash: string): string {
  return `${name.slice(0, MAX_EXPOSED_NAME_LENGTH - 1 - hash.length)}_${hash}`;
}

/** `name` when it fits in 64 characters, else cut with the identity's short hash appended. */
function capped(name: string, identity: ToolIdentity): string {
  if (name.length <= MAX_EXPOSED_NAME_LENGTH) return name;
  return withHash(name, identityHash(identity, CAP_HASH_LENGTH));
}

function plainName(identity: ToolIdentity): string {
  return capped(sanitizeName(identity.toolName), identity);
}

function prefixedName(identity: ToolIdentity): string {
  const name = `${sanitizeName(identity.serverId)}${SEPARATOR}${replaceInvalid(identity.toolName)}`;
  return capped(name, identity);
}

/** The levels a mode climbs through; `never` skips the server prefix. */
const LEVELS: Readonly<Record<PrefixMode, readonly Level[]>> = {
  'on-collision': ['plain', 'prefixed', 'hashed', 'long-hashed'],
  always: ['prefixed', 'hashed', 'long-hashed'],
  never: ['plain', 'hashed', 'long-hashed'],
};

function nameAt(identity: ToolIdentity, mode: PrefixMode, level: Level): string {
  if (level === 'plain') return plainName(identity);
  if (level === 'prefixed') return prefixedName(identity);
  const base = mode === 'never' ? plainName(identity) : prefixedName(identity);
  return withHash(base, identityHash(identity, HASH_LENGTH[level]));
}

/**
 * The other server whose prefix (`server__`, compared without regard to case, after
 * sanitizing) the identity's own tool name starts with, if any: a tool named `fs__read_file`
 * on server `evil` claims server `fs`'s namespace.
 *
 * @example
 * ```ts
 * claimedServer({ serverId: 'evil', toolName: 'fs__read_file' }, ['fs', 'evil']); // 'fs'
 * ```
 */
export function claimedServer(
  identity: ToolIdentity,
  serverIds: Iterable<string>,
): string | undefined {
  const name = replaceInvalid(identity.toolName).toLowerCase();
  for (const serverId of serverIds) {
    if (serverId === identity.serverId) continue;
    if (name.startsWith(`${sanitizeName(serverId)}${SEPARATOR}`.toLowerCase())) return serverId;
  }
  return undefined;
}

/** Indices of identities grouped by the name they currently hold; only groups of two or more. */
function collisions(names: readonly string[]): number[][] {
  const groups = new Map<string, number[]>();
  names.forEach((name, index) => {
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [index]);
    else group.push(index);
  });
  return [...groups.values()].filter((group) => group.length > 1);
}

/** Throws NAME_COLLISION for groups holding one tool name on several servers (mode `never`). */
function rejectSameNameGroups(groups: readonly number[][], identities: readonly ToolIdentity[]) {
  const clashes = groups.flatMap((group) => {
    const byName = new Map<string, string[]>();
    for (const index of group) {
      const { serverId, toolName } = identities[index]!;
      byName.set(toolName, [...(byName.get(toolName) ?? []), serverId]);
    }
    return [...byName].filter(([, servers]) => servers.length > 1);
  });
  if (clashes.length === 0) return;
  const listed = clashes
    .map(([toolName, servers]) => `"${toolName}" (servers ${servers.sort().join(', ')})`)
    .join('; ');
  throw new GeminiMcpError(
    'NAME_COLLISION',
    `Tool names collide and prefix 'never' forbids renaming them: ${listed}`,
    { data: { collisions: clashes.map(([toolName, servers]) => ({ toolName, servers })) } },
  );
}

/**
 * Gives every identity its exposed name. Each starts at its mode's first level; whenever
 * several identities hold one name, all of them climb one level (symmetric: nobody keeps the
 * name), until every name is unique. One exception: a tool exposed under its own valid name
 * keeps it against names that only sanitizing, cutting or prefixing made equal to it (never
 * against the same name on another server). The result depends only on the set of
 * identities, never on their order. Identities must be distinct. Only a 160-bit hash
 * collision could leave two identities on one name at the last level; that throws
 * CONTRACT_VIOLATION rather than merge them.
 *
 * Mode `on-collision` climbs plain → `server__tool` → hashed; `always` starts at
 * `server__tool`; `never` throws NAME_COLLISION when one tool name appears on several servers,
 * and tells names apart that only sanitizing or truncation merged by a hash.
 *
 * A tool whose own name claims another server's prefix (see {@link claimedServer}; the other
 * servers are `serverIds`, by default those of `identities`) never keeps it: in `on-collision`
 * mode it starts at `server__tool` under its own server (`evil__fs__read_file`). Mode `never`
 * cannot rename, so callers leave such tools out (`buildToolSet` does, with a warning).
 *
 * @example
 * ```ts
 * assignExposedNames(
 *   [{ serverId: 'a', toolName: 'hello' }, { serverId: 'b', toolName: 'hello' }],
 *   'on-collision',
 * ); // ['a__hello', 'b__hello']
 * ```
 */
export function assignExposedNames(
  identities: readonly ToolIdentity[],
  mode: PrefixMode,
  serverIds: Iterable<string> = new Set(identities.map((identity) => identity.serverId)),
): string[] {
  const levels = LEVELS[mode];
  const top = levels.length - 1;
  const servers = [...serverIds];
  const prefixed = Math.max(0, levels.indexOf('prefixed'));
  const levelIndex = identities.map((identity) =>
    claimedServer(identity, servers) === undefined ? 0 : prefixed,
  );
  const names = identities.map((identity, index) =>
    nameAt(identity, mode, levels[levelIndex[index]!]!),
  );
  for (let groups = collisions(names); groups.length > 0; groups = collisions(names)) {
    if (mode === 'never') rejectSameNameGroups(groups, identities);
    for (const group of groups) {
      const exact = group.filter((index) => names[index] === identities[index]!.toolName);
      const keeper = exact.length === 1 ? exact[0] : undefined;
      const climbing = group.filter((index) => index !== keeper && levelIndex[index]! < top);
      if (climbing.length === 0) {
        throw new GeminiMcpError(
          'CONTRACT_VIOLATION',
          `Tools ${JSON.stringify(group.map((index) => identities[index]))} hash to one exposed name`,
        );
      }
      for (const index of climbing) {
        levelIndex[index] = levelIndex[index]! + 1;
        names[index] = nameAt(identities[index]!, mode, levels[levelIndex[index]!]!);
      }
    }
  }
  return names;
}
