/**
 * A request the API refused (HTTP 400), traced to the declarations it names: by index
 * (`tools[0].function_declarations[44].parameters...`), by name (`FunctionDeclaration 'x' in the
 * request ...`, Vertex AI's "`x` functionDeclaration ..."), or not at all ("too many states",
 * the nesting depth without a name, the generic "Request contains an invalid argument."), which
 * the conversation then traces by bisection. The error texts read here are the API's own, as the
 * public trackers report them (test/fixtures/refusals.json, each parsed to its declaration).
 */

import type { ApiLimitId } from '../../generated/limits.js';
import { isJsonObject } from '../../json/object.js';
import { appendPointer } from '../../json/pointer.js';
import type { ToolSet } from '../tools/toolset-types.js';

/** A declaration a refusal names. */
export interface RefusedDeclaration {
  /** Index of the Tool in the request's `tools`. */
  readonly tool: number;
  /** Index of the declaration in that Tool's `functionDeclarations`. */
  readonly index: number;
  /** JSON pointer into the request: the declaration, or the place in it the API names. */
  readonly path: string;
  /** The name it is declared under, when the request has it (or the API names it). */
  readonly name?: string;
  /** With a tool set: the server of its tool. */
  readonly serverId?: string;
  /** With a tool set: its tool, as the server names it. */
  readonly toolName?: string;
  /** What the API says of it (the first few lines that name it). */
  readonly reasons: readonly string[];
}

/**
 * What a refusal is about:
 * - `declarations`: it names declarations (by index or by name);
 * - `declaration-count`: too many declarations (`limit`: how many the API takes);
 * - `unlocated`: a schema refusal that names no declaration (too many states, the nesting depth,
 *   the generic "invalid argument"): bisection over the declarations can find it;
 * - `other`: a 400 about something else (the contents, a response schema, ...).
 */
export type RefusalKind = 'declarations' | 'declaration-count' | 'unlocated' | 'other';

/** A refused request, traced. */
export interface Refusal {
  readonly kind: RefusalKind;
  /** The HTTP status (400), when the error carries it. */
  readonly status?: number;
  /** The API's message (from the error body when there is one), cut to 2,000 characters. */
  readonly message: string;
  /** The declarations it names (kind `declarations`), each once, in request order. */
  readonly declarations: readonly RefusedDeclaration[];
  /** Kind `declaration-count`: the number of declarations the API says it takes. */
  readonly limit?: number;
  /** The limit of schemas/limits.json the refusal looks like, when it looks like one. */
  readonly rule?: ApiLimitId;
}

/** The request a refusal answered: what it declared. */
export interface RefusedRequest {
  readonly tools?: readonly unknown[] | undefined;
}

/** Texts read from an error, at most: an error body is small; this bounds a hostile one. */
const MAX_TEXT = 100_000;
/** JSON parsed out of a message, at most this many times (error bodies nest a body in a message). */
const MAX_UNWRAP = 4;
/** Reasons kept per declaration. */
const MAX_REASONS = 5;

interface ErrorFacts {
  status?: number;
  statusText?: string;
  texts: string[];
}

