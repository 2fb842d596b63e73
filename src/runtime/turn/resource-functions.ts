/**
 * The model's access to MCP resources, when a conversation opts in (`runConversation({ resources })`):
 * `gmk__read_resource` and `gmk__list_resources`, gemini-mcp-kit's own functions, answered here
 * (never sent to a server as a tool call), each answer a tool result proven with the MCP write
 * contract and rendered like every other call's (one response per call, capped).
 */
import type { ResourceContentsOptions } from '../../adapter/resources/contents.js';
import { itemsToolResult } from '../../adapter/resources/contents.js';
import {
  LIST_RESOURCES_NAME,
  READ_RESOURCE_NAME,
  type ResourceFunctionChoice,
  resourceFunctionDeclarations,
  resourceFunctionEntries,
} from '../../adapter/resources/functions.js';
import type { ToolSetEntry } from '../../adapter/tools/toolset-types.js';
import type { ToolResult } from '../../adapter/types.js';
import { GeminiMcpError } from '../../errors.js';
import type { ReadNotice } from '../../generated/guards-common.js';
import { checkMcpCallToolResult } from '../../generated/guards-mcp.js';
import type { FunctionDeclaration } from '../../generated/types.js';
import { proveContract } from '../../json/contract.js';
import { stripInvisible } from '../../json/invisible.js';
import { type ResourceServers, readResourceItems } from '../mcp/resources/read.js';
import type { OwnFunctions } from './answer.js';

/**
 * Opt-in model access to the servers' resources: `gmk__read_resource` (and, unless `list` is
 * `false`, `gmk__list_resources`) are declared in every request, counted in its budget, and
 * answered by gemini-mcp-kit from `servers`. A `resource_link` a tool returned can then be
 * opened by the model.
 */
export interface ResourceAccess extends ResourceFunctionChoice, ResourceContentsOptions {
  /** Where resources are read: what `connectServers` returned. */
  readonly servers: ResourceServers;
  /**
   * Limit of one read, in ms.
   *
   * @defaultValue 60000
   */
  readonly timeoutMs?: number;
}

/**
 * Answers a read of a URI itself when it is a file of a skill the conversation loaded (verified
 * against that skill's entry), or `undefined` for an ordinary resource.
 */
export type SkillFileReader = (
  uri: string,
  serverId: string | undefined,
) => Promise<ToolResult | undefined>;

/** What a conversation needs of the resource functions: their declarations, entries and answers. */
export interface ResourceFunctions {
  readonly entries: readonly ToolSetEntry[];
  declarations(mode: 'json' | 'openapi'): FunctionDeclaration[];
  readonly answers: OwnFunctions;
}

/** Entries a list answer shows at most. */
const MAX_LISTED = 200;
/** The longest name or description shown in a list answer, in characters. */
const MAX_SHOWN_TEXT = 160;
/** The longest error text a read answers with, in characters. */
const MAX_ERROR_TEXT = 1000;

/** Server-written text for one line of a list: invisible characters removed, one line, capped. */
function shown(text: string | undefined): string {
  const line = stripInvisible(text ?? '')
    .text.replace(/\s+/g, ' ')
    .trim();
  const points = [...line];
  return points.length > MAX_SHOWN_TEXT ? `${points.slice(0, MAX_SHOWN_TEXT - 1).join('')}…` : line;
}

function failure(text: string): ToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

function proven(result: ToolResult): ToolResult {
  return proveContract(result, checkMcpCallToolResult, { schema: 'McpCallToolResult' });
}

/** The `server` argument: absent, or a string. */
function serverArgument(args: Readonly<Record<string, unknown>>): string | undefined | null {
  const { server } = args;
  if (server === undefined || server === null || server === '') return undefined;
  return typeof server === 'string' ? server : null;
}

