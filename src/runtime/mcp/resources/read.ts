/**
 * Reading one resource (`resources/read`) into Gemini Parts, and completing a template's
 * arguments (`completion/complete`): the server told from the URI, the request proven with the
 * generated MCP write contract, the result read with its read contract (tolerances reported,
 * violations a typed error), every Part proven with the Gemini validators of the dialect.
 */
import type { Dialect } from '../../../adapter/dialect.js';
import { dialectShapes } from '../../../adapter/dialect-shapes.js';
import {
  itemParts,
  type ResourceContentsOptions,
  type ResourceContentWarning,
  type ResourceItems,
  type ResourcePart,
  resourceItems,
} from '../../../adapter/resources/contents.js';
import {
  matchesUriTemplate,
  uriTemplateVariables,
} from '../../../adapter/resources/uri-template.js';
import { GeminiMcpError } from '../../../errors.js';
import type { ReadNotice } from '../../../generated/guards-common.js';
import {
  checkMcpCompleteRequestParams,
  checkMcpReadResourceRequestParams,
  readMcpCompleteResult,
  readMcpReadResourceResult,
} from '../../../generated/guards-mcp.js';
import type { McpCompleteResult, McpReadResourceResult } from '../../../generated/types.js';
import { proveContract } from '../../../json/contract.js';
import { checkTimeout } from '../../options.js';
import type { McpClient } from '../mcp-client.js';
import type { OpenResourceCatalog, ResourceCatalog } from './catalog.js';
import { AS_RECEIVED } from './resource-client.js';

/** What the resource functions take: `connectServers`' result, or any object with these two. */
export interface ResourceServers {
  readonly clients: ReadonlyMap<string, McpClient>;
  readonly resources: ResourceCatalog;
}

/** Options of {@link resourceParts}. */
export interface ResourcePartsOptions extends ResourceContentsOptions {
  /** The server to read from; needed only when several servers could hold the URI. */
  readonly serverId?: string;
  /**
   * Limit of the read, in ms; the request is cancelled when it passes.
   *
   * @defaultValue 60000
   */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** The API (and version) the Parts are proven for; default `'gemini'`. */
  readonly dialect?: Dialect;
  /** Hears each tolerance the read contract used (a field or value newer than the schemas). */
  readonly onNotice?: (notice: ReadNotice) => void;
}

/** One resource read into Parts. */
export interface ResourceParts {
  /** The server it was read from. */
  readonly serverId: string;
  /** The URI read. */
  readonly uri: string;
  /**
   * The contents as Parts, ready for a Content's `parts`: per content item, text as one text
   * part starting with its tag (`[resource "uri" from server "id", text/plain]`); images, audio
   * and PDF as the tag, then an `inlineData` part; other binaries as the tag alone.
   */
  readonly parts: ResourcePart[];
  /** What was cut or left out (over a cap, not base64). */
  readonly warnings: readonly ResourceContentWarning[];
}

/** The default limit of one read, in ms. */
const DEFAULT_READ_TIMEOUT_MS = 60_000;
/** The longest URI read, in characters. */
const MAX_URI_LENGTH = 8192;
/** Completion values kept at most (the specification's own maximum). */
const MAX_COMPLETION_VALUES = 100;
/** The longest completion value kept, in characters. */
const MAX_COMPLETION_VALUE_LENGTH = 1024;

function catalogOf(servers: ResourceServers): OpenResourceCatalog {
  const catalog = servers.resources as Partial<OpenResourceCatalog>;
  if (typeof catalog.serverOf !== 'function') {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      'the servers given have no resource catalog of gemini-mcp-kit: pass what connectServers returned',
    );
  }
  return catalog as OpenResourceCatalog;
}

/** The server a URI is read from: given, listing it, its template's, or the only one. */
function resolveServer(
  servers: ResourceServers,
  uri: string,
  serverId: string | undefined,
): string {
  const catalog = catalogOf(servers);
  if (serverId !== undefined) return catalog.serverOf(uri, serverId, []);
  const listing = catalog.resources.filter((r) => r.resource.uri === uri).map((r) => r.serverId);
  const templated =
    listing.length > 0
      ? listing
      : catalog.templates
          .filter((t) => matchesUriTemplate(t.template.uriTemplate, uri))
          .map((t) => t.serverId);
  return catalog.serverOf(uri, undefined, templated);
}