function parseJson(text: string): unknown {
  const trimmed = text.trim();
  for (const start of [0, trimmed.search(/[[{]/)]) {
    if (start < 0) continue;
    try {
      return JSON.parse(trimmed.slice(start));
    } catch {
      // not JSON from there
    }
  }
  return undefined;
}

/** Reads a body (`{error: {code, message, status, details}}`, a list of them, or a message holding one). */
function readBody(body: unknown, facts: ErrorFacts, depth: number): void {
  if (depth > MAX_UNWRAP) return;
  if (Array.isArray(body)) {
    for (const item of body.slice(0, 5)) readBody(item, facts, depth + 1);
    return;
  }
  if (!isJsonObject(body)) return;
  if (typeof body.error === 'string') {
    facts.texts.push(body.error);
    return;
  }
  const error = isJsonObject(body.error) ? body.error : body;
  if (typeof error.code === 'number') facts.status ??= error.code;
  if (typeof error.status === 'string') facts.statusText ??= error.status;
  if (typeof error.message === 'string') {
    const inner = error.message.includes('{') ? parseJson(error.message) : undefined;
    if (inner !== undefined && (isJsonObject(inner) || Array.isArray(inner))) {
      readBody(inner, facts, depth + 1);
    } else facts.texts.push(error.message);
  }
  for (const detail of Array.isArray(error.details) ? error.details.slice(0, 10) : []) {
    if (!isJsonObject(detail) || !Array.isArray(detail.fieldViolations)) continue;
    for (const violation of detail.fieldViolations.slice(0, 200)) {
      if (!isJsonObject(violation)) continue;
      const text = [violation.field, violation.description]
        .filter((part) => typeof part === 'string')
        .join(': ');
      if (text !== '') facts.texts.push(text);
    }
  }
}

/** The status and texts of a thrown value: @google/genai's ApiError, a body, a message, a string. */
function errorFacts(error: unknown): ErrorFacts {
  const facts: ErrorFacts = { texts: [] };
  const record = isJsonObject(error) ? error : undefined;
  const status = record?.status ?? record?.code;
  if (typeof status === 'number') facts.status = status;
  const message =
    typeof error === 'string'
      ? error
      : error instanceof Error
        ? error.message
        : typeof record?.message === 'string'
          ? record.message
          : undefined;
  if (record !== undefined && (isJsonObject(record.error) || Array.isArray(record.error))) {
    readBody(record, facts, 0);
  }
  if (message !== undefined) {
    const text = message.slice(0, MAX_TEXT);
    const before = facts.texts.length;
    const body = text.includes('{') ? parseJson(text) : undefined;
    if (body !== undefined && (isJsonObject(body) || Array.isArray(body))) {
      readBody(body, facts, 1);
    }
    // A message that is no body, or a body that said nothing readable: the message itself.
    if (facts.texts.length === before) facts.texts.push(text);
  }
  return facts;
}

/** A refusal is a 400 / INVALID_ARGUMENT (or a message that can only be one). */
function isRefusal(facts: ErrorFacts, text: string): boolean {
  if (facts.status !== undefined) return facts.status === 400;
  if (facts.statusText !== undefined) return facts.statusText === 'INVALID_ARGUMENT';
  return /INVALID_ARGUMENT|\b400\b|function_declarations\[|FunctionDeclaration '|functionDeclaration/i.test(
    text,
  );
}

const INDEXED =
  /(?:GenerateContentRequest\.|request\.)?tools\[(\d+)\]\.function_?[dD]eclarations\[(\d+)\]((?:\.[A-Za-z_][\w]*|\[[^\]]{0,200}\])*)/g;
const NAMED = [
  /FunctionDeclaration '([^']{1,200})'\s+in\s+the\s+request/g,
  /`([^`]{1,200})` functionDeclaration/g,
  /Duplicate function declaration found: ([A-Za-z0-9_.:-]{1,200})/g,
];
const COUNT = /At\s+most\s+(\d+)\s+function\s+declarations/i;

/** Proto field names as the JSON the request holds spells them. */
const camel = (name: string): string =>
  name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * `parameters.properties[7].value.type` as a JSON pointer into the declaration: map entries by
 * position or key (`properties[7]`, `properties[url]`, `properties["action"]`) read against the
 * declaration itself; proto's `.value` / `.key` of a map entry dropped; snake_case as camelCase.
 */
function pointerInto(declaration: unknown, rest: string): string {
  let pointer = '';
  let at: unknown = declaration;
  let afterMapEntry = false;
  for (const [, field, bracket] of rest.matchAll(/\.([A-Za-z_]\w*)|\[([^\]]*)\]/g)) {
    if (field !== undefined) {
      if (afterMapEntry && (field === 'value' || field === 'key')) {
        afterMapEntry = false;
        continue;
      }
      afterMapEntry = false;
      const key = camel(field);
      pointer = appendPointer(pointer, key);
      at = isJsonObject(at) ? at[key] : undefined;
      continue;
    }
    const token = (bracket ?? '').replace(/^"(.*)"$/, '$1');
    if (Array.isArray(at)) {
      pointer = appendPointer(pointer, token);
      at = at[Number(token)];
    } else if (isJsonObject(at)) {
      const keys = Object.keys(at);
      const key = /^\d+$/.test(token) && !Object.hasOwn(at, token) ? keys[Number(token)] : token;
      pointer = appendPointer(pointer, key ?? token);
      at = key === undefined ? undefined : at[key];
      afterMapEntry = true;
    } else pointer = appendPointer(pointer, token);
  }
  return pointer;
}

/** The line of `text` around `offset` (a bullet of a multi-line message). */
function lineAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset) + 1;
  const end = text.indexOf('\n', offset);
  return text
    .slice(start, end === -1 ? undefined : end)
    .replace(/^\s*\*\s*/, '')
    .trim();
}

/** What a refusal that names no declaration looks like. */
function unlocatedRule(text: string): ApiLimitId | undefined | false {
  if (/too many states/i.test(text)) return 'request-declaration-bytes';
  if (
    /FunctionDeclaration\s+in\s+the\s+request\s+exceeds\s+the\s+maximum\s+allowed\s+nesting\s+depth/i.test(
      text,
    )
  )
    return 'schema-depth';
  if (
    /Request contains an invalid argument|schema|\$ref|anyOf|any_of|function|parameters/i.test(text)
  ) {
    return undefined;
  }
  return false;
}

/** Messages of 400s about something other than the declarations. */
const NOT_DECLARATIONS =
  /function response parts|thought_signature|contents\.parts|GenerationConfig|generation_config|response_schema|responseSchema|system_instruction/i;

/**
 * Traces an error thrown by a model call to the request's declarations. Returns `undefined` when
 * the error is not a refusal (not HTTP 400 / INVALID_ARGUMENT: a network error, a 429, a 500).
 *
 * Reads @google/genai's `ApiError` (its message is the JSON error body), a body as the REST API
 * sends it (`{error: {code, message, status, details}}`, or a list of them; field violations
 * included), a message holding a body (as clients quote it, a body in a body), or a plain
 * message. A declaration named by index is located in `request.tools` (its path in the API's
 * words turned into a JSON pointer); one named by name is found there by name; with `toolset`,
 * each is mapped to its server and tool.
 *
 * @example
 * ```ts
 * try {
 *   await ai.models.generateContent({ model, contents, config: { tools } });
 * } catch (error) {
 *   const refusal = traceRefusal(error, { tools }, toolset);
 *   // { kind: 'declarations', declarations: [{ index: 44, name: 'create_issue', serverId: 'gitlab', toolName: 'create_issue', path: '/tools/0/functionDeclarations/44/parameters/properties/labels/type', ... }], ... }
 * }
 * ```
 */
export function traceRefusal(
  error: unknown,
  request: RefusedRequest,
  toolset?: ToolSet,
): Refusal | undefined {
  const facts = errorFacts(error);
  const text = facts.texts.join('\n').slice(0, MAX_TEXT);
  if (!isRefusal(facts, text)) return undefined;
  const base = {
    ...(facts.status === undefined ? {} : { status: facts.status }),
    message: text.length > 2000 ? `${text.slice(0, 2000)}...` : text,
  };
  const tools = Array.isArray(request.tools) ? request.tools : [];
  const declarationAt = (tool: number, index: number): Record<string, unknown> | undefined => {
    const holder = tools[tool];
    const list = isJsonObject(holder) ? holder.functionDeclarations : undefined;
    const found = Array.isArray(list) ? list[index] : undefined;
    return isJsonObject(found) ? found : undefined;
  };
  const byKey = new Map<string, RefusedDeclaration & { reasons: string[] }>();
  const add = (tool: number, index: number, path: string, reason: string, name?: string) => {
    const key = `${tool}/${index}`;
    const known = byKey.get(key);
    if (known !== undefined) {
      if (known.reasons.length < MAX_REASONS && !known.reasons.includes(reason))
        known.reasons.push(reason);
      return;
    }
    const declared = declarationAt(tool, index)?.name;
    const declaredName = typeof declared === 'string' ? declared : name;
    const entry = declaredName === undefined ? undefined : toolset?.resolve(declaredName);
    byKey.set(key, {
      tool,
      index,
      path,
      ...(declaredName === undefined ? {} : { name: declaredName }),
      ...(entry === undefined ? {} : { serverId: entry.serverId, toolName: entry.tool.name }),
      reasons: [reason],
    });
  };
  for (const match of text.matchAll(INDEXED)) {
    const tool = Number(match[1]);
    const index = Number(match[2]);
    const path = `/tools/${tool}/functionDeclarations/${index}${pointerInto(declarationAt(tool, index), match[3] ?? '')}`;
    add(tool, index, path, lineAt(text, match.index));
  }
  for (const pattern of NAMED) {
    for (const match of text.matchAll(pattern)) {
      const name = match[1]!;
      tools.forEach((holder, tool) => {
        const list = isJsonObject(holder) ? holder.functionDeclarations : undefined;
        if (!Array.isArray(list)) return;
        list.forEach((declaration, index) => {
          if (isJsonObject(declaration) && declaration.name === name) {
            const path = `/tools/${tool}/functionDeclarations/${index}`;
            add(tool, index, path, lineAt(text, match.index), name);
          }
        });
      });
    }
  }
  const declarations = [...byKey.values()].sort((a, b) => a.tool - b.tool || a.index - b.index);
  const depth = /maximum\s+allowed\s+nesting\s+depth/i.test(text) ? 'schema-depth' : undefined;
  if (declarations.length > 0) {
    return { kind: 'declarations', ...base, declarations, ...(depth ? { rule: depth } : {}) };
  }
  const count = COUNT.exec(text);
  if (count !== null) {
    return {
      kind: 'declaration-count',
      ...base,
      declarations: [],
      limit: Number(count[1]),
      rule: 'declarations-per-request',
    };
  }
  const rule = NOT_DECLARATIONS.test(text) ? false : unlocatedRule(text);
  if (rule === false || tools.length === 0) return { kind: 'other', ...base, declarations: [] };
  return { kind: 'unlocated', ...base, declarations: [], ...(rule === undefined ? {} : { rule }) };
}
