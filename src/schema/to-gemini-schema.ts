/**
 * JSON Schema to Gemini `Schema` (the OpenAPI 3.0 subset taken by `FunctionDeclaration.parameters`).
 * First version: types, nullable, properties, items, enums and bounds; every dropped keyword warned.
 */
import { GeminiMcpError } from '../errors.js';

/** Gemini's `Schema` object (int64 fields are strings on the wire). */
export interface GeminiSchema {
  type?:
    | 'TYPE_UNSPECIFIED'
    | 'STRING'
    | 'NUMBER'
    | 'INTEGER'
    | 'BOOLEAN'
    | 'ARRAY'
    | 'OBJECT'
    | 'NULL';
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  maxItems?: string;
  minItems?: string;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  minProperties?: string;
  maxProperties?: string;
  minLength?: string;
  maxLength?: string;
  pattern?: string;
  example?: unknown;
  anyOf?: GeminiSchema[];
  propertyOrdering?: string[];
  default?: unknown;
  items?: GeminiSchema;
  minimum?: number;
  maximum?: number;
}

/** Options of {@link toGeminiSchema}. */
export interface ToGeminiSchemaOptions {
  /** How many times one `$ref` may be expanded inside itself before the recursion is cut. */
  maxRefDepth?: number;
  /** Deepest schema nesting accepted (default 64). */
  maxDepth?: number;
  /** Most schema nodes accepted in the input. */
  maxNodes?: number;
  /** Most schema nodes the output may have after `$ref` expansion. */
  maxExpandedNodes?: number;
  /** Append a short note of the lost constraints to the description. */
  describeLosses?: boolean;
}

/** One loss of the conversion. */
export interface SchemaWarning {
  /** JSON pointer into the source schema. */
  pointer: string;
  /** The keyword concerned. */
  keyword: string;
  action: 'dropped' | 'rewritten' | 'weakened';
  detail: string;
}

const TYPES: Record<string, GeminiSchema['type']> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
};

function esc(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

function resolve(root: unknown, ref: string, pointer: string): unknown {
  if (!ref.startsWith('#')) {
    throw new GeminiMcpError('SCHEMA_UNSUPPORTED', `remote $ref ${ref}`, { path: pointer });
  }
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) {
      throw new GeminiMcpError('SCHEMA_UNSUPPORTED', `$ref to nowhere: ${ref}`, { path: pointer });
    }
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function convert(
  root: unknown,
  node: unknown,
  pointer: string,
  depth: number,
  refs: string[],
  warnings: SchemaWarning[],
  max: number,
): GeminiSchema {
  if (depth > max) {
    throw new GeminiMcpError('SCHEMA_TOO_LARGE', `schema deeper than ${max}`, { path: pointer });
  }
  if (node === true) return { type: 'OBJECT' };
  if (node === null || typeof node !== 'object' || Array.isArray(node)) {
    throw new GeminiMcpError('SCHEMA_UNSUPPORTED', 'a schema must be an object or a boolean', {
      path: pointer,
    });
  }
  const s = node as Record<string, unknown>;
  if (typeof s.$ref === 'string') {
    if (refs.includes(s.$ref)) {
      warnings.push({ pointer, keyword: '$ref', action: 'weakened', detail: 'recursion cut' });
      return { type: 'OBJECT' };
    }
    return convert(
      root,
      resolve(root, s.$ref, pointer),
      pointer,
      depth + 1,
      [...refs, s.$ref],
      warnings,
      max,
    );
  }
  const out: GeminiSchema = {};
  for (const [k, v] of Object.entries(s)) {
    const p = `${pointer}/${esc(k)}`;
    switch (k) {
      case 'type': {
        const list = Array.isArray(v) ? v : [v];
        const nonNull = list.filter((t) => t !== 'null');
        if (list.includes('null')) out.nullable = true;
        const t = TYPES[String(nonNull[0])];
        if (t) out.type = t;
        break;
      }
      case 'description':
      case 'title':
      case 'pattern':
        if (typeof v === 'string') out[k] = v;
        break;
      case 'properties': {
        const props: Record<string, GeminiSchema> = {};
        for (const [name, sub] of Object.entries(v as Record<string, unknown>)) {
          props[name] = convert(root, sub, `${p}/${esc(name)}`, depth + 1, refs, warnings, max);
        }
        if (Object.keys(props).length > 0) {
          out.properties = props;
          out.propertyOrdering = Object.keys(props);
        }
        break;
      }
      case 'required':
        out.required = (v as string[]).slice();
        break;
      case 'items':
        out.items = convert(root, v, p, depth + 1, refs, warnings, max);
        break;
      case 'anyOf':
      case 'oneOf':
        out.anyOf = (v as unknown[]).map((b, i) =>
          convert(root, b, `${p}/${i}`, depth + 1, refs, warnings, max),
        );
        break;
      case 'enum':
        out.enum = (v as unknown[]).map(String);
        break;
      case 'const':
        out.enum = [String(v)];
        break;
      case 'minimum':
      case 'maximum':
        out[k] = Number(v);
        break;
      case 'minItems':
      case 'maxItems':
      case 'minLength':
      case 'maxLength':
      case 'minProperties':
      case 'maxProperties':
        out[k] = String(v);
        break;
      case 'default':
        out.default = v;
        break;
      case '$defs':
      case 'definitions':
        break;
      default:
        warnings.push({
          pointer: p,
          keyword: k,
          action: 'dropped',
          detail: `${k} is not supported`,
        });
    }
  }
  if (out.type === 'ARRAY' && !out.items) out.items = { type: 'STRING' };
  return out;
}

/**
 * Converts a JSON Schema to Gemini's `Schema`, reporting every loss.
 *
 * @example
 * ```ts
 * const { schema, warnings } = toGeminiSchema({ type: 'object', properties: { q: { type: 'string' } } });
 * ```
 */
export function toGeminiSchema(
  jsonSchema: unknown,
  options: ToGeminiSchemaOptions = {},
): { schema: GeminiSchema; warnings: SchemaWarning[] } {
  const warnings: SchemaWarning[] = [];
  const schema = convert(jsonSchema, jsonSchema, '', 0, [], warnings, options.maxDepth ?? 64);
  return { schema, warnings };
}

/**
 * Converts an MCP tool's `inputSchema` for `FunctionDeclaration.parameters`; `undefined` for a
 * tool without arguments (the declaration then gets no `parameters` at all).
 *
 * @example
 * ```ts
 * toGeminiParameters({ type: 'object' }).schema; // undefined
 * ```
 */
export function toGeminiParameters(
  inputSchema: unknown,
  options: ToGeminiSchemaOptions = {},
): { schema: GeminiSchema | undefined; warnings: SchemaWarning[] } {
  const result = toGeminiSchema(inputSchema, options);
  if (result.schema.type === 'OBJECT' && result.schema.properties === undefined) {
    return { schema: undefined, warnings: result.warnings };
  }
  return result;
}
