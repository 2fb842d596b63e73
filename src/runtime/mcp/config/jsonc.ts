/**
 * Configuration files as editors write them: JSON with comments and trailing commas (JSONC), as
 * VS Code reads `.vscode/mcp.json` and gemini-cli its `settings.json`, read with Microsoft's
 * jsonc-parser (the parser VS Code uses). Its parser recurses, so nesting is checked first with
 * its scanner, in linear time; every error names its line and column, and the JSON pointer of
 * the value it lies in where there is one.
 */
import {
  createScanner,
  findNodeAtOffset,
  getNodePath,
  type Node,
  type ParseError,
  type ParseOptions,
  parseTree,
  printParseErrorCode,
  visit,
} from 'jsonc-parser';
import { GeminiMcpError } from '../../../errors.js';
import { MAX_JSON_DEPTH } from '../../../json/copy.js';
import { tooFewBracketsToNest } from '../../../json/depth.js';
import { setOwn } from '../../../json/object.js';
import { appendPointer, decodePointer } from '../../../json/pointer.js';
import { clip } from './quote.js';

/**
 * Deepest nesting of a configuration file (the root is level 0): gemini-mcp-kit's bound on JSON
 * data, far beyond any configuration, well within what the parser's recursion can take.
 */
const MAX_CONFIG_DEPTH = MAX_JSON_DEPTH;

const OPTIONS: ParseOptions = {
  disallowComments: false,
  allowTrailingComma: true,
  allowEmptyContent: false,
};

/** A place in a text: line and column, both from 1, columns in UTF-16 units as editors count. */
export interface TextPlace {
  readonly line: number;
  readonly column: number;
}

/** The names of jsonc-parser's syntax errors (`printParseErrorCode`'s). */
type SyntaxErrorName = Exclude<ReturnType<typeof printParseErrorCode>, '<unknown ParseErrorCode>'>;

/** What each syntax error means, in words. */
const SYNTAX_ERRORS: Readonly<Record<SyntaxErrorName, string>> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'property name expected',
  ValueExpected: 'value expected',
  ColonExpected: 'colon expected',
  CommaExpected: 'comma expected',
  CloseBraceExpected: '"}" expected',
  CloseBracketExpected: '"]" expected',
  EndOfFileExpected: 'end of file expected (one value per file)',
  InvalidCommentToken: 'invalid comment',
  UnexpectedEndOfComment: 'comment not closed',
  UnexpectedEndOfString: 'string not closed',
  UnexpectedEndOfNumber: 'number not finished',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'control character in a string',
};

/**
 * The line and column of `offset` in `text` (line breaks: `\n`, `\r\n`, `\r`, as the scanner
 * counts them).
 *
 * @example
 * ```ts
 * placeAt('{\n  "a": 1\n}', 4); // { line: 2, column: 3 }
 * ```
 */
