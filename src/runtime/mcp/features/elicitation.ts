/**
 * The elicitation capability: a server asks the user for input while it works (MCP
 * `elicitation/create`). Form mode carries a flat schema of primitive fields; the request is
 * bounded in size, read into {@link FormField}s and handed to the application's
 * `onElicitation`; an accepted answer gets the schema's defaults for the fields it leaves out and
 * is checked against the schema before it is sent (strict when we write). URL mode (the user
 * opens a link) is answered only when enabled, and only for an `https:` (or loopback `http:`)
 * link. Each server gets at most `requestsPerMinute` elicitations a minute.
 */
import { ElicitRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { GeminiMcpError, type GeminiMcpErrorCode, type ViolationDetail } from '../../../errors.js';
import { isJsonObject, ownValue, setOwn } from '../../../json/object.js';
import { appendPointer } from '../../../json/pointer.js';
import { utf8ByteLength } from '../../../json/utf8.js';
import { checkOpenableUrl } from '../../openable-url.js';
import { checkCount } from '../../options.js';
import { OVER_LIMIT, rateWindow } from '../server-request-limits.js';
import type { ClientFeature, ServerRequestContext } from './capabilities.js';

/** A value of a form field: text, a number, a yes/no, or several choices. */
export type FormValue = string | number | boolean | string[];

/** One option of a choice field: the value sent and the title shown. */
export interface FormOption {
  value: string;
  title: string;
}

interface FieldBase {
  /** The property name (the key in the answer's content). */
  name: string;
  /** Whether the answer must hold it (after defaults are applied). */
  required: boolean;
  title?: string;
  description?: string;
}

/** A form field asking for text. */
export interface TextField extends FieldBase {
  kind: 'text';
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  default?: string;
}

/** A form field asking for a number (`integer`: a whole number). */
export interface NumberField extends FieldBase {
  kind: 'number' | 'integer';
  minimum?: number;
  maximum?: number;
  default?: number;
}

/** A form field asking yes or no. */
export interface BooleanField extends FieldBase {
  kind: 'boolean';
  default?: boolean;
}

/** A form field asking for one of its options. */
export interface ChoiceField extends FieldBase {
  kind: 'choice';
  options: readonly FormOption[];
  default?: string;
}

/** A form field asking for any number of its options. */
export interface MultiChoiceField extends FieldBase {
  kind: 'choices';
  options: readonly FormOption[];
  minItems?: number;
  maxItems?: number;
  default?: string[];
}

/** One field of an elicitation form, read from the server's `requestedSchema`. */
export type FormField = TextField | NumberField | BooleanField | ChoiceField | MultiChoiceField;

/** A server's request for input, as `onElicitation` receives it. */
export type ElicitationQuery =
  | {
      mode: 'form';
      /** What the server asks, to show the user (server text: hostile until shown safely). */
      message: string;
      /** The fields of `requestedSchema`, in the server's order. */
      fields: readonly FormField[];
      /** The flat schema as the server sent it (after the SDK's checks). */
      requestedSchema: Readonly<Record<string, unknown>>;
    }
  | {
      mode: 'url';
      message: string;
      /** The page the user is asked to open (never opened without the user's consent). */
      url: string;
      /** The server's id of this elicitation. */
      elicitationId: string;
    };

/**
 * The user's answer: `accept` (in form mode with the content; fields left out get the schema's
 * defaults), `decline` (an explicit no) or `cancel` (dismissed without a choice).
 */
export type ElicitationAnswer =
  | { action: 'accept'; content?: Readonly<Record<string, FormValue>> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** The default bound on one elicitation request: message and schema together, 64 KiB of JSON. */
const DEFAULT_MAX_ELICITATION_BYTES = 64 * 1024;

/** The default number of elicitations one server may send per rolling minute (as sampling's). */
const DEFAULT_ELICITATIONS_PER_MINUTE = 10;

/** How a client answers elicitation requests. */
export interface ElicitationOptions {
  /** Asks the user (or decides) and returns the answer; `context.signal` aborts when the server gives up. */
  onElicitation: (
    query: ElicitationQuery,
    context: ServerRequestContext,
  ) => ElicitationAnswer | Promise<ElicitationAnswer>;
  /**
   * Also declare and answer URL mode. Default `false`: form mode only. Only an `https:` URL, or
   * `http:` to a loopback host, reaches `onElicitation`; any other (`javascript:`, `data:`,
   * `file:`, `smb:`, plain http to another host) is refused to the server (InvalidParams naming
   * the scheme).
   */
  url?: boolean;
  /**
   * Requests (form and URL mode together) one server may send per rolling minute; more are
   * refused to the server (-32010, `limit: 'requestsPerMinute'`) without calling
   * `onElicitation`, as sampling's requests are.
   *
   * @defaultValue 10
   */
  requestsPerMinute?: number;
  /**
   * Largest request handled, in bytes of JSON (message and requested schema; 64 KiB by
   * default); a larger one is refused to the server (SCHEMA_TOO_LARGE) without calling
   * `onElicitation`.
   *
   * @defaultValue 65536
   */
  maxRequestBytes?: number;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;

/** `T` with each property that may be undefined made optional instead. */
type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** The properties of `from` whose values are defined (for exactOptionalPropertyTypes). */
function defined<T extends object>(from: T): Defined<T> {
  return Object.fromEntries(Object.entries(from).filter(([, v]) => v !== undefined)) as Defined<T>;
}

function optionsOf(list: unknown, valueKey: 'const'): FormOption[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((item: unknown) => {
    const value = isJsonObject(item) ? text(item[valueKey]) : undefined;
    return isJsonObject(item) && value !== undefined
      ? [{ value, title: text(item.title) ?? value }]
      : [];
  });
}

const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

/** One property of the requested schema as a field (the SDK has checked its shape already). */
function toField(name: string, schema: Record<string, unknown>, required: boolean): FormField {
  const base = defined({
    name,
    required,
    title: text(schema.title),
    description: text(schema.description),
  });
  const { type } = schema;
  if (type === 'boolean') {
    const fallback = typeof schema.default === 'boolean' ? schema.default : undefined;
    return defined({ ...base, kind: 'boolean' as const, default: fallback });
  }
  if (type === 'number' || type === 'integer') {
    return defined({
      ...base,
      kind: type === 'integer' ? ('integer' as const) : ('number' as const),
      minimum: num(schema.minimum),
      maximum: num(schema.maximum),
      default: num(schema.default),
    });
  }
  if (type === 'array') {
    const items = isJsonObject(schema.items) ? schema.items : {};
    const options =
      strings(items.enum)?.map((value) => ({ value, title: value })) ??
      optionsOf(items.anyOf, 'const') ??
      [];
    return defined({
      ...base,
      kind: 'choices' as const,
      options,
      minItems: num(schema.minItems),
      maxItems: num(schema.maxItems),
      default: strings(schema.default),
    });
  }
  const values = strings(schema.enum);
  const titled = optionsOf(schema.oneOf, 'const');
  if (values !== undefined || titled !== undefined) {
    const names = strings(schema.enumNames);
    const options =
      values?.map((value, i) => ({ value, title: names?.[i] ?? value })) ?? titled ?? [];
    return defined({ ...base, kind: 'choice' as const, options, default: text(schema.default) });
  }
  const format = text(schema.format);
  return defined({
    ...base,
    kind: 'text' as const,
    minLength: num(schema.minLength),
    maxLength: num(schema.maxLength),
    format:
      format !== undefined && FORMATS.has(format) ? (format as TextField['format']) : undefined,
    default: text(schema.default),
  });
}

/**
 * The fields of a form-mode `requestedSchema`, in the server's order; `required` names that no
 * property has are ignored.
 *
 * @example
 * ```ts
 * formFields({ type: 'object', properties: { age: { type: 'integer', default: 30 } } });
 * // [{ name: 'age', required: false, kind: 'integer', default: 30 }]
 * ```
 */
export function formFields(requestedSchema: Readonly<Record<string, unknown>>): FormField[] {
  const properties = isJsonObject(requestedSchema.properties) ? requestedSchema.properties : {};
  const required = new Set(strings(requestedSchema.required) ?? []);
  return Object.keys(properties).map((name) => {
    const schema = ownValue(properties, name);
    return toField(name, isJsonObject(schema) ? schema : {}, required.has(name));
  });
}

// Our own patterns (never a server's), each linear: no nested quantifiers.
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

function formatProblem(format: TextField['format'], value: string): string | undefined {
  if (format === 'email' && !EMAIL.test(value)) return 'an email address';
  if (format === 'uri' && !URL.canParse(value)) return 'a URI';
  if (format === 'date' && !(DATE.test(value) && !Number.isNaN(Date.parse(value)))) {
    return 'a date (YYYY-MM-DD)';
  }
  if (format === 'date-time' && !(DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)))) {
    return 'a date-time (RFC 3339)';
  }
  return undefined;
}

function textProblem(field: TextField, value: unknown): string | undefined {
  if (typeof value !== 'string') return 'text';
  const length = [...value].length;
  if (field.minLength !== undefined && length < field.minLength) {
    return `text of at least ${field.minLength} characters`;
  }
  if (field.maxLength !== undefined && length > field.maxLength) {
    return `text of at most ${field.maxLength} characters`;
  }
  return formatProblem(field.format, value);
}

function numberProblem(field: NumberField, value: unknown): string | undefined {
  const what = field.kind === 'integer' ? 'a whole number' : 'a number';
  if (typeof value !== 'number' || !Number.isFinite(value)) return what;
  if (field.kind === 'integer' && !Number.isInteger(value)) return what;
  if (field.minimum !== undefined && value < field.minimum) return `${what} >= ${field.minimum}`;
  if (field.maximum !== undefined && value > field.maximum) return `${what} <= ${field.maximum}`;
  return undefined;
}

function choicesProblem(field: MultiChoiceField, value: unknown): string | undefined {
  const values = new Set(field.options.map((o) => o.value));
  const list = field.options.map((o) => JSON.stringify(o.value)).join(', ');
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && values.has(v))) {
    return `a list of: ${list}`;
  }
  if (new Set(value).size !== value.length) return 'a list without repeats';
  if (field.minItems !== undefined && value.length < field.minItems) {
    return `at least ${field.minItems} of: ${list}`;
  }
  if (field.maxItems !== undefined && value.length > field.maxItems) {
    return `at most ${field.maxItems} of: ${list}`;
  }
  return undefined;
}

