/**
 * RFC 6570 URI templates, as MCP resource templates use them (`demo://items/{id}`,
 * `file:///{+path}`, `search{?q,limit}`): expanded with arguments, and matched against a URI
 * (to find the server whose template a URI came from). Bounded: a template is at most
 * {@link MAX_TEMPLATE_LENGTH} characters, and matching runs in one pass, without backtracking.
 */
import { GeminiMcpError } from '../../errors.js';

/** The longest URI template read, in characters. */
const MAX_TEMPLATE_LENGTH = 2048;

/** An argument of a template: a string, or a list of strings (expanded as a list). */
export type UriTemplateValue = string | readonly string[];

/** How one RFC 6570 operator expands (section 3.2.1, appendix A). */
interface Operator {
  readonly first: string;
  readonly separator: string;
  readonly named: boolean;
  readonly ifEmpty: string;
  readonly reserved: boolean;
}

const OPERATORS: Readonly<Record<string, Operator>> = {
  '': { first: '', separator: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', separator: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', separator: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', separator: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', separator: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', separator: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', separator: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', separator: '&', named: true, ifEmpty: '=', reserved: false },
};

/** One variable of an expression: its name, a prefix length (`{id:3}`), or explode (`{list*}`). */
interface VariableSpec {
  readonly name: string;
  readonly prefix?: number;
  readonly explode: boolean;
}

/** A template, split: literal text and expressions, in order. */
type Piece =
  | { readonly kind: 'literal'; readonly text: string }
  | {
      readonly kind: 'expression';
      readonly operator: Operator;
      readonly variables: VariableSpec[];
    };

const VARIABLE = /^([A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

function invalid(template: string, why: string): GeminiMcpError {
  return new GeminiMcpError(
    'INVALID_INPUT',
    `URI template ${JSON.stringify(template.slice(0, 200))}: ${why}`,
    {
      data: { expected: 'an RFC 6570 URI template' },
    },
  );
}

function parseVariable(template: string, spec: string): VariableSpec {
  const explode = spec.endsWith('*');
  const [name = '', prefix] = (explode ? spec.slice(0, -1) : spec).split(':');
  if (!VARIABLE.test(name)) throw invalid(template, `bad variable name ${JSON.stringify(name)}`);
  if (prefix === undefined) return { name, explode };
  const length = Number(prefix);
  if (!/^[1-9][0-9]{0,3}$/.test(prefix) || length > 9999) {
    throw invalid(template, `bad prefix length ${JSON.stringify(prefix)}`);
  }
  return { name, prefix: length, explode };
}

/** Splits a template into literals and expressions; INVALID_INPUT for a malformed one. */
function parseTemplate(template: string): Piece[] {
  if (template.length > MAX_TEMPLATE_LENGTH) {
    throw invalid(template, `longer than ${MAX_TEMPLATE_LENGTH} characters`);
  }
  const pieces: Piece[] = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{', at);
    const close = template.indexOf('}', at);
    if (close !== -1 && (open === -1 || close < open)) throw invalid(template, 'a "}" without "{"');
    if (open === -1) {
      pieces.push({ kind: 'literal', text: template.slice(at) });
      break;
    }
    if (open > at) pieces.push({ kind: 'literal', text: template.slice(at, open) });
    if (close === -1) throw invalid(template, 'a "{" without "}"');
    const body = template.slice(open + 1, close);
    const operatorChar = Object.hasOwn(OPERATORS, body.charAt(0)) ? body.charAt(0) : '';
    const operator = OPERATORS[operatorChar]!;
    const list = body.slice(operatorChar.length);
    if (list === '') throw invalid(template, 'an empty expression');
    pieces.push({
      kind: 'expression',
      operator,
      variables: list.split(',').map((spec) => parseVariable(template, spec)),
    });
    at = close + 1;
  }
  return pieces;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

/** Percent-encodes `text` but for the unreserved characters (and, `reserved`, the reserved ones and existing escapes). */
function encode(text: string, reserved: boolean): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (UNRESERVED.test(char) || (reserved && RESERVED.test(char))) out += char;
    else if (reserved && char === '%' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3)))
      out += char;
    else {
      const point = text.codePointAt(i)!;
      const whole = String.fromCodePoint(point);
      if (whole.length === 2) i++;
      out += encodeURIComponent(whole);
    }
  }
  return out;
}

