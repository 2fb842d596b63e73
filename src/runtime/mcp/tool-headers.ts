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
  return scanHeaders(inputSchema).fault;
}

/** One `x-mcp-header` annotation: the header's name and the property path it mirrors. */
interface HeaderDeclaration {
  readonly name: string;
  readonly path: readonly string[];
}

/** Every `x-mcp-header` annotation of a schema, or why they break the rules. */
function scanHeaders(inputSchema: unknown): {
  fault?: string;
  declarations: HeaderDeclaration[];
} {
  const seen = new Map<string, string>();
  const declarations: HeaderDeclaration[] = [];
  let nodes = 0;
  const visit = (
    node: unknown,
    at: string,
    reachable: boolean,
    depth: number,
    path: readonly string[] = [],
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
      declarations.push({ name, path });
    }
    const { properties } = node;
    if (isJsonObject(properties)) {
      for (const [key, child] of Object.entries(properties)) {
        const fault = visit(
          child,
          appendPointer(appendPointer(at, 'properties'), key),
          reachable,
          depth + 1,
          [...path, key],
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
  const fault = visit(inputSchema, '', true, 0);
  return fault === undefined ? { declarations } : { fault, declarations: [] };
}

const BASE64_OPEN = '=?base64?';
const BASE64_CLOSE = '?=';

/** An argument as a header's text: strings as they are, booleans and safe numbers in words. */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return Number.isInteger(value) && !Number.isSafeInteger(value) ? undefined : String(value);
}

/**
 * `text` as an HTTP field value: as it is when it is printable ASCII without surrounding
 * space, else (or when it looks like the encoding itself) `=?base64?{UTF-8 in Base64}?=`.
 */
function fieldValue(text: string): string {
  const plain =
    text.length > 0 &&
    text === text.trim() &&
    !(text.startsWith(BASE64_OPEN) && text.endsWith(BASE64_CLOSE)) &&
    /^[\t\x20-\x7e]*$/.test(text);
  return plain
    ? text
    : `${BASE64_OPEN}${Buffer.from(text, 'utf8').toString('base64')}${BASE64_CLOSE}`;
}

/**
 * The `Mcp-Param-{Name}` headers a 2026-07-28 `tools/call` over Streamable HTTP carries: one per
 * `x-mcp-header` annotation of the tool's `inputSchema` whose argument is a string, boolean or
 * (safe) number, encoded as SEP-2243 says; none for a tool whose annotations break the rules.
 *
 * @example
 * ```ts
 * paramHeaders({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } }, { region: 'eu' });
 * // { 'Mcp-Param-Region': 'eu' }
 * ```
 */
export function paramHeaders(
  inputSchema: unknown,
  args: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { name, path } of scanHeaders(inputSchema).declarations) {
    let value: unknown = args;
    for (const key of path) value = isJsonObject(value) ? value[key] : undefined;
    const text = value === null ? undefined : headerText(value);
    if (text !== undefined) headers[`Mcp-Param-${name}`] = fieldValue(text);
  }
  return headers;
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