/**
 * What `value` should have been for `field`, in words, or `undefined` when it fits (type, bounds,
 * format, options).
 *
 * @example
 * ```ts
 * fieldProblem({ name: 'age', required: true, kind: 'integer', minimum: 0 }, -1); // 'a whole number >= 0'
 * fieldProblem({ name: 'age', required: true, kind: 'integer' }, 41); // undefined
 * ```
 */
export function fieldProblem(field: FormField, value: unknown): string | undefined {
  switch (field.kind) {
    case 'text':
      return textProblem(field, value);
    case 'number':
    case 'integer':
      return numberProblem(field, value);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'true or false';
    case 'choice':
      return typeof value === 'string' && field.options.some((o) => o.value === value)
        ? undefined
        : `one of: ${field.options.map((o) => JSON.stringify(o.value)).join(', ')}`;
    case 'choices':
      return choicesProblem(field, value);
  }
}

/**
 * The content an accepted form answer sends: `content` with each left-out field's default filled
 * in, checked against the fields (no unknown names, required ones present, each value fitting
 * its field). A mismatch throws INVALID_INPUT whose details name each field's pointer
 * (`/content/age`) and what was expected.
 *
 * @example
 * ```ts
 * const fields = formFields({ type: 'object', properties: { name: { type: 'string', default: 'Ada' } } });
 * formContent(fields, {}); // { name: 'Ada' }
 * formContent(fields, { name: 3 }); // throws INVALID_INPUT at /content/name: expected text
 * ```
 */
