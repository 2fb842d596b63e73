/**
 * The one error class of gemini-mcp-kit, and the shape its warnings share. A leaf module: it imports
 * nothing, so the generated guards in `src/generated/` may throw it (and type their read
 * notices as warnings) without creating an import cycle.
 */

/** Every code a {@link GeminiMcpError} can carry. */
export type GeminiMcpErrorCode =
  /** A payload failed its schema (thrown by the generated `assertX` guards). */
  | 'INVALID_PAYLOAD'
  /** An argument is not what the function takes at all (e.g. not a response, content or parts). */
  | 'INVALID_INPUT'
  /** The adapter produced a value that fails the generated validator: a bug in gemini-mcp-kit. */
  | 'CONTRACT_VIOLATION'
  /** Tool names collide and `prefix: 'never'` forbids renaming them. */
  | 'NAME_COLLISION'
  /** A feature that is not available in this build or configuration. */
  | 'NOT_AVAILABLE'
  /** A JSON Schema uses something the converter cannot express (remote `$ref`, `$ref` to nowhere, ...). */
  | 'SCHEMA_UNSUPPORTED'
  /** A JSON Schema exceeds the converter's depth, size or `$ref` expansion limits. */
  | 'SCHEMA_TOO_LARGE'
  /** An MCP server configuration is malformed or a server cannot be started. */
  | 'CONFIG_INVALID'
  /**
   * An HTTP server refused the request (401 or 403) and no authorization got past it: no
   * provider configured, the user did not approve, or the scope step-up limit was reached. The
   * error names the server and what it asked for (`data.serverId`, `data.status`,
   * `data.resourceMetadata`, `data.scope`, `data.error`).
   */
  | 'UNAUTHORIZED'
  /**
   * A skill (MCP skills extension) or one of its files failed verification against the entry
   * it was listed with: its byte size, its `sha256:` digest, its frontmatter, or it is not listed
   * at all; no further file of it is read. `data.failed` names the check, `data.serverId` and
   * `data.uri` the file.
   */
  | 'SKILL_REFUSED';

/** One schema violation: where it is and what was expected. */
export interface ViolationDetail {
  /** JSON pointer into the payload (`""` for the root). */
  path: string;
  /** What was expected there, in words. */
  message: string;
  /** The schema keyword that failed (ajv's `keyword`), when known. */
  keyword?: string;
}

/**
 * What every warning (and read notice) of gemini-mcp-kit holds: something changed, left out or
 * tolerated on the way, reported instead of thrown. `code` says what it is about; each kind of
 * warning narrows it to its own codes and adds its own facts (`keyword`, `exposedName`, ...).
 */
export interface Warning<Code extends string = string> {
  /** What the warning is about, one of its kind's codes (`TOOL_RENAMED`, `SCHEMA_DROPPED`, ...). */
  readonly code: Code;
  /** The warning in words. */
  readonly message: string;
  /** JSON pointer to the place concerned, as in {@link GeminiMcpError.path}, where one applies. */
  readonly path?: string;
  /** The MCP server concerned, where one is. */
  readonly serverId?: string;
  /** The tool concerned, as its server names it, where one is. */
  readonly toolName?: string;
  /** Code-specific facts. */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** Options of the {@link GeminiMcpError} constructor. */
export interface GeminiMcpErrorOptions {
  /** JSON pointer into the offending payload, where one applies. */
  path?: string;
  /** Every violation found, when the error stands for a failed validation. */
  details?: readonly ViolationDetail[];
  /** Anything else worth keeping (the tool concerned, the schema name, ...). */
  data?: Readonly<Record<string, unknown>>;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * A typed, catchable error: a string `code`, a JSON pointer `path` where one applies, and data.
 *
 * @example
 * ```ts
 * try {
 *   assertFunctionDeclaration(value);
 * } catch (e) {
 *   if (e instanceof GeminiMcpError && e.code === 'INVALID_PAYLOAD') console.error(e.path, e.message);
 * }
 * ```
 */
export class GeminiMcpError extends Error {
  override readonly name = 'GeminiMcpError';
  readonly code: GeminiMcpErrorCode;
  readonly path: string | undefined;
  readonly details: readonly ViolationDetail[];
  readonly data: Readonly<Record<string, unknown>>;

  constructor(code: GeminiMcpErrorCode, message: string, options: GeminiMcpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.path = options.path;
    this.details = options.details ?? [];
    this.data = options.data ?? {};
  }
}