function listAnswer(servers: ResourceServers, args: Readonly<Record<string, unknown>>): ToolResult {
  const server = serverArgument(args);
  if (server === null) return failure('"server" must be a server id (a string), or left out.');
  const { resources, templates } = servers.resources;
  const mine = <T extends { serverId: string }>(list: readonly T[]): T[] =>
    server === undefined ? [...list] : list.filter((item) => item.serverId === server);
  const lines = [
    ...mine(resources).map(
      ({ serverId, resource }) =>
        `resource ${JSON.stringify(resource.uri)} (server ${JSON.stringify(serverId)}): ${shown(resource.title ?? resource.name)}${resource.mimeType === undefined ? '' : `, ${shown(resource.mimeType)}`}${resource.description === undefined ? '' : ` - ${shown(resource.description)}`}`,
    ),
    ...mine(templates).map(
      ({ serverId, template }) =>
        `template ${JSON.stringify(template.uriTemplate)} (server ${JSON.stringify(serverId)}): ${shown(template.title ?? template.name)}${template.description === undefined ? '' : ` - ${shown(template.description)}`}`,
    ),
  ];
  if (lines.length === 0) {
    return {
      content: [
        {
          type: 'text',
          text:
            server === undefined
              ? 'No server publishes resources.'
              : `Server ${JSON.stringify(server)} publishes no resources.`,
        },
      ],
    };
  }
  const more = lines.length - MAX_LISTED;
  const text = `${lines.slice(0, MAX_LISTED).join('\n')}${more > 0 ? `\n(${more} more not shown; ask for one server's)` : ''}\nRead one with gmk__read_resource; fill in a template's {variables} to make its URI.`;
  return { content: [{ type: 'text', text }] };
}

/** What went wrong in reading, in words for the model. */
function readFailure(error: unknown): ToolResult {
  const message = error instanceof Error ? error.message : String(error);
  const cut = message.length > MAX_ERROR_TEXT ? `${message.slice(0, MAX_ERROR_TEXT)}...` : message;
  return failure(`The resource could not be read: ${stripInvisible(cut).text}`);
}

/**
 * The resource functions of a conversation: declarations, entries, and the answers to their
 * calls (a read's failure, an unknown URI or server included, is answered to the model as an
 * error result, never thrown).
 */
export function resourceFunctions(
  access: ResourceAccess,
  context: {
    signal?: AbortSignal;
    onNotice?: (notice: ReadNotice) => void;
    /** Reads the files of the skills loaded in the conversation (`runConversation({ skills })`). */
    skillFile?: SkillFileReader;
  },
): ResourceFunctions {
  if (typeof access?.servers?.resources !== 'object' || !(access.servers.clients instanceof Map)) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      'runConversation option resources.servers must be what connectServers returned',
      { path: '/resources/servers' },
    );
  }
  const { servers } = access;
  const read = async (args: Readonly<Record<string, unknown>>): Promise<ToolResult> => {
    const { uri } = args;
    const server = serverArgument(args);
    if (typeof uri !== 'string' || uri === '')
      return failure('Give "uri": the URI of the resource, exactly as given.');
    if (server === null) return failure('"server" must be a server id (a string), or left out.');
    try {
      const asSkillFile = await context.skillFile?.(uri, server);
      if (asSkillFile !== undefined) return proven(asSkillFile);
      const { items } = await readResourceItems(servers, uri, {
        ...access,
        ...(server === undefined ? {} : { serverId: server }),
        ...(context.signal === undefined ? {} : { signal: context.signal }),
        ...(context.onNotice === undefined ? {} : { onNotice: context.onNotice }),
      });
      return proven(itemsToolResult(items));
    } catch (error) {
      return proven(readFailure(error));
    }
  };
  const answers = new Map<string, (args: Readonly<Record<string, unknown>>) => Promise<ToolResult>>(
    [[READ_RESOURCE_NAME, read]],
  );
  if (access.list !== false) {
    answers.set(LIST_RESOURCES_NAME, async (args) => proven(listAnswer(servers, args)));
  }
  return {
    entries: resourceFunctionEntries(access),
    declarations: (mode) => resourceFunctionDeclarations(access, mode),
    answers,
  };
}