export function formContent(
  fields: readonly FormField[],
  content: Readonly<Record<string, unknown>> = {},
): Record<string, FormValue> {
  const out: Record<string, FormValue> = {};
  const details: ViolationDetail[] = [];
  const known = new Set(fields.map((f) => f.name));
  if (!isJsonObject(content)) {
    details.push({ path: '/content', message: 'expected an object of field values' });
    content = {};
  }
  for (const name of Object.keys(content)) {
    if (!known.has(name)) {
      details.push({ path: appendPointer('/content', name), message: 'no such field' });
    }
  }
  for (const field of fields) {
    const given = ownValue(content, field.name);
    const value = given === undefined ? field.default : given;
    const path = appendPointer('/content', field.name);
    if (value === undefined) {
      if (field.required) details.push({ path, message: 'a value (the field is required)' });
      continue;
    }
    const problem = fieldProblem(field, value);
    if (problem === undefined) setOwn(out, field.name, value as FormValue);
    else details.push({ path, message: `expected ${problem}` });
  }
  const first = details[0];
  if (first !== undefined) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `the answer does not fit the requested schema: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`,
      { path: first.path, details },
    );
  }
  return out;
}

/** A GeminiMcpError as the JSON-RPC error the server receives. */
function toServer(rpcCode: number, code: GeminiMcpErrorCode, message: string, path?: string) {
  return new McpError(rpcCode, message, { code, ...(path === undefined ? {} : { path }) });
}

