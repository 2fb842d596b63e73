/**
 * Reads the server configurations of Claude Desktop, Cursor and Claude Code (`mcpServers`),
 * VS Code (`servers`, `inputs`) and gemini-cli (`mcpServers` with `httpUrl`, `includeTools`,
 * ...), told apart by their shape, into checked entries. Every error points at its place with a
 * JSON pointer; unknown keys are warnings with a "did you mean".
 */
import { isAbsolute, resolve } from 'node:path';
import { closestNames } from '../../../adapter/tools/similar-names.js';
import type { ToolFilter } from '../../../adapter/tools/toolset-types.js';
import { GeminiMcpError } from '../../../errors.js';
import { isJsonObject } from '../../../json/object.js';
import { appendPointer } from '../../../json/pointer.js';
import { checkOAuthSettings } from '../auth/settings.js';
import { clip, quote } from './quote.js';
import type { ConfigFormat, ConfigWarning, RunOn, ServerEntry } from './types.js';
import { expandVariables, type VariableContext } from './vars.js';

/** The top-level keys of a gemini-cli `settings.json` (besides `mcpServers`). */
const GEMINI_CLI_SETTINGS = new Set([
  'general',
  'ui',
  'tools',
  'security',
  'model',
  'modelConfigs',
  'context',
  'privacy',
  'telemetry',
  'ide',
  'advanced',
  'experimental',
  'extensions',
  'output',
  'mcp',
  'theme',
  'selectedAuthType',
  'contextFileName',
  'coreTools',
  'allowMCPServers',
  'excludeMCPServers',
  'checkpointing',
  'autoAccept',
  'preferredEditor',
  'hideTips',
  'hideBanner',
  'usageStatisticsEnabled',
  'vimMode',
]);

/**
 * Keys only gemini-cli writes in a server entry. (Its `trust` is read in every format, so it
 * tells nothing: a `trust` added to a Claude Desktop entry keeps its `url` Streamable HTTP.)
 */
const GEMINI_CLI_ENTRY_KEYS = ['httpUrl', 'includeTools', 'excludeTools'];

/** The keys gemini-mcp-kit reads in a server entry of Claude Desktop, Cursor, Claude Code or VS Code. */
const ENTRY_KEYS = [
  'type',
  'command',
  'args',
  'env',
  'envFile',
  'cwd',
  'url',
  'headers',
  'oauth',
  'disabled',
  'includeTools',
  'excludeTools',
  'runOn',
  'trust',
];

/** The keys gemini-mcp-kit reads in a server entry, per format. */
const USED_KEYS: Record<ConfigFormat, readonly string[]> = {
  'mcp-servers': ENTRY_KEYS,
  vscode: ENTRY_KEYS,
  'gemini-cli': [...ENTRY_KEYS.filter((key) => key !== 'envFile'), 'httpUrl', 'timeout'],
};

/**
 * Keys other clients write that gemini-mcp-kit knows and does not use: why, or `''` to pass over
 * them without a word (notes, install metadata).
 */
const IGNORED_KEYS: Readonly<Record<string, string>> = {
  description: '',
  gallery: '',
  version: '',
  timeout:
    "read in gemini-cli settings only (milliseconds); use connectServers' timeoutMs or --timeout",
  authProviderType: 'only OAuth with discovery (the "oauth" section) is supported',
  targetAudience: 'Google credentials for servers are not supported; pass a token in "headers"',
  targetServiceAccount:
    'Google credentials for servers are not supported; pass a token in "headers"',
  dev: "VS Code's watch and debug mode",
  sandbox: 'servers are not sandboxed by gemini-mcp-kit',
  sandboxEnabled: 'servers are not sandboxed by gemini-mcp-kit',
  autoApprove:
    'approval is the application\'s onToolCall hook; "trust": true lets its policies believe the server\'s annotations',
  alwaysAllow:
    'approval is the application\'s onToolCall hook; "trust": true lets its policies believe the server\'s annotations',
};

const TYPES = ['stdio', 'http', 'streamable-http', 'streamableHttp', 'sse'] as const;

function fail(path: string, message: string, data: Record<string, unknown> = {}): never {
  throw new GeminiMcpError('CONFIG_INVALID', `${clip(path) || '(root)'}: ${message}`, {
    path,
    data,
  });
}

