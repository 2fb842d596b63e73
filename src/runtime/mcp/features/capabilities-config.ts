/**
 * Which client capabilities each server gets: the `capabilities` of `connectServers` apply to
 * every server, `servers[id].capabilities` override them key by key for one server (`false`
 * turns one off there). Each configured capability becomes a {@link ClientFeature}; a new
 * capability (sampling) adds its option here and one line to {@link serverFeatures}.
 */
import { GeminiMcpError } from '../../../errors.js';
import type { ClientFeature } from './capabilities.js';
import {
  checkElicitationOptions,
  type ElicitationOptions,
  elicitationFeature,
} from './elicitation.js';
import { type ClientRoot, checkRoots, ServerRoots } from './roots.js';

/** The capabilities a client declares to a server, each with what answers its requests. */
export interface ClientCapabilityOptions {
  /** Answer servers' requests for user input (`elicitation/create`); `false`: not declared. */
  elicitation?: ElicitationOptions | false;
  /** The roots servers may work on (`roots/list`), replaced with `setRoots`; `false`: not declared. */
  roots?: readonly ClientRoot[] | false;
}

/** Options for one server, by its `mcpServers` id. */
export interface ServerOptions {
  /** Overrides of the top-level `capabilities`, key by key, for this server. */
  capabilities?: ClientCapabilityOptions;
  /**
   * Take this server's `instructions` into `connections.systemInstruction()`, attributed to it,
   * sanitized and capped. Off by default: a server's instructions are text it wrote about itself.
   */
  instructions?: boolean;
}

/** The capability options of `connectServers`. */
export interface CapabilitiesConfig {
  /** Declared to every server (only what is given here is advertised). */
  capabilities?: ClientCapabilityOptions;
  /** Per server id: overrides (ids of servers not connected are ignored). */
  servers?: Readonly<Record<string, ServerOptions>>;
}

/** What one server's client is equipped with. */
export interface ServerFeatures {
  features: ClientFeature[];
  /** The server's roots, when it has the roots capability. */
  roots: ServerRoots | undefined;
}

function resolve(serverId: string, config: CapabilitiesConfig): ClientCapabilityOptions {
  const own = Object.hasOwn(config.servers ?? {}, serverId)
    ? config.servers?.[serverId]?.capabilities
    : undefined;
  const top = config.capabilities ?? {};
  return {
    ...top,
    ...Object.fromEntries(Object.entries(own ?? {}).filter(([, v]) => v !== undefined)),
  };
}

function eachCapabilities(config: CapabilitiesConfig): [string, ClientCapabilityOptions][] {
  const servers = config.servers ?? {};
  if (typeof servers !== 'object' || servers === null) {
    throw new GeminiMcpError('INVALID_INPUT', 'option servers must be an object of server ids', {
      data: { option: 'servers' },
    });
  }
  return [
    ['capabilities', config.capabilities ?? {}],
    ...Object.entries(servers).map(([id, own]): [string, ClientCapabilityOptions] => [
      `servers.${id}.capabilities`,
      own?.capabilities ?? {},
    ]),
  ];
}

/**
 * Checks every capability option up front (top level and per server): INVALID_INPUT naming the
 * option and, for roots, the pointer of the bad value.
 *
 * @example
 * ```ts
 * checkCapabilitiesConfig({ capabilities: { roots: [{ uri: 'file:///srv' }] } }); // fine
 * checkCapabilitiesConfig({ servers: { fs: { capabilities: { roots: [{ uri: '/srv' }] } } } }); // throws
 * ```
 */
export function checkCapabilitiesConfig(config: CapabilitiesConfig): void {
  for (const [where, options] of eachCapabilities(config)) {
    const { elicitation, roots } = options;
    if (elicitation !== undefined && elicitation !== false) {
      checkElicitationOptions(elicitation, `${where}.elicitation`);
    }
    if (roots !== undefined && roots !== false) checkRoots(roots, `${where}.roots`);
  }
}

/**
 * The features of one server's client, from the options checked by
 * {@link checkCapabilitiesConfig}: nothing when nothing is configured, so nothing is advertised.
 *
 * @example
 * ```ts
 * const { features, roots } = serverFeatures('fs', { capabilities: { roots: [] } });
 * equipClient(client, 'fs', features); // declares roots: {listChanged: true}
 * ```
 */
export function serverFeatures(serverId: string, config: CapabilitiesConfig): ServerFeatures {
  const { elicitation, roots } = resolve(serverId, config);
  const serverRoots =
    roots === undefined || roots === false ? undefined : new ServerRoots(checkRoots(roots));
  const features = [
    elicitation === undefined || elicitation === false
      ? undefined
      : elicitationFeature(elicitation),
    serverRoots?.feature,
  ].filter((feature) => feature !== undefined);
  return { features, roots: serverRoots };
}