/**
 * Checks elicitation options up front: `onElicitation` a function, `maxRequestBytes` and
 * `requestsPerMinute` whole numbers >= 1. Otherwise INVALID_INPUT naming the option (`option` is its name for the caller).
 *
 * @example
 * ```ts
 * checkElicitationOptions({ onElicitation: async () => ({ action: 'decline' }) }); // fine
 * ```
 */
export function checkElicitationOptions(options: ElicitationOptions, option = 'elicitation'): void {
  if (typeof options?.onElicitation !== 'function') {
    throw new GeminiMcpError('INVALID_INPUT', `option ${option}.onElicitation must be a function`, {
      data: { option: `${option}.onElicitation` },
    });
  }
  checkCount(`${option}.maxRequestBytes`, options.maxRequestBytes);
  checkCount(`${option}.requestsPerMinute`, options.requestsPerMinute);
}

/**
 * The elicitation feature: declares `elicitation: {form: {}}` (and `url: {}` when enabled) and
 * answers `elicitation/create` through `onElicitation`. Each client it is installed on counts
 * its server's requests: past `requestsPerMinute` they are refused (-32010). A request over
 * `maxRequestBytes` is refused (InvalidParams, `SCHEMA_TOO_LARGE`), and so is a URL-mode link
 * that is neither `https:` nor `http:` to a loopback host (InvalidParams, `INVALID_INPUT`, with
 * its `scheme`); an accepted form answer gets its defaults and is checked (a mismatch is not
 * sent: the server gets an error naming the field); a declined or cancelled answer carries no
 * content.
 *
 * @example
 * ```ts
 * equipClient(client, 'docs', [
 *   elicitationFeature({ onElicitation: async () => ({ action: 'accept' }) }), // defaults only
 * ]);
 * ```
 */
export function elicitationFeature(options: ElicitationOptions): ClientFeature {
  const maxBytes = options.maxRequestBytes ?? DEFAULT_MAX_ELICITATION_BYTES;
  const perMinute = options.requestsPerMinute ?? DEFAULT_ELICITATIONS_PER_MINUTE;
  return {
    capabilities: { elicitation: options.url === true ? { form: {}, url: {} } : { form: {} } },
    install: (registry) => {
      const take = rateWindow(perMinute);
      registry.handle(ElicitRequestSchema, async (request, context) => {
        if (!take()) {
          throw new McpError(
            OVER_LIMIT,
            `elicitation rate limit: at most ${perMinute} request(s) per minute from server "${context.serverId}"`,
            { limit: 'requestsPerMinute' },
          );
        }
        const { params } = request;
        const size = utf8ByteLength(JSON.stringify(params));
        if (size > maxBytes) {
          throw toServer(
            ErrorCode.InvalidParams,
            'SCHEMA_TOO_LARGE',
            `elicitation request of ${size} bytes refused: the client takes at most ${maxBytes}`,
          );
        }
        if (params.mode === 'url') {
          const link = checkOpenableUrl(params.url);
          if (!link.ok) {
            throw new McpError(ErrorCode.InvalidParams, `elicitation URL refused: ${link.reason}`, {
              code: 'INVALID_INPUT',
              scheme: link.scheme,
            });
          }
          const query = {
            mode: 'url' as const,
            message: params.message,
            url: params.url,
            elicitationId: params.elicitationId,
          };
          const { action } = await options.onElicitation(query, context);
          return { action };
        }
        const requestedSchema = params.requestedSchema as Record<string, unknown>;
        const fields = formFields(requestedSchema);
        const answer = await options.onElicitation(
          { mode: 'form', message: params.message, fields, requestedSchema },
          context,
        );
        if (answer.action !== 'accept') return { action: answer.action };
        try {
          return { action: 'accept', content: formContent(fields, answer.content) };
        } catch (error) {
          if (!(error instanceof GeminiMcpError)) throw error;
          throw toServer(ErrorCode.InternalError, error.code, error.message, error.path);
        }
      });
    },
  };
}