function placeAt(text: string, offset: number): TextPlace {
  let line = 1;
  let lineStart = 0;
  for (let at = 0; at < offset; at++) {
    const c = text.charCodeAt(at);
    if (c === 10 || (c === 13 && text.charCodeAt(at + 1) !== 10)) {
      line += 1;
      lineStart = at + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function refuse(
  file: string,
  place: TextPlace,
  pointer: string | undefined,
  message: string,
  data: Record<string, unknown> = {},
): never {
  const where = pointer === undefined ? '' : `${clip(pointer) || '(root)'}: `;
  throw new GeminiMcpError(
    'CONFIG_INVALID',
    `${file}:${place.line}:${place.column}: ${where}${message}`,
    {
      ...(pointer === undefined ? {} : { path: pointer }),
      data: { file, line: place.line, column: place.column, ...data },
    },
  );
}

/** The brackets, by character code: `{` and `[` open, `}` and `]` close the one they pair. */
const OPENS = new Map([
  [0x7b, 0x7d],
  [0x5b, 0x5d],
]);

/**
 * Refuses `text` when an array or object in it nests deeper than {@link MAX_CONFIG_DEPTH},
 * naming the line and column of the first bracket too deep. Counts the brackets the scanner
 * finds (none in strings or comments: a bracket token is that one character), one pass, no
 * recursion; a close bracket counts only when it closes the innermost open one, so no
 * mismatched text lets the parser nest deeper than this count.
 */
function checkNesting(text: string, file: string): void {
  if (tooFewBracketsToNest(text, MAX_CONFIG_DEPTH)) return;
  const scanner = createScanner(text, true);
  const closers: number[] = [];
  for (scanner.scan(); scanner.getTokenOffset() < text.length; scanner.scan()) {
    const offset = scanner.getTokenOffset();
    const c = text.charCodeAt(offset);
    const closer = OPENS.get(c);
    if (closer !== undefined) {
      closers.push(closer);
      if (closers.length > MAX_CONFIG_DEPTH + 1) {
        refuse(
          file,
          placeAt(text, offset),
          undefined,
          `nested deeper than ${MAX_CONFIG_DEPTH} levels`,
          {
            maxDepth: MAX_CONFIG_DEPTH,
          },
        );
      }
    } else if (c === closers.at(-1)) closers.pop();
  }
}

/** The tree of `text` (checked for nesting first: `parseTree` recurses). */
function treeOf(text: string): Node | undefined {
  return parseTree(text, [], OPTIONS);
}

/**
 * The JSON pointer of the value a syntax error at `offset` lies in: the innermost value
 * holding it, or the object holding the property it is in; `undefined` when it lies outside
 * every value.
 */
function pointerAt(text: string, offset: number): string | undefined {
  const root = treeOf(text);
  let node = root === undefined ? undefined : findNodeAtOffset(root, offset);
  while (
    node !== undefined &&
    (node.type === 'property' ||
      (node.parent?.type === 'property' && node.parent.children?.[0] === node))
  ) {
    node = node.parent;
  }
  if (node === undefined) return undefined;
  return getNodePath(node).reduce<string>((pointer, token) => appendPointer(pointer, token), '');
}

/**
 * The value of a configuration file's `text`: JSON, or JSON with `//` and `/* *\/` comments and
 * trailing commas. A leading byte order mark is skipped; a key `__proto__` is an own key, as
 * `JSON.parse` makes it. Throws `CONFIG_INVALID` naming `file`, the line and column of the
 * first syntax error and the pointer of the value it lies in (`data`: `file`, `line`,
 * `column`), or of the first bracket nested deeper than {@link MAX_CONFIG_DEPTH}.
 *
 * @example
 * ```ts
 * parseConfigText('{"servers": {/* none yet *\/},}', '.vscode/mcp.json'); // { servers: {} }
 * parseConfigText('{\n  "servers": {}\n  "inputs": []\n}', 'mcp.json');
 * // throws: 'mcp.json:3:3: (root): comma expected'
 * ```
 */
export function parseConfigText(text: string, file: string): unknown {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  checkNesting(source, file);
  const errors: ParseError[] = [];
  const parents: (unknown[] | Record<string, unknown>)[] = [];
  let root: unknown;
  let key: string | undefined;
  const add = (value: unknown): void => {
    const parent = parents.at(-1);
    if (parent === undefined) root = value;
    else if (Array.isArray(parent)) parent.push(value);
    else if (key !== undefined) setOwn(parent, key, value);
  };
  visit(
    source,
    {
      onObjectBegin: () => {
        const object: Record<string, unknown> = {};
        add(object);
        parents.push(object);
        key = undefined;
      },
      onObjectProperty: (name) => {
        key = name;
      },
      onObjectEnd: () => {
        parents.pop();
      },
      onArrayBegin: () => {
        const array: unknown[] = [];
        add(array);
        parents.push(array);
      },
      onArrayEnd: () => {
        parents.pop();
      },
      onLiteralValue: add,
      onError: (error, offset, length) => {
        errors.push({ error, offset, length });
      },
    },
    OPTIONS,
  );
  const [first] = errors;
  if (first !== undefined) {
    refuse(
      file,
      placeAt(source, first.offset),
      pointerAt(source, first.offset),
      SYNTAX_ERRORS[printParseErrorCode(first.error) as SyntaxErrorName] ?? 'not JSON',
    );
  }
  return root;
}

/**
 * Where the value at `pointer` starts in a configuration file's `text` (parsed without error
 * by {@link parseConfigText}), or `undefined` when the text holds no such value. For the
 * messages of errors found after parsing; the last of duplicate keys counts, as it does in
 * the value.
 *
 * @example
 * ```ts
 * placeOfPointer('{\n  "servers": {"fs": 1}\n}', '/servers/fs'); // { line: 2, column: 21 }
 * ```
 */
export function placeOfPointer(text: string, pointer: string): TextPlace | undefined {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const tokens = decodePointer(pointer);
  let node = tokens === undefined ? undefined : treeOf(source);
  for (const token of tokens ?? []) {
    if (node?.type === 'object') {
      node = node.children?.findLast((p) => p.children?.[0]?.value === token)?.children?.[1];
    } else if (node?.type === 'array' && /^(?:0|[1-9]\d*)$/.test(token)) {
      node = node.children?.[Number(token)];
    } else node = undefined;
  }
  return node === undefined ? undefined : placeAt(source, node.offset);
}
