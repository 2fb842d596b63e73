/**
 * MCP servers that Gemini runs itself (`Tool.mcpServers`, Gemini API revision 20260325): the
 * Tool that declares them, why a server cannot run there, and the model's names for their tools.
 *
 * The reference states little: `McpServer {name, streamableHttpTransport}`,
 * `StreamableHttpTransport {url, headers, timeout, sseReadTimeout, terminateOnClose}`, the
 * durations in `google-duration` form, and nothing about a count, the name's form or the Vertex
 * AI dialects (whose references do not have the field). js-genai refuses `name` and
 * `streamableHttpTransport` outside the Gemini Developer API ("only supported in Gemini
 * Developer API mode"), and its tests show the model calling a server's tools as
 * `{server}_{tool}`. So a name here is what may start a function name, and only the Gemini
 * dialect takes the Tool.
 */

import { GeminiMcpError } from '../../errors.js';
import { checkTool } from '../../generated/guards-gemini.js';
import { API_LIMITS } from '../../generated/limits.js';
import type { McpServer } from '../../generated/types.js';
import { proveContract } from '../../json/contract.js';
import { apiDialect, type Dialect } from '../dialect.js';

/** A Gemini Tool of MCP servers the API calls itself, as `geminiTools` emits it. */
export interface McpServerTool {
  mcpServers: McpServer[];
}

/** The option of `geminiTools` that adds the servers Gemini runs itself. */
export interface McpServersOption {
  /**
   * MCP servers Gemini runs itself (`connections.mcpServers` of `connectServers` with
   * `runOn: 'gemini'`): one more Tool, `{mcpServers}`, after the declarations. Gemini API only:
   * with a Vertex AI `budget.dialect` they are refused (CONFIG_INVALID, reason `dialect`).
   */
  readonly mcpServers: readonly McpServer[];
}

/**
 * Why an MCP server cannot run on Gemini (`Tool.mcpServers`):
 * - `stdio`: a local process; Gemini reaches only Streamable HTTP.
 * - `sse`: the legacy HTTP+SSE transport; Gemini speaks only Streamable HTTP.
 * - `oauth`: it authorizes with OAuth; Gemini sends only static headers.
 * - `capability`: it is given a client capability (elicitation, roots, sampling) that only a
 *   client answers.
 * - `host`: its URL is not a public `https:` URL Google can reach (loopback, private,
 *   link-local or local-only hosts, plain `http:`).
 * - `name`: its id cannot prefix the model's function names (`{server}_{tool}`).
 * - `dialect`: the request goes to Vertex AI, which does not take the field.
 * - `filters`: its `includeTools`/`excludeTools` apply only on the client (Gemini offers every
 *   tool); it moves when its own entry asks (`runOn: "gemini"`), never with the whole set.
 */
export type ServerSideReason =
  | 'stdio'
  | 'sse'
  | 'oauth'
  | 'capability'
  | 'host'
  | 'name'
  | 'dialect'
  | 'filters';

/** One reason a server cannot (or should not) run on Gemini, in words. */
export interface ServerSideObstacle {
  readonly reason: ServerSideReason;
  readonly message: string;
}

/** A name that may start a function name: the model calls `{name}_{tool}`. */
const SERVER_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,62}$/;

/** A `google-duration`: seconds, up to nine fractional digits, then `s` (`"30s"`, `"1.5s"`). */
const GOOGLE_DURATION = new RegExp(API_LIMITS['mcp-server-duration'].value.gemini);

/** Why `name` cannot name a server on Gemini, or `undefined` when it can. */
export function serverNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'it has no name';
  if (SERVER_NAME.test(name)) return undefined;
  return `its name "${name.slice(0, 64)}" cannot start the model's function names ({server}_{tool}): a letter or "_", then up to 62 letters, digits, "_" or "-"`;
}

/** Whether `value` is a `google-duration` string (`"30s"`). */
export function isGoogleDuration(value: unknown): boolean {
  return typeof value === 'string' && GOOGLE_DURATION.test(value);
}

/** A dotted-decimal IPv4 address. */
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Hosts that name this machine or a local network only. */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.lan', '.intranet'];

/** Why an IPv4 address is not public, or `undefined` when it is. */
function privateIPv4(address: string): string | undefined {
  const [a = 0, b = 0] = address.split('.').map(Number);
  if (a === 127) return 'a loopback address';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) {
    return 'a private address';
  }
  if (a === 169 && b === 254) return 'a link-local address';
  if (a === 100 && b >= 64 && b <= 127) return 'a shared (carrier-grade NAT) address';
  if (a === 0 || a >= 224) return 'not a unicast address';
  return undefined;
}