function checkUri(uri: unknown, where: string): asserts uri is string {
  if (typeof uri !== 'string' || uri === '' || uri.length > MAX_URI_LENGTH) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `${where}: the URI must be a string of 1 to ${MAX_URI_LENGTH} characters`,
      {
        path: '/uri',
        data: { expected: `a string of 1 to ${MAX_URI_LENGTH} characters` },
      },
    );
  }
}

/** The SDK request options of a read: its limit (60 s unless given) and signal. */
export function requestOptions(options: { timeoutMs?: number; signal?: AbortSignal }): {
  timeout: number;
  signal?: AbortSignal;
} {
  return {
    timeout: options.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
}

/** A server's result read with its read contract: tolerances reported, a violation thrown. */
export function readResult<T>(
  raw: unknown,
  read: (value: unknown) => {
    violations: { path: string; message: string }[];
    notices: ReadNotice[];
  },
  what: string,
  serverId: string,
  onNotice: ((notice: ReadNotice) => void) | undefined,
): T {
  const { violations, notices } = read(raw);
  for (const notice of notices)
    onNotice?.({ ...notice, message: `server "${serverId}" ${what}: ${notice.message}` });
  const first = violations[0];
  if (first !== undefined) {
    throw new GeminiMcpError(
      'INVALID_PAYLOAD',
      `server "${serverId}" returned a malformed ${what} result at "${first.path}": ${first.message}`,
      {
        path: first.path,
        details: violations,
        data: { serverId },
      },
    );
  }
  return raw as T;
}

/**
 * Reads one resource as items (what {@link resourceParts} and `gmk__read_resource` build on): the
 * server told from the URI, the result proven, cut and tagged.
 */
export async function readResourceItems(
  servers: ResourceServers,
  uri: string,
  options: ResourcePartsOptions = {},
): Promise<ResourceItems & { serverId: string }> {
  checkUri(uri, 'resourceParts');
  checkTimeout('timeoutMs', options.timeoutMs);
  const serverId = resolveServer(servers, uri, options.serverId);
  const client = servers.clients.get(serverId);
  if (client === undefined) {
    throw new GeminiMcpError('INVALID_INPUT', `no server "${serverId}" is connected`, {
      data: { serverId },
    });
  }
  const params = proveContract({ uri }, checkMcpReadResourceRequestParams, {
    schema: 'McpReadResourceRequestParams',
  });
  const raw = await client.request(
    { method: 'resources/read', params },
    AS_RECEIVED,
    requestOptions(options),
  );
  const result = readResult<McpReadResourceResult>(
    raw,
    readMcpReadResourceResult,
    'resources/read',
    serverId,
    options.onNotice,
  );
  return { serverId, ...resourceItems(serverId, uri, result, options) };
}

/**
 * Reads one resource (`resources/read`) into Gemini Parts: text as text; images, audio and PDF
 * as `inlineData` up to `maxInlineBytes` (a larger one is left out, with a warning and a tag
 * saying so); a textual blob (text/*, JSON, XML, YAML, ...) decoded as text; any other binary
 * described by its type and size, never as base64 text. Each item is tagged with its URI and
 * server in a text part the model reads. The server is `serverId`, else the one that lists the
 * URI, else the one whose template matches it, else the only server with resources
 * (INVALID_INPUT when that leaves several or none). The request is proven with the MCP write
 * contract, the result read with its read contract (a malformed one: INVALID_PAYLOAD with the
 * pointer), every Part proven with the Gemini validators of `dialect`. The server's own errors
 * (an unknown URI) propagate as the SDK threw them.
 *
 * @example
 * ```ts
 * const { parts } = await resourceParts(connections, 'file:///notes/today.md');
 * const contents = [{ role: 'user', parts: [{ text: 'Summarize this:' }, ...parts] }];
 * ```
 */
export async function resourceParts(
  servers: ResourceServers,
  uri: string,
  options: ResourcePartsOptions = {},
): Promise<ResourceParts> {
  const { serverId, items, warnings } = await readResourceItems(servers, uri, options);
  const { part } = dialectShapes(options.dialect);
  const parts = itemParts(items).map((built) =>
    proveContract(built, part.check, { schema: part.schema }),
  );
  return { serverId, uri, parts, warnings };
}

/** What {@link completeResourceArgument} asks. */
export interface ResourceCompletionRequest {
  /** The template whose argument is completed, exactly as listed (`demo://items/{id}`). */
  readonly uriTemplate: string;
  /** The argument (a variable of the template) and what was typed of it so far. */
  readonly argument: { readonly name: string; readonly value: string };
  /** The template's other arguments already chosen. */
  readonly context?: Readonly<Record<string, string>>;
  /** The server; needed only when several servers list the template. */
  readonly serverId?: string;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly onNotice?: (notice: ReadNotice) => void;
}

/** The values a server offers for an argument. */
export interface ResourceCompletion {
  readonly serverId: string;
  /** At most 100 values, each at most 1024 characters (longer ones are left out). */
  readonly values: readonly string[];
  /** The number of values there are, when the server said. */
  readonly total?: number;
  /** Whether there are more values than given, when the server said. */
  readonly hasMore?: boolean;
}

/**
 * Completes an argument of a resource template (`completion/complete` with a `ref/resource`
 * reference): the values the server offers for what was typed. INVALID_INPUT when the argument
 * is not a variable of the template, or no single server lists the template; the request is
 * proven with the MCP write contract, the result read with its read contract.
 *
 * @example
 * ```ts
 * const { values } = await completeResourceArgument(connections, {
 *   uriTemplate: 'demo://resource/dynamic/text/{resourceId}',
 *   argument: { name: 'resourceId', value: '4' },
 * });
 * ```
 */
export async function completeResourceArgument(
  servers: ResourceServers,
  request: ResourceCompletionRequest,
): Promise<ResourceCompletion> {
  checkTimeout('timeoutMs', request.timeoutMs);
  const { uriTemplate, argument } = request;
  const given = [argument?.value, ...Object.values(request.context ?? {})];
  if (typeof uriTemplate !== 'string' || given.some((value) => typeof value !== 'string')) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      'completeResourceArgument: the template, the argument value and the context values must be strings',
      {
        path: typeof uriTemplate !== 'string' ? '/uriTemplate' : '/argument/value',
      },
    );
  }
  if (!uriTemplateVariables(uriTemplate).includes(argument?.name)) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `completeResourceArgument: ${JSON.stringify(String(argument?.name).slice(0, 100))} is not a variable of ${JSON.stringify(uriTemplate.slice(0, 200))}`,
      {
        path: '/argument/name',
        data: { expected: `one of ${uriTemplateVariables(uriTemplate).join(', ')}` },
      },
    );
  }
  const catalog = catalogOf(servers);
  const owners = catalog.templates
    .filter((t) => t.template.uriTemplate === uriTemplate)
    .map((t) => t.serverId);
  const serverId = catalog.serverOf(uriTemplate, request.serverId, owners);
  const client = servers.clients.get(serverId);
  if (client === undefined) {
    throw new GeminiMcpError('INVALID_INPUT', `no server "${serverId}" is connected`, {
      data: { serverId },
    });
  }
  const params = proveContract(
    {
      ref: { type: 'ref/resource', uri: uriTemplate },
      argument: { name: argument.name, value: argument.value },
      ...(request.context === undefined ? {} : { context: { arguments: { ...request.context } } }),
    },
    checkMcpCompleteRequestParams,
    { schema: 'McpCompleteRequestParams' },
  );
  const raw = await client.request(
    { method: 'completion/complete', params },
    AS_RECEIVED,
    requestOptions(request),
  );
  const { completion } = readResult<McpCompleteResult>(
    raw,
    readMcpCompleteResult,
    'completion/complete',
    serverId,
    request.onNotice,
  );
  const values = completion.values
    .slice(0, MAX_COMPLETION_VALUES)
    .filter((value) => value.length <= MAX_COMPLETION_VALUE_LENGTH);
  return {
    serverId,
    values,
    ...(typeof completion.total === 'number' ? { total: completion.total } : {}),
    ...(typeof completion.hasMore === 'boolean' ? { hasMore: completion.hasMore } : {}),
  };
}