function expandExpression(
  piece: Extract<Piece, { kind: 'expression' }>,
  args: Readonly<Record<string, UriTemplateValue | undefined>>,
): string {
  const { operator } = piece;
  const parts: string[] = [];
  for (const variable of piece.variables) {
    const value = Object.hasOwn(args, variable.name) ? args[variable.name] : undefined;
    if (value === undefined) continue;
    const named = (text: string): string =>
      operator.named ? `${variable.name}${text === '' ? operator.ifEmpty : `=${text}`}` : text;
    if (typeof value === 'string') {
      const cut =
        variable.prefix === undefined ? value : [...value].slice(0, variable.prefix).join('');
      parts.push(named(encode(cut, operator.reserved)));
      continue;
    }
    if (value.length === 0) continue;
    const items = value.map((item) => encode(item, operator.reserved));
    if (!variable.explode) parts.push(named(items.join(',')));
    else if (operator.named) {
      for (const item of items)
        parts.push(`${variable.name}${item === '' ? operator.ifEmpty : `=${item}`}`);
    } else parts.push(items.join(operator.separator));
  }
  return parts.length === 0 ? '' : operator.first + parts.join(operator.separator);
}

/**
 * Expands an RFC 6570 URI template (levels 1 to 4: every operator, prefixes, lists and explode)
 * with `args`; a variable without a value is left out, as the RFC says. INVALID_INPUT for a
 * malformed template or one longer than 2048 characters.
 *
 * @example
 * ```ts
 * expandUriTemplate('demo://resource/dynamic/text/{resourceId}', { resourceId: '3' });
 * // 'demo://resource/dynamic/text/3'
 * expandUriTemplate('search{?q,limit}', { q: 'gemini mcp' }); // 'search?q=gemini%20mcp'
 * ```
 */
export function expandUriTemplate(
  uriTemplate: string,
  args: Readonly<Record<string, UriTemplateValue | undefined>>,
): string {
  return parseTemplate(uriTemplate)
    .map((piece) => (piece.kind === 'literal' ? piece.text : expandExpression(piece, args)))
    .join('');
}

/** The variable names of a template, in order of first use (INVALID_INPUT for a malformed one). */
export function uriTemplateVariables(uriTemplate: string): string[] {
  const names = parseTemplate(uriTemplate).flatMap((piece) =>
    piece.kind === 'expression' ? piece.variables.map((variable) => variable.name) : [],
  );
  return [...new Set(names)];
}

/** The characters an expanded value of `operator` never holds unencoded (its own delimiters). */
function stops(operator: Operator): string {
  return operator.reserved ? '' : '/?#';
}

/**
 * Whether `uri` is an expansion of `uriTemplate`: literals matched exactly, each expression
 * taking the text up to the next literal (leftmost), in one pass without backtracking. A
 * malformed template matches nothing.
 */
export function matchesUriTemplate(uriTemplate: string, uri: string): boolean {
  let pieces: Piece[];
  try {
    pieces = parseTemplate(uriTemplate);
  } catch {
    return false;
  }
  let at = 0;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (piece.kind === 'literal') {
      if (!uri.startsWith(piece.text, at)) return false;
      at += piece.text.length;
      continue;
    }
    const next = pieces[i + 1];
    const end = next?.kind === 'literal' ? uri.indexOf(next.text, at) : uri.length;
    if (end === -1) return false;
    const value = uri.slice(at, end);
    const forbidden = stops(piece.operator);
    const first = piece.operator.first;
    const body = first !== '' && value.startsWith(first) ? value.slice(first.length) : value;
    if ([...body].some((char) => forbidden.includes(char) && char !== piece.operator.separator)) {
      return false;
    }
    at = end;
  }
  return at === uri.length;
}