/** Why an IPv6 address is not public, or `undefined` when it is. */
function privateIPv6(address: string): string | undefined {
  const lower = address.toLowerCase();
  if (lower === '::1') return 'a loopback address';
  if (lower === '::') return 'not a unicast address';
  // An IPv4-mapped address, as the URL parser writes it (`::ffff:a00:1` for 10.0.0.1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (mapped !== null) {
    const [high, low] = [
      Number.parseInt(mapped[1] ?? '0', 16),
      Number.parseInt(mapped[2] ?? '0', 16),
    ];
    return privateIPv4(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  if (/^f[cd]/.test(lower)) return 'a private (unique local) address';
  if (/^fe[89ab]/.test(lower)) return 'a link-local address';
  if (/^ff/.test(lower)) return 'not a unicast address';
  return undefined;
}

/**
 * Why Google cannot reach `url`, or `undefined` when it is a public `https:` URL. Only the URL
 * is judged (no name is resolved): loopback, private, link-local and local-only hosts
 * (`localhost`, `*.local`, `*.internal`, names without a dot) are refused.
 */
export function unreachableFromGoogle(url: string): string | undefined {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed === undefined) return 'its URL does not parse';
  if (parsed.protocol !== 'https:')
    return `its URL is ${parsed.protocol}, and Gemini takes https: only`;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  // WHATWG URL parsing has normalized an IPv4 host to dotted decimal and put IPv6 in brackets.
  const why = IPV4.test(host)
    ? privateIPv4(host)
    : host.includes(':')
      ? privateIPv6(host)
      : host === 'localhost' || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))
        ? 'a local-only name'
        : host.includes('.')
          ? undefined
          : 'a name without a domain';
  return why === undefined ? undefined : `its host ${host} is ${why}, which Google cannot reach`;
}

/** The error for a server asked to run on Gemini that cannot: it names the server and every reason. */
export function serverSideRefusal(
  serverId: string,
  obstacles: readonly ServerSideObstacle[],
  path?: string,
): GeminiMcpError {
  const why = obstacles.map((o) => `${o.reason}: ${o.message}`).join('; ');
  return new GeminiMcpError(
    'CONFIG_INVALID',
    `server "${serverId}" cannot run on Gemini (${why}); keep it on the client (runOn: "client")`,
    {
      ...(path === undefined ? {} : { path }),
      data: { serverId, reasons: obstacles.map((o) => o.reason) },
    },
  );
}

/**
 * The Tool `{mcpServers}` for a request in `dialect`, proven against the Tool schema; `[]` when
 * there are none. A Vertex AI dialect is refused (`dialect`), and so are two servers of one name
 * or a name the model's function names cannot start with (`name`).
 */
export function mcpServerTools(
  mcpServers: readonly McpServer[] | undefined,
  dialect: Dialect | undefined,
): McpServerTool[] {
  if (mcpServers === undefined || mcpServers.length === 0) return [];
  const names = new Set<string>();
  for (const server of mcpServers) {
    const id = typeof server.name === 'string' ? server.name : '(unnamed)';
    if (apiDialect(dialect) !== 'gemini') {
      throw serverSideRefusal(id, [
        {
          reason: 'dialect',
          message: `the request goes to ${apiDialect(dialect)}, and only the Gemini API takes Tool.mcpServers`,
        },
      ]);
    }
    const problem = serverNameProblem(server.name);
    if (problem !== undefined) throw serverSideRefusal(id, [{ reason: 'name', message: problem }]);
    if (names.has(id)) {
      throw serverSideRefusal(id, [
        { reason: 'name', message: 'two servers on Gemini have this name' },
      ]);
    }
    names.add(id);
  }
  const tool: McpServerTool = { mcpServers: mcpServers.map((server) => ({ ...server })) };
  proveContract(tool, checkTool, { schema: 'Tool' });
  return [tool];
}

/**
 * The server and tool a function name of the model means, for servers on Gemini: the server
 * whose name and `_` start it (the longest, when several do), and the rest as the tool.
 */
export function serverSideTool(
  name: string,
  serverNames: Iterable<string>,
): { server: string; tool: string } | undefined {
  let best: string | undefined;
  for (const server of serverNames) {
    if (name.startsWith(`${server}_`) && name.length > server.length + 1) {
      if (best === undefined || server.length > best.length) best = server;
    }
  }
  return best === undefined ? undefined : { server: best, tool: name.slice(best.length + 1) };
}
