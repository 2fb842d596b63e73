/**
 * The rules MCP 2026-07-28 (SEP-2243) sets for a tool's `x-mcp-header` annotations, which name
 * the HTTP headers (`Mcp-Param-*`) a call's arguments are mirrored into: a Streamable HTTP
 * client leaves out a tool whose annotations break them, and says why.
 */
import type { ToolSetWarning } from '../../adapter/tools/toolset-types.js';
import { isJsonObject } from '../../json/object.js';
import { appendPointer } from '../../json/pointer.js';

const X_MCP_HEADER = 'x-mcp-header';

/** An HTTP token (RFC 9110 §5.6.2): what a header name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The property types a header may carry. */
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

/** Keywords whose subschemas are not reached by a chain of `properties`: no header there. */
const ELSEWHERE = [
  'items',
  'prefixItems',
  'additionalProperties',
  'patternProperties',
  'dependentSchemas',
  'propertyNames',
  'contains',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
];

/** Keywords whose value maps names to subschemas. */
const BY_NAME = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

/** Subschemas looked at, at most, and how deep: a server's schema is bounded before it is read. */
const MAX_NODES = 10_000;
const MAX_DEPTH = 64;

/**
 * Why `inputSchema`'s `x-mcp-header` annotations break SEP-2243's rules, or `undefined` when
 * they keep them (or there are none): each one a non-empty HTTP token, on a property of type
 * string, integer or boolean reached from the root through `properties` alone, no two the same
 * but for case. A schema past 10 000 subschemas or 64 levels is refused too (its headers could
 * not be checked).
 *
 * @example
 * ```ts
 * headerAnnotationFault({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } }); // undefined
 * headerAnnotationFault({ type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } });
 * // '/properties/n: x-mcp-header is only allowed on a string, integer or boolean property (type number)'
 * ```
 */
export function headerAnnotationFault(inputSchema: unknown): string | undefined {
  const seen = new Map<string, string>();
  let nodes = 0;
  const visit = (
    node: unknown,
    at: string,
    reachable: boolean,
    depth: number,
  ): string | undefined => {
    if (!isJsonObject(node)) return undefined;
    nodes += 1;
    if (nodes > MAX_NODES || depth > MAX_DEPTH) {
      return `the schema is too large to check its x-mcp-header annotations (over ${MAX_NODES} subschemas or ${MAX_DEPTH} levels)`;
    }
    if (Object.hasOwn(node, X_MCP_HEADER)) {
      const name = node[X_MCP_HEADER];
      if (!reachable || at === '') {
        return `${at || '/'}: x-mcp-header is only allowed on a property reached through properties alone`;
      }
      if (typeof name !== 'string' || !TOKEN.test(name)) {
        return `${at}: x-mcp-header must be a non-empty HTTP token (RFC 9110), got ${JSON.stringify(name)}`;
      }
      const { type } = node;
      if (typeof type !== 'string' || !HEADER_TYPES.has(type)) {
        return `${at}: x-mcp-header is only allowed on a string, integer or boolean property (type ${typeof type === 'string' ? type : 'none'})`;
      }
      const other = seen.get(name.toLowerCase());
      if (other !== undefined)
        return `${at}: x-mcp-header "${name}" repeats "${other}" (case aside)`;
      seen.set(name.toLowerCase(), name);
    }
    const { properties } = node;
    if (isJsonObject(properties)) {
      for (const [key, child] of Object.entries(properties)) {
        const fault = visit(
          child,
          appendPointer(appendPointer(at, 'properties'), key),
          reachable,
          depth + 1,
        );
        if (fault !== undefined) return fault;
      }
    }
    for (const keyword of ELSEWHERE) {
      const value = node[keyword];
      const branches = Array.isArray(value)
        ? value
        : BY_NAME.has(keyword) && isJsonObject(value)
          ? Object.values(value)
          : [value];
      for (const branch of branches) {
        const fault = visit(branch, appendPointer(at, keyword), false, depth + 1);
        if (fault !== undefined) return fault;
      }
    }
    return undefined;
  };
  return visit(inputSchema, '', true, 0);
}

/**
 * `tools` without those whose `x-mcp-header` annotations break SEP-2243's rules (see
 * {@link headerAnnotationFault}), and a `TOOL_HEADER_INVALID` warning for each one left out.
 *
 * @example
 * ```ts
 * const { kept, warnings } = withValidHeaders('docs', tools);
 * ```
 */
export function withValidHeaders(
  serverId: string,
  tools: readonly unknown[],
): { kept: unknown[]; warnings: ToolSetWarning[] } {
  const kept: unknown[] = [];
  const warnings: ToolSetWarning[] = [];
  for (const tool of tools) {
    const fault = isJsonObject(tool) ? headerAnnotationFault(tool.inputSchema) : undefined;
    if (fault === undefined) {
      kept.push(tool);
      continue;
    }
    const toolName = isJsonObject(tool) && typeof tool.name === 'string' ? tool.name : undefined;
    warnings.push({
      code: 'TOOL_HEADER_INVALID',
      serverId,
      ...(toolName === undefined ? {} : { toolName }),
      message: `tool ${JSON.stringify(toolName ?? '?')} of server "${serverId}" left out: ${fault}`,
      data: { reason: fault },
    });
  }
  return { kept, warnings };
}