/** ` (did you mean "x"?)` when a known name is close to `name`, else `''`. */
function didYouMean(name: string, known: Iterable<string>): string {
  const [best] = closestNames(
    name,
    [...known].map((k) => ({ name: k })),
    1,
  );
  return best === undefined ? '' : ` (did you mean "${best}"?)`;
}

/** Unknown keys warned about one by one, each with a did-you-mean, at most; the rest are counted. */
const MAX_LISTED_UNKNOWN_KEYS = 5;

/**
 * Top-level keys looked at for a near miss of `mcpServers` or `servers`, at most (a settings
 * file holds many keys of its own; each look is a did-you-mean search).
 */
const MAX_EXAMINED_TOP_LEVEL_KEYS = 1000;

/**
 * The unknown keys of one configuration: the first {@link MAX_LISTED_UNKNOWN_KEYS} get a
 * warning each, with a did-you-mean; the rest are counted into one last warning, so a file of a
 * million unknown keys costs neither a million did-you-mean searches nor a million warnings.
 */
export class UnknownKeys {
  #listed = 0;
  #more = 0;
  #firstMore: string | undefined;
  readonly #warn: (warning: ConfigWarning) => void;

  constructor(warn: (warning: ConfigWarning) => void) {
    this.#warn = warn;
  }

  /**
   * `key` of the object at `pointer` is unknown; `hint` is its did-you-mean, computed (like the
   * key's pointer) only when the key is listed.
   */
  add(pointer: string, key: string, hint: () => string): void {
    if (this.#listed < MAX_LISTED_UNKNOWN_KEYS) {
      this.#listed += 1;
      this.#warn({
        code: 'UNKNOWN_KEY',
        message: `unknown key, ignored${hint()}`,
        path: appendPointer(pointer, key),
      });
      return;
    }
    this.#firstMore ??= appendPointer(pointer, key);
    this.#more += 1;
  }

  /** Warns about the unknown keys not listed, at the first of them, if there are any. */
  finish(): void {
    if (this.#firstMore === undefined) return;
    const count =
      this.#more === 1
        ? 'one more unknown key'
        : `${this.#more.toLocaleString('en-US')} more unknown keys, from this one on`;
    this.#warn({
      code: 'UNKNOWN_KEY',
      path: this.#firstMore,
      message: `${count}, ignored (only the first ${MAX_LISTED_UNKNOWN_KEYS} are listed, with a did-you-mean)`,
    });
  }
}

/** What reading entries needs: the variables, and where unknown keys go. */
export interface EntryContext extends VariableContext {
  readonly unknownKeys: UnknownKeys;
  /** Environment variables whose values may go to a remote server without a warning. */
  readonly allowRemoteVariables: ReadonlySet<string>;
}

/**
 * The names allowed to reach remote servers silently: the `allowRemoteVariables` option and the
 * configuration's own top-level `allowRemoteVariables` key (an array of names).
 *
 * @example
 * ```ts
 * allowedRemoteVariables({ allowRemoteVariables: ['API_TOKEN'], mcpServers: {} }, ['ORG']); // Set {'ORG', 'API_TOKEN'}
 * ```
 */
export function allowedRemoteVariables(
  config: unknown,
  option: readonly string[] = [],
): ReadonlySet<string> {
  const listed = isJsonObject(config) ? config.allowRemoteVariables : undefined;
  if (listed === undefined) return new Set(option);
  return new Set([...option, ...stringList(listed, '/allowRemoteVariables')]);
}

/** Where in a remote entry a string with environment values goes, and which variables they were. */
interface SentValues {
  readonly path: string;
  /** `URL`, `header "Authorization"`. */
  readonly where: string;
  readonly names: readonly string[];
}

/**
 * The host names that are this machine by name: `localhost`, `127.0.0.1`, `[::1]`. Narrower than
 * the loopback rule of `openable-url.ts` (all of 127.0.0.0/8) on purpose: an address such as
 * 127.0.0.2 may be a tunnel or a container's port to another machine, so a variable sent there
 * is announced.
 */
const THIS_MACHINE = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Warns once per variable (at its first place) when an entry sends environment values to a
 * server that is not this machine by name ({@link THIS_MACHINE}), unless the variable is allowed.
 */
