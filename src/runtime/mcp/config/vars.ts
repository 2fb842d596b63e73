/**
 * Variables in configuration strings, expanded by gemini-mcp-kit itself (never by a shell): the
 * ones VS Code and Cursor define (`${env:NAME}`, `${workspaceFolder}`, `${userHome}`, ...) and
 * the environment references of Claude Code (`${NAME}`, `${NAME:-default}`) and gemini-cli
 * (`$NAME`, `${NAME}`). VS Code's `${input:...}` needs a prompt and is refused.
 */
import { homedir } from 'node:os';
import { basename, sep } from 'node:path';
import { GeminiMcpError } from '../../../errors.js';
import { clip } from './quote.js';
import type { ConfigFormat, ConfigWarning } from './types.js';

/** What variables expand to, and where warnings go. */
export interface VariableContext {
  readonly format: ConfigFormat;
  readonly workspaceFolder: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** VS Code's `inputs`, by id: their descriptions make the refusal of `${input:id}` clearer. */
  readonly inputs: ReadonlyMap<string, string>;
  readonly warn: (warning: ConfigWarning) => void;
  /** Where warnings about unset variables go (the first few, then a count). */
  readonly unset: UnsetVariables;
}

/** The unset variables warned about one by one; the rest are counted in one warning. */
const MAX_LISTED_UNSET = 5;

/**
 * The warnings about unset variables of one configuration: the first five each on its own,
 * the rest counted in one warning at the end ({@link UnsetVariables.finish}), so a string of a
 * million `$A` gives six warnings, not a million.
 *
 * @example
 * ```ts
 * const unset = new UnsetVariables(warn);
 * unset.add('TOKEN', '/mcpServers/api/headers/Authorization');
 * unset.finish();
 * ```
 */
export class UnsetVariables {
  #listed = 0;
  #more = 0;
  #firstMore: string | undefined;

  constructor(readonly warn: (warning: ConfigWarning) => void) {}

  /** Variable `name`, read at `path`, is not set (and has no default). */
  add(name: string, path: string): void {
    if (this.#listed < MAX_LISTED_UNSET) {
      this.#listed += 1;
      this.warn({
        code: 'VARIABLE_UNSET',
        message: `environment variable ${clip(name)} is not set; it expands to ""`,
        path,
      });
      return;
    }
    this.#firstMore ??= path;
    this.#more += 1;
  }

  /** Warns about the unset variables not listed, at the first of them, if there are any. */
  finish(): void {
    if (this.#firstMore === undefined) return;
    this.warn({
      code: 'VARIABLE_UNSET',
      path: this.#firstMore,
      message: `${this.#more.toLocaleString('en-US')} more unset variable${this.#more === 1 ? '' : 's'} from here on, each expanded to "" (only the first ${MAX_LISTED_UNSET} are listed)`,
    });
  }
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function refuse(path: string, message: string): never {
  throw new GeminiMcpError('CONFIG_INVALID', `${clip(path)}: ${message}`, { path });
}

/** The names of the environment variables whose values a string took, in order (repeats kept). */
type ReadNames = string[] | undefined;

function envValue(
  name: string,
  fallback: string | undefined,
  path: string,
  ctx: VariableContext,
  read: ReadNames,
) {
  const value = ctx.env[name];
  if (value !== undefined) {
    read?.push(name);
    return value;
  }
  if (fallback !== undefined) return fallback;
  ctx.unset.add(name, path);
  return '';
}

/** The value of `${name}` (the text between the braces). */
function resolveVariable(
  name: string,
  path: string,
  ctx: VariableContext,
  read: ReadNames,
): string {
  switch (name) {
    case 'workspaceFolder':
      return ctx.workspaceFolder;
    case 'workspaceFolderBasename':
      return basename(ctx.workspaceFolder);
    case 'userHome':
      return homedir();
    case 'pathSeparator':
    case '/':
      return sep;
  }
  if (name.startsWith('env:')) return envValue(name.slice(4), undefined, path, ctx, read);
  if (name.startsWith('input:')) {
    const id = name.slice(6);
    const described = ctx.inputs.get(id);
    return refuse(
      path,
      `\${input:${clip(id)}} needs a prompt (VS Code asks${described === undefined ? ' for it' : ` "${clip(described)}"`}), which gemini-mcp-kit does not do: put the value in an environment variable and write \${env:NAME}`,
    );
  }
  if (ctx.format !== 'vscode') {
    const dash = name.indexOf(':-');
    const variable = dash === -1 ? name : name.slice(0, dash);
    if (ENV_NAME.test(variable)) {
      return envValue(variable, dash === -1 ? undefined : name.slice(dash + 2), path, ctx, read);
    }
  }
  const hint = ENV_NAME.test(name) ? ` (did you mean \${env:${clip(name)}}?)` : '';
  return refuse(
    path,
    `unsupported variable \${${clip(name)}}${hint}; known: \${env:NAME}, \${workspaceFolder}, \${workspaceFolderBasename}, \${userHome}, \${pathSeparator}`,
  );
}

/** The length of the environment variable name starting at `from` in `text` (0 when none). */
function nameLength(text: string, from: number): number {
  let end = from;
  while (end < text.length && /[A-Za-z0-9_]/.test(text[end]!)) end++;
  return /[A-Za-z_]/.test(text[from] ?? '') ? end - from : 0;
}

/**
 * `text` with its variables expanded, in one left-to-right pass (linear time; what a variable
 * expands to is not expanded again). `path` is the string's JSON pointer, for messages; `read`,
 * when given, receives the name of each environment variable whose value went into the result.
 *
 * @example
 * ```ts
 * expandVariables('${workspaceFolder}/data', '/servers/fs/args/0', ctx); // '/home/me/project/data'
 * ```
 */
export function expandVariables(
  text: string,
  path: string,
  ctx: VariableContext,
  read?: string[],
): string {
  let out = '';
  let at = 0;
  for (let dollar = text.indexOf('$'); dollar !== -1; dollar = text.indexOf('$', at)) {
    out += text.slice(at, dollar);
    if (text[dollar + 1] === '{') {
      const close = text.indexOf('}', dollar + 2);
      if (close === -1) {
        at = dollar;
        break;
      }
      out += resolveVariable(text.slice(dollar + 2, close), path, ctx, read);
      at = close + 1;
      continue;
    }
    const length = ctx.format === 'gemini-cli' ? nameLength(text, dollar + 1) : 0;
    if (length === 0) {
      out += '$';
      at = dollar + 1;
      continue;
    }
    out += envValue(text.slice(dollar + 1, dollar + 1 + length), undefined, path, ctx, read);
    at = dollar + 1 + length;
  }
  return out + text.slice(at);
}
