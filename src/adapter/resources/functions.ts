/**
 * The resource functions gemini-mcp-kit offers the model when asked to (issue 35): in the reserved
 * namespace, `gmk__read_resource` (a URI in; the resource's contents out, as Parts or their
 * placeholders) and `gmk__list_resources` (the resources and templates the servers publish).
 * Their declarations, in both schema modes, and their entries for resolving the model's calls.
 */
import type { FunctionDeclaration, McpTool } from '../../generated/types.js';
import { RESERVED_SERVER_ID } from '../tools/names.js';
import type { ToolSetEntry } from '../tools/toolset-types.js';

/** The name of the function that reads a resource. */
export const READ_RESOURCE_NAME = `${RESERVED_SERVER_ID}__read_resource`;
/** The name of the function that lists the resources. */
export const LIST_RESOURCES_NAME = `${RESERVED_SERVER_ID}__list_resources`;

/** One string parameter of an own function. */
interface StringParameter {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
}

/** An own function: its tool name (under the reserved server), description and parameters. */
export interface OwnFunctionSpec {
  readonly toolName: string;
  readonly description: string;
  readonly parameters: readonly StringParameter[];
}

const SERVER_PARAMETER: StringParameter = {
  name: 'server',
  description:
    'The server that publishes the resource (its id, as gmk__list_resources shows it); needed only when several servers could hold the URI.',
  required: false,
};

const READ_SPEC: OwnFunctionSpec = {
  toolName: 'read_resource',
  description:
    'Reads a resource an MCP server publishes, by its URI (for example a resource link a tool returned, or one gmk__list_resources shows), and returns its contents.',
  parameters: [
    { name: 'uri', description: 'The URI of the resource, exactly as given.', required: true },
    SERVER_PARAMETER,
  ],
};

const LIST_SPEC: OwnFunctionSpec = {
  toolName: 'list_resources',
  description:
    'Lists the resources and resource templates the MCP servers publish (URI, name, type, one-line description). A template is read by filling in its {variables}.',
  parameters: [
    {
      name: 'server',
      description: 'Only the resources of this server (its id); all servers when omitted.',
      required: false,
    },
  ],
};

/** The JSON Schema of a function's arguments (as an MCP tool's inputSchema). */
function inputSchema(spec: OwnFunctionSpec): McpTool['inputSchema'] {
  const required = spec.parameters.filter((p) => p.required).map((p) => p.name);
  return Object.freeze({
    type: 'object' as const,
    properties: Object.freeze(
      Object.fromEntries(
        spec.parameters.map((p) => [
          p.name,
          Object.freeze({ type: 'string', description: p.description }),
        ]),
      ),
    ),
    ...(required.length === 0 ? {} : { required: Object.freeze(required) }),
  }) as McpTool['inputSchema'];
}

/** The entry a call of the function resolves to. */
export function entryOf(spec: OwnFunctionSpec): ToolSetEntry {
  return Object.freeze({
    exposedName: `${RESERVED_SERVER_ID}__${spec.toolName}`,
    serverId: RESERVED_SERVER_ID,
    tool: Object.freeze({
      name: spec.toolName,
      description: spec.description,
      inputSchema: inputSchema(spec),
    }) as McpTool,
  });
}

/** The declaration of the function in a schema mode (its schema as the other tools' are). */
export function declarationOf(
  spec: OwnFunctionSpec,
  mode: 'json' | 'openapi',
): FunctionDeclaration {
  const name = `${RESERVED_SERVER_ID}__${spec.toolName}`;
  if (mode === 'json') {
    return Object.freeze({
      name,
      description: spec.description,
      parametersJsonSchema: inputSchema(spec),
    });
  }
  const required = spec.parameters.filter((p) => p.required).map((p) => p.name);
  return Object.freeze({
    name,
    description: spec.description,
    parameters: Object.freeze({
      type: 'OBJECT',
      properties: Object.freeze(
        Object.fromEntries(
          spec.parameters.map((p) => [
            p.name,
            Object.freeze({ type: 'STRING', description: p.description }),
          ]),
        ),
      ),
      ...(required.length === 0 ? {} : { required: Object.freeze(required) }),
    }),
  }) as FunctionDeclaration;
}

/** Which resource functions a conversation offers. */
export interface ResourceFunctionChoice {
  /** Offer `gmk__list_resources` beside `gmk__read_resource` (default `true`). */
  readonly list?: boolean;
}

/** The specs offered for a choice: read, and list unless turned off. */
function specsOf(choice: ResourceFunctionChoice): OwnFunctionSpec[] {
  return choice.list === false ? [READ_SPEC] : [READ_SPEC, LIST_SPEC];
}

/** The entries of the resource functions offered (for resolving the model's calls). */
export function resourceFunctionEntries(choice: ResourceFunctionChoice): ToolSetEntry[] {
  return specsOf(choice).map(entryOf);
}

/** The declarations of the resource functions offered, in a schema mode. */
export function resourceFunctionDeclarations(
  choice: ResourceFunctionChoice,
  mode: 'json' | 'openapi',
): FunctionDeclaration[] {
  return specsOf(choice).map((spec) => declarationOf(spec, mode));
}