function announceSent(
  serverId: string,
  url: string,
  sent: readonly SentValues[],
  ctx: EntryContext,
): void {
  const target = new URL(url);
  if (THIS_MACHINE.has(target.hostname)) return;
  const announced = new Set<string>();
  for (const { path, where, names } of sent) {
    for (const name of names) {
      if (announced.has(name) || ctx.allowRemoteVariables.has(name)) continue;
      announced.add(name);
      ctx.warn({
        code: 'VARIABLE_SENT_REMOTE',
        path,
        message: `the value of environment variable ${clip(name)} goes to the remote server "${clip(serverId)}" (${clip(target.origin)}) in its ${where}; list the name in allowRemoteVariables (a top-level key of the configuration, or the option) if that is meant`,
      });
    }
  }
}

/** Where the servers are in a configuration, and which client wrote it. */
export interface LocatedServers {
  format: ConfigFormat;
  /** JSON pointer of the servers object. */
  pointer: string;
  servers: Record<string, unknown>;
  /** VS Code `inputs`: description by id. */
  inputs: Map<string, string>;
}

function inputsOf(value: unknown, warn: (w: ConfigWarning) => void): Map<string, string> {
  const inputs = new Map<string, string>();
  if (value === undefined) return inputs;
  if (!Array.isArray(value)) {
    warn({ code: 'KEY_IGNORED', message: 'not an array: ignored', path: '/inputs' });
    return inputs;
  }
  for (const input of value) {
    if (!isJsonObject(input) || typeof input.id !== 'string') continue;
    inputs.set(input.id, typeof input.description === 'string' ? input.description : input.id);
  }
  return inputs;
}

const CONTAINERS = ['mcpServers', 'servers', 'inputs'];

/**
 * Finds the servers of a configuration and tells its format by shape: `servers` (or VS Code
 * settings' `mcp.servers`) is VS Code; `mcpServers` is gemini-cli when the file holds gemini-cli
 * settings or an entry uses a key only gemini-cli writes, else Claude Desktop, Cursor or Claude
 * Code. Top-level keys close to `mcpServers`/`servers` (among the first
 * {@link MAX_EXAMINED_TOP_LEVEL_KEYS}) are unknown keys; other top-level keys (a settings file
 * has many) are left alone.
 *
 * @example
 * ```ts
 * locateServers({ servers: { fs: { type: 'stdio', command: 'npx' } } }, 'auto', warn, unknownKeys).format; // 'vscode'
 * ```
 */
export function locateServers(
  config: unknown,
  format: ConfigFormat | 'auto',
  warn: (warning: ConfigWarning) => void,
  unknownKeys: UnknownKeys,
): LocatedServers {
  const expected =
    'expected {"mcpServers": {...}} (Claude Desktop, Cursor, gemini-cli) or {"servers": {...}} (VS Code)';
  if (!isJsonObject(config)) fail('', expected);
  let located: LocatedServers | undefined;
  if (config.mcpServers !== undefined) {
    if (!isJsonObject(config.mcpServers)) fail('/mcpServers', 'must be an object of servers');
    const servers = config.mcpServers;
    const geminiCli =
      [...GEMINI_CLI_SETTINGS].some((key) => Object.hasOwn(config, key)) ||
      Object.values(servers).some(
        (entry) => isJsonObject(entry) && GEMINI_CLI_ENTRY_KEYS.some((key) => key in entry),
      );
    located = {
      format: format === 'auto' ? (geminiCli ? 'gemini-cli' : 'mcp-servers') : format,
      pointer: '/mcpServers',
      servers,
      inputs: new Map(),
    };
  } else if (config.servers !== undefined) {
    if (!isJsonObject(config.servers)) fail('/servers', 'must be an object of servers');
    located = {
      format: format === 'auto' ? 'vscode' : format,
      pointer: '/servers',
      servers: config.servers,
      inputs: inputsOf(config.inputs, warn),
    };
  } else if (isJsonObject(config.mcp) && isJsonObject(config.mcp.servers)) {
    located = {
      format: format === 'auto' ? 'vscode' : format,
      pointer: '/mcp/servers',
      servers: config.mcp.servers,
      inputs: inputsOf(config.mcp.inputs, warn),
    };
  }
  for (const key of Object.keys(config).slice(0, MAX_EXAMINED_TOP_LEVEL_KEYS)) {
    if (CONTAINERS.includes(key) || GEMINI_CLI_SETTINGS.has(key) || key.length < 5) continue;
    const hint = didYouMean(key, ['mcpServers', 'servers']);
    if (hint === '') continue;
    if (located === undefined) fail(appendPointer('', key), `${expected}${hint}`);
    unknownKeys.add('', key, () => hint);
  }
  if (located === undefined) fail('', expected);
  return located;
}

function stringAt(value: unknown, path: string, what = 'a string'): string {
  if (typeof value !== 'string') fail(path, `must be ${what}, got ${quote(value)}`);
  return value;
}

function stringList(value: unknown, path: string): string[] {
  if (!Array.isArray(value)) fail(path, 'must be an array of strings');
  return value.map((item, i) => stringAt(item, appendPointer(path, i)));
}

function stringRecord(
  value: unknown,
  path: string,
  ctx: VariableContext,
  sent?: SentValues[],
): Record<string, string> {
  if (!isJsonObject(value)) fail(path, 'must be an object of strings');
  const record: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    const at = appendPointer(path, key);
    const names: string[] = [];
    const expanded = expandVariables(stringAt(item, at), at, ctx, names);
    if (names.length > 0) sent?.push({ path: at, where: `header ${quote(key)}`, names });
    Object.defineProperty(record, key, {
      value: expanded,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return record;
}

function filterOf(entry: Record<string, unknown>, pointer: string): ToolFilter | undefined {
  const { includeTools, excludeTools } = entry;
  if (includeTools === undefined && excludeTools === undefined) return undefined;
  return {
    ...(includeTools === undefined
      ? {}
      : { include: stringList(includeTools, appendPointer(pointer, 'includeTools')) }),
    ...(excludeTools === undefined
      ? {}
      : { exclude: stringList(excludeTools, appendPointer(pointer, 'excludeTools')) }),
  };
}

function warnKeys(entry: Record<string, unknown>, pointer: string, ctx: EntryContext): void {
  const used = USED_KEYS[ctx.format];
  for (const key of Object.keys(entry)) {
    if (used.includes(key)) continue;
    const reason = Object.hasOwn(IGNORED_KEYS, key) ? IGNORED_KEYS[key] : undefined;
    if (reason === '') continue;
    if (reason !== undefined)
      ctx.warn({
        code: 'KEY_IGNORED',
        message: `ignored: ${reason}`,
        path: appendPointer(pointer, key),
      });
    else {
      // Keys gemini-mcp-kit reads come first: `evn` is `env`, not VS Code's `dev`.
      ctx.unknownKeys.add(
        pointer,
        key,
        () => didYouMean(key, used) || didYouMean(key, Object.keys(IGNORED_KEYS)),
      );
    }
  }
}

function timeoutOf(value: unknown, path: string): number | undefined {
  if (value === undefined) return undefined;
  if (
    typeof value !== 'number' ||
    !Number.isSafeInteger(value) ||
    value <= 0 ||
    value > 2 ** 31 - 1
  ) {
    fail(path, 'must be a whole number of milliseconds in (0, 2147483647]');
  }
  return value;
}

function urlAt(value: unknown, path: string, ctx: VariableContext, sent?: SentValues[]): string {
  const names: string[] = [];
  const url = expandVariables(stringAt(value, path), path, ctx, names);
  if (names.length > 0) sent?.push({ path, where: 'URL', names });
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    fail(path, `must be an http(s) URL, got ${quote(url)}`);
  }
  return url;
}

function trustOf(value: unknown, path: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  fail(path, `must be true or false, got ${quote(value)}`);
}

function runOnOf(value: unknown, path: string): RunOn | undefined {
  if (value === undefined || value === 'client' || value === 'gemini') return value;
  fail(path, `must be "client" or "gemini", got ${quote(value)}`);
}

/**
 * One server entry, checked and expanded, or `undefined` when it is disabled.
 *
 * @example
 * ```ts
 * readEntry('fs', { command: 'npx', args: ['-y', 'pkg'] }, '/mcpServers/fs', ctx);
 * // {serverId: 'fs', pointer: '/mcpServers/fs', transport: 'stdio', config: {command: 'npx', args: [...]}}
 * ```
 */
export function readEntry(
  serverId: string,
  value: unknown,
  pointer: string,
  ctx: EntryContext,
): ServerEntry | undefined {
  if (!isJsonObject(value)) fail(pointer, 'must be an object', { serverId });
  if (value.disabled !== undefined && typeof value.disabled !== 'boolean') {
    fail(appendPointer(pointer, 'disabled'), 'must be true or false');
  }
  if (value.disabled === true) return undefined;
  warnKeys(value, pointer, ctx);
  const at = (key: string): string => appendPointer(pointer, key);
  const { type } = value;
  if (type !== undefined && !(TYPES as readonly unknown[]).includes(type)) {
    fail(
      at('type'),
      `unknown type ${quote(type)}${typeof type === 'string' ? didYouMean(type, TYPES) : ''}; known: ${TYPES.join(', ')}`,
    );
  }
  const filter = filterOf(value, pointer);
  const timeoutMs =
    ctx.format === 'gemini-cli' ? timeoutOf(value.timeout, at('timeout')) : undefined;
  const runOn = runOnOf(value.runOn, at('runOn'));
  const trust = trustOf(value.trust, at('trust'));
  const common = {
    serverId,
    pointer,
    ...(filter === undefined ? {} : { filter }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(runOn === undefined ? {} : { runOn }),
    ...(trust === true ? { trust } : {}),
  };
  const httpUrl = ctx.format === 'gemini-cli' ? value.httpUrl : undefined;
  const remotes = [value.url, httpUrl].filter((v) => v !== undefined).length;
  if (value.command !== undefined && remotes > 0) {
    fail(pointer, 'has both "command" (stdio) and a URL: keep one');
  }
  if (remotes > 1) fail(pointer, 'has both "url" (SSE) and "httpUrl" (Streamable HTTP): keep one');
  if (value.command !== undefined) {
    if (type !== undefined && type !== 'stdio') fail(at('type'), '"command" needs type "stdio"');
    const expand = (text: string, path: string) => expandVariables(text, path, ctx);
    const args =
      value.args === undefined
        ? undefined
        : stringList(value.args, at('args')).map((arg, i) =>
            expand(arg, appendPointer(at('args'), i)),
          );
    const cwd =
      value.cwd === undefined ? undefined : expand(stringAt(value.cwd, at('cwd')), at('cwd'));
    const envFile =
      value.envFile === undefined || ctx.format === 'gemini-cli'
        ? undefined
        : expand(stringAt(value.envFile, at('envFile')), at('envFile'));
    return {
      ...common,
      transport: 'stdio',
      config: {
        command: expand(stringAt(value.command, at('command')), at('command')),
        ...(args === undefined ? {} : { args }),
        ...(value.env === undefined ? {} : { env: stringRecord(value.env, at('env'), ctx) }),
        ...(envFile === undefined
          ? {}
          : { envFile: isAbsolute(envFile) ? envFile : resolve(ctx.workspaceFolder, envFile) }),
        ...(cwd === undefined ? {} : { cwd }),
      },
    };
  }
  if (remotes === 0) {
    const urls =
      ctx.format === 'gemini-cli' ? '"url" (SSE) or "httpUrl" (Streamable HTTP)' : '"url"';
    fail(pointer, `needs "command" (stdio) or ${urls}`, { serverId });
  }
  if (type === 'stdio') fail(at('type'), 'type "stdio" needs "command"');
  const key = httpUrl === undefined ? 'url' : 'httpUrl';
  const sent: SentValues[] = [];
  const url = urlAt(value[key], at(key), ctx, sent);
  const headers =
    value.headers === undefined ? undefined : stringRecord(value.headers, at('headers'), ctx, sent);
  announceSent(serverId, url, sent, ctx);
  const oauth = checkOAuthSettings(value.oauth, at('oauth'));
  const config = {
    url,
    ...(headers === undefined ? {} : { headers }),
    ...(oauth === undefined ? {} : { oauth }),
  };
  // gemini-cli: `url` is SSE unless a type says otherwise; `httpUrl` is Streamable HTTP.
  const sse =
    type === 'sse' || (ctx.format === 'gemini-cli' && key === 'url' && type === undefined);
  if (sse) return { ...common, transport: 'sse', config };
  const fallback = key === 'url' && (type === undefined || type === 'http');
  return { ...common, transport: 'http', config, ...(fallback ? { sseFallback: true } : {}) };
}
