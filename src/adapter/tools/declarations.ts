/** MCP tools as Gemini function declarations. */

import { GeminiMcpError, type Warning } from '../../errors.js';
import { checkFunctionDeclaration, checkTool } from '../../generated/guards-gemini.js';
import type { FunctionDeclaration, Schema } from '../../generated/types.js';
import { proveContract } from '../../json/contract.js';
import { deepFreeze } from '../../json/copy.js';
import { type SanitizedJson, sanitizeJsonStrings } from '../../json/sanitize.js';
import type {
  GeminiParametersResult,
  GeminiSchemaResult,
  SchemaWarning,
  SchemaWarningCode,
} from '../../schema/to-gemini-schema.js';
import { toDeclaredParameters, toDeclaredSchema } from '../../schema/to-gemini-schema.js';
import { resolveBudget } from '../limits.js';
import type {
  DeclaredFunction,
  FunctionTool,
  JsonFunctionDeclaration,
  SchemaMode,
  UseGeminiMcpKitGenaiForGenaiFunctionDeclaration,
  UseGeminiMcpKitGenaiForGenaiTool,
} from '../shapes.js';
import { MAX_DESCRIPTION_BYTES, sanitizeDescription } from './description.js';
import {
  type BudgetWarning,
  type DeclarationBudgetOptions,
  type DeclarationCandidate,
  declarationCandidates,
  type FitOptions,
  type FittedDeclarations,
  fitDeclarations,
  leftOutWarning,
  selectorOf,
} from './fit.js';
import { type McpServersOption, type McpServerTool, mcpServerTools } from './server-side.js';
import { type UncheckedKeyword, uncheckedKeywords } from './tool-schemas.js';
import { freeOfHiddenText } from './toolset.js';
import type { ToolSet, ToolSetEntry } from './toolset-types.js';

/** What a {@link DeclarationWarning} is about. */
export type DeclarationWarningCode =
  /** Invisible characters were removed from the description, or it was cut to 4096 bytes. */
  | 'DESCRIPTION_SANITIZED'
  /** The openapi conversion refused one of the tool's schemas: the tool is left out. */
  | 'TOOL_OMITTED'
  /** Invisible characters were removed from strings of a declared schema (titles, enum values, ...). */
  | 'SCHEMA_SANITIZED'
  /** A keyword of the tool's schema that argument and output checks cannot run (a pattern outside RE2, a `$ref` outside the document). */
  | 'SCHEMA_UNCHECKED'
  /** The openapi conversion dropped, weakened or rewrote part of a schema (the converter's own code). */
  | SchemaWarningCode;

/** What every {@link DeclarationWarning} names: the tool, as its server names it and as exposed. */
export interface ToolDeclarationWarning<Code extends DeclarationWarningCode> extends Warning<Code> {
  readonly serverId: string;
  readonly toolName: string;
  /** The name the tool is declared under. */
  readonly exposedName: string;
}

/** Something {@link functionDeclarations} changed on the way, reported through `onWarning`. */
export type DeclarationWarning =
  | (ToolDeclarationWarning<'DESCRIPTION_SANITIZED'> & {
      readonly removedCharacters: number;
      readonly truncated: boolean;
    })
  | (ToolDeclarationWarning<SchemaWarningCode> & {
      /** Which of the tool's schemas. */
      readonly schema: 'inputSchema' | 'outputSchema';
      /** The converter's warning (same code); its path is into that schema. */
      readonly warning: SchemaWarning;
    })
  | (ToolDeclarationWarning<'TOOL_OMITTED'> & {
      /** The converter's error (`SCHEMA_UNSUPPORTED` or `SCHEMA_TOO_LARGE`), naming the tool. */
      readonly error: GeminiMcpError;
    })
  | (ToolDeclarationWarning<'SCHEMA_SANITIZED'> & {
      /** Which of the tool's schemas. */
      readonly schema: 'inputSchema' | 'outputSchema';
      /** JSON pointers into the declared schema of the strings changed (the first 20). */
      readonly paths: readonly string[];
      /** How many strings changed. */
      readonly changedStrings: number;
      readonly removedCharacters: number;
      /**
       * JSON pointers of the property names (object keys) holding invisible characters (the
       * first 20): kept, as they name the arguments the server reads, but told.
       */
      readonly hiddenKeyPaths: readonly string[];
    })
  | (ToolDeclarationWarning<'SCHEMA_UNCHECKED'> & {
      /** Which of the tool's schemas. */
      readonly schema: 'inputSchema' | 'outputSchema';
      /** The keyword, its path into that schema and why. */
      readonly unchecked: UncheckedKeyword;
    })
  /** A tool left out of a request's declarations by the budget, or refused by the API (`geminiTools`, `runConversation`). */
  | BudgetWarning;

/**
 * Options of {@link functionDeclarations} and {@link geminiTools}; `M` is the schema mode, which
 * decides the declarations' type.
 */
export interface FunctionDeclarationsOptions<M extends SchemaMode = SchemaMode> {
  /**
   * `'json'` (default): `parametersJsonSchema` is the tool's inputSchema, unchanged.
   * `'openapi'`: `parameters` is the inputSchema converted to Gemini's OpenAPI-subset Schema,
   * for models and SDKs that take only that (no `parameters` at all for a tool without arguments).
   */
  readonly schemaMode?: M;
  /**
   * Declare the tools' outputSchema too: `responseJsonSchema` in json mode, `response` in
   * openapi mode (default `false`).
   */
  readonly responseSchema?: boolean;
  /**
   * In openapi mode, throw the converter's error for a tool whose schema cannot be converted,
   * instead of leaving that tool out with a `TOOL_OMITTED` warning (default `false`).
   */
  readonly strict?: boolean;
  /** Called for each description sanitized, schema conversion loss and tool left out, in tool order. */
  readonly onWarning?: (warning: DeclarationWarning) => void;
  /**
   * What one request's declarations must fit (`geminiTools`, `runConversation`,
   * `mcpCallableTool`; `functionDeclarations` returns every declaration): the limits of the
   * dialect (default `'gemini'`: 512 declarations, 49,152 bytes of declarations, 7 JSON levels;
   * Vertex AI: 128 declarations) with any figure overridden, and the selection hook that chooses
   * what to declare. A tool that does not fit is left out with a warning (`TOOL_OVER_LIMIT`,
   * `TOOL_OVER_BUDGET`). `false`: no budget, every declaration (the request may be refused).
   */
  readonly budget?: DeclarationBudgetOptions | false;
}

type SchemaName = 'inputSchema' | 'outputSchema';

/** A converter's (or sanitizer's) error, naming the tool it concerns; any other error as it is. */
function namedError(entry: ToolSetEntry, schema: SchemaName, error: unknown): unknown {
  if (!(error instanceof GeminiMcpError)) return error;
  return new GeminiMcpError(
    error.code,
    `Tool "${entry.exposedName}" (${schema}): ${error.message}`,
    {
      ...(error.path === undefined ? {} : { path: error.path }),
      details: error.details,
      data: { ...error.data, tool: entry.exposedName, serverId: entry.serverId, schema },
      cause: error,
    },
  );
}

/** The warnings of one converted schema of `entry`: its converter's losses, each under its code. */
function schemaWarnings(
  entry: ToolSetEntry,
  schema: SchemaName,
  losses: readonly SchemaWarning[],
): DeclarationWarning[] {
  return losses.map((warning) => ({
    code: warning.code,
    message: `Tool "${entry.exposedName}": ${schema} at "${warning.path}": ${warning.message}`,
    serverId: entry.serverId,
    toolName: entry.tool.name,
    exposedName: entry.exposedName,
    schema,
    warning,
  }));
}

function describe(entry: ToolSetEntry, options: FunctionDeclarationsOptions): string {
  const description = sanitizeDescription(
    entry.tool.description,
    freeOfHiddenText(entry.tool, 'description'),
  );
  if (description.removedCharacters > 0 || description.truncated) {
    const changes = [
      ...(description.removedCharacters > 0
        ? [`${description.removedCharacters} invisible characters removed`]
        : []),
      ...(description.truncated ? [`cut to ${MAX_DESCRIPTION_BYTES} bytes`] : []),
    ];
    options.onWarning?.({
      code: 'DESCRIPTION_SANITIZED',
      message: `Tool "${entry.exposedName}": description ${changes.join(', ')}`,
      serverId: entry.serverId,
      toolName: entry.tool.name,
      exposedName: entry.exposedName,
      removedCharacters: description.removedCharacters,
      truncated: description.truncated,
    });
  }
  return description.text;
}

/**
 * A declared schema with invisible characters removed from its strings, reported per schema;
 * with `freeze` (a converted schema, which the declarations own and share), deep-frozen in the
 * same walk.
 */
function sanitized<T>(
  entry: ToolSetEntry,
  schema: SchemaName,
  value: T,
  options: FunctionDeclarationsOptions,
  freeze = false,
): T {
  let clean: SanitizedJson<T>;
  try {
    clean = sanitizeJsonStrings(value, { freeze });
  } catch (error) {
    throw namedError(entry, schema, error);
  }
  if (clean.changedStrings > 0 || clean.hiddenKeys > 0) {
    const listed = (pointers: readonly string[], count: number): string =>
      `${pointers.map((p) => `"${p}"`).join(', ')}${count > pointers.length ? ', ...' : ''}`;
    const removed =
      clean.changedStrings === 0
        ? []
        : [
            `${clean.removedCharacters} invisible characters removed from ${clean.changedStrings} strings (${listed(clean.pointers, clean.changedStrings)})`,
          ];
    const keys =
      clean.hiddenKeys === 0
        ? []
        : [
            `${clean.hiddenKeys} property names hold invisible characters, kept as the server names its arguments (${listed(clean.hiddenKeyPointers, clean.hiddenKeys)})`,
          ];
    options.onWarning?.({
      code: 'SCHEMA_SANITIZED',
      message: `Tool "${entry.exposedName}": ${schema}: ${removed.concat(keys).join('; ')}`,
      serverId: entry.serverId,
      toolName: entry.tool.name,
      exposedName: entry.exposedName,
      schema,
      paths: clean.pointers,
      changedStrings: clean.changedStrings,
      removedCharacters: clean.removedCharacters,
      hiddenKeyPaths: clean.hiddenKeyPointers,
    });
    return clean.value;
  }
  return value;
}

/** The keywords of the tool's own schemas that argument and output checks leave out. */
function uncheckedWarnings(entry: ToolSetEntry): DeclarationWarning[] {
  const { inputSchema, outputSchema } = entry.tool;
  const schemas: Array<[SchemaName, object | undefined]> = [
    ['inputSchema', inputSchema],
    ['outputSchema', outputSchema],
  ];
  const out: DeclarationWarning[] = [];
  for (const [schema, value] of schemas) {
    if (typeof value !== 'object' || value === null) continue;
    for (const unchecked of uncheckedKeywords(value)) {
      out.push({
        code: 'SCHEMA_UNCHECKED',
        message: `Tool "${entry.exposedName}": ${schema} at "${unchecked.path}": ${unchecked.keyword} not checked (${unchecked.reason})`,
        serverId: entry.serverId,
        toolName: entry.tool.name,
        exposedName: entry.exposedName,
        schema,
        unchecked,
      });
    }
  }
  return out;
}

/**
 * The tool's own schema: the tool set's frozen copy, shared unless hidden text was removed (not
 * looked for again in a snapshot the tool set found free of it).
 */
function ownSchema(
  entry: ToolSetEntry,
  schema: SchemaName,
  options: FunctionDeclarationsOptions,
): object | undefined {
  const value = entry.tool[schema];
  if (value === undefined || freeOfHiddenText(entry.tool, schema)) return value;
  return sanitized(entry, schema, value, options);
}

/**
 * The conversion of the tool's `schema`, which the declarations own and share: frozen, and
 * sanitized unless that schema is one the tool set found free of hidden text (the conversion's
 * strings are then free of it too: see `freeOfHiddenText`).
 */
function convertedSchema(
  entry: ToolSetEntry,
  schema: SchemaName,
  converted: Schema,
  options: FunctionDeclarationsOptions,
): Schema {
  return freeOfHiddenText(entry.tool, schema)
    ? deepFreeze(converted)
    : sanitized(entry, schema, converted, options, true);
}

/** Sets the tool's own schemas: the tool set's frozen copies, shared unless hidden text was removed. */
function setJsonSchemas(
  declared: FunctionDeclaration,
  entry: ToolSetEntry,
  options: FunctionDeclarationsOptions,
): void {
  declared.parametersJsonSchema = ownSchema(entry, 'inputSchema', options);
  if (options.responseSchema === true && entry.tool.outputSchema !== undefined) {
    declared.responseJsonSchema = ownSchema(entry, 'outputSchema', options);
  }
}

/** Sets the conversions of the tool's schemas (no `parameters` for a tool without arguments). */
function setOpenApiSchemas(
  declared: FunctionDeclaration,
  entry: ToolSetEntry,
  options: FunctionDeclarationsOptions,
  warnings: BuildWarnings,
): void {
  const { inputSchema, outputSchema } = entry.tool;
  let parameters: GeminiParametersResult;
  try {
    parameters = toDeclaredParameters(inputSchema);
  } catch (error) {
    throw namedError(entry, 'inputSchema', error);
  }
  warnings.losses(entry, 'inputSchema', parameters.warnings);
  if (parameters.schema !== undefined) {
    declared.parameters = convertedSchema(entry, 'inputSchema', parameters.schema, options);
  }
  if (options.responseSchema !== true || outputSchema === undefined) return;
  let response: GeminiSchemaResult;
  try {
    response = toDeclaredSchema(outputSchema);
  } catch (error) {
    throw namedError(entry, 'outputSchema', error);
  }
  warnings.losses(entry, 'outputSchema', response.warnings);
  declared.response = convertedSchema(entry, 'outputSchema', response.schema, options);
}

function declaration(
  entry: ToolSetEntry,
  options: FunctionDeclarationsOptions,
  warnings: BuildWarnings,
): FunctionDeclaration {
  const declared: FunctionDeclaration = { name: entry.exposedName, description: '' };
  if (options.schemaMode === 'openapi') setOpenApiSchemas(declared, entry, options, warnings);
  else setJsonSchemas(declared, entry, options);
  warnings.unchecked(entry);
  // Written after the schemas, whose warnings come first; the key keeps its place.
  declared.description = describe(entry, options);
  // The mode decided which schema fields were set: the declaration has the type M names.
  return proveContract(declared, checkFunctionDeclaration, {
    schema: 'FunctionDeclaration',
    tool: entry.exposedName,
  });
}

/**
 * The declaration of `entry`; in openapi mode without `strict`, `undefined` for a tool whose
 * schema the converter refuses, reported as `TOOL_OMITTED`.
 */
function declarationOrOmission(
  entry: ToolSetEntry,
  options: FunctionDeclarationsOptions,
  warnings: BuildWarnings,
): FunctionDeclaration | undefined {
  if (options.schemaMode !== 'openapi' || options.strict === true)
    return declaration(entry, options, warnings);
  try {
    return declaration(entry, options, warnings);
  } catch (error) {
    if (
      !(error instanceof GeminiMcpError) ||
      (error.code !== 'SCHEMA_UNSUPPORTED' && error.code !== 'SCHEMA_TOO_LARGE')
    ) {
      throw error;
    }
    options.onWarning?.({
      code: 'TOOL_OMITTED',
      message: `${error.message}: the tool is left out of the declarations`,
      serverId: entry.serverId,
      toolName: entry.tool.name,
      exposedName: entry.exposedName,
      error,
    });
    return undefined;
  }
}

/** A place in a build's warnings whose warnings are made only once someone listens. */
type PendingWarnings =
  | { readonly uncheckedOf: ToolSetEntry }
  | {
      readonly lossesOf: ToolSetEntry;
      readonly schema: SchemaName;
      readonly losses: readonly SchemaWarning[];
    };

/**
 * The warnings of one build, in tool order. The `SCHEMA_UNCHECKED` ones of a tool (its patterns
 * RE2 cannot run: each pattern compiled to find out) and the converter's losses (a warning object
 * and message per loss, thousands on a large set) are made only once someone listens.
 */
class BuildWarnings {
  readonly #items: (DeclarationWarning | PendingWarnings)[] = [];
  #all: readonly DeclarationWarning[] | undefined;

  /** Records a warning. */
  readonly add = (warning: DeclarationWarning): void => {
    this.#items.push(warning);
  };

  /** Records the place of `entry`'s `SCHEMA_UNCHECKED` warnings. */
  unchecked(entry: ToolSetEntry): void {
    this.#items.push({ uncheckedOf: entry });
  }

  /** Records the place of the loss warnings of `entry`'s converted `schema`, if any. */
  losses(entry: ToolSetEntry, schema: SchemaName, losses: readonly SchemaWarning[]): void {
    if (losses.length > 0) this.#items.push({ lossesOf: entry, schema, losses });
  }

  /** Every warning, the pending ones made on the first call. */
  all(): readonly DeclarationWarning[] {
    if (this.#all === undefined) {
      const all: DeclarationWarning[] = [];
      for (const item of this.#items) {
        if ('uncheckedOf' in item) {
          for (const warning of uncheckedWarnings(item.uncheckedOf)) all.push(warning);
        } else if ('lossesOf' in item) {
          for (const warning of schemaWarnings(item.lossesOf, item.schema, item.losses)) {
            all.push(warning);
          }
        } else all.push(item);
      }
      this.#all = all;
    }
    return this.#all;
  }
}

/** Declarations built and proven once per tool set and options, with the warnings they gave. */
interface Declared {
  readonly declarations: readonly FunctionDeclaration[];
  /** The entry of each declaration (same order). */
  readonly entries: readonly ToolSetEntry[];
  /** The declarations measured, made on first use. */
  candidates?: readonly DeclarationCandidate[];
  readonly warnings: BuildWarnings;
  /** Whether `{functionDeclarations: declarations}` was proven against the Tool schema. */
  toolProven: boolean;
}

/** Per tool set (sets are immutable), per options key. */
const declaredFor = new WeakMap<ToolSet, Map<string, Declared>>();

function declared(toolset: ToolSet, options: FunctionDeclarationsOptions): Declared {
  const key = `${options.schemaMode ?? 'json'}|${options.responseSchema === true}|${options.strict === true}`;
  let byOptions = declaredFor.get(toolset);
  if (byOptions === undefined) {
    byOptions = new Map();
    declaredFor.set(toolset, byOptions);
  }
  let found = byOptions.get(key);
  if (found === undefined) {
    const warnings = new BuildWarnings();
    const collecting = { ...options, onWarning: warnings.add };
    const declarations: FunctionDeclaration[] = [];
    const entries: ToolSetEntry[] = [];
    for (const entry of toolset.entries) {
      const built = declarationOrOmission(entry, collecting, warnings);
      // Its converted schemas are frozen already (as they were sanitized), as are the tool set's
      // own: this freezes the declaration and any sanitized copy of a json-mode schema.
      if (built !== undefined) {
        declarations.push(deepFreeze(built));
        entries.push(entry);
      }
    }
    found = { declarations, entries, warnings, toolProven: false };
    byOptions.set(key, found);
  }
  if (options.onWarning !== undefined) {
    for (const warning of found.warnings.all()) options.onWarning(warning);
  }
  return found;
}

/**
 * One Gemini FunctionDeclaration per tool of the set, in set order, and nothing else. Each
 * has the exposed name, the sanitized description (`""` when the tool has none: invisible
 * characters removed, at most 4096 bytes of UTF-8) and the tool's schemas per `schemaMode`.
 *
 * The declarations are typed by the mode: {@link JsonFunctionDeclaration} (the default) or
 * {@link OpenApiFunctionDeclaration}. Json ones are assignable to @google/genai's
 * `FunctionDeclaration`; openapi ones are not (genai's `Schema.type` is a TypeScript enum), and
 * are typed {@link UseGeminiMcpKitGenaiForGenaiFunctionDeclaration} so that a type error says
 * so: for genai's types, import this function from `gemini-mcp-kit/genai`.
 *
 * Every declaration is proven against the FunctionDeclaration schema (CONTRACT_VIOLATION
 * otherwise). In openapi mode a tool whose schema the converter refuses (SCHEMA_UNSUPPORTED /
 * SCHEMA_TOO_LARGE) is left out with a `TOOL_OMITTED` warning, and the other tools are declared;
 * with `strict: true` that error is thrown instead, naming the tool. Losses go to `onWarning`.
 *
 * A tool set is immutable, so its declarations are built and proven once per set and options,
 * and each call returns fresh declaration objects (their warnings reported again each call).
 * The schemas inside are the tool set's own frozen copies, shared rather than copied again:
 * replace them in a declaration, do not edit them.
 *
 * @example
 * ```ts
 * const { toolset } = buildToolSet(servers);
 * const schemaLosses: DeclarationWarning[] = [];
 * const declarations = functionDeclarations(toolset, {
 *   schemaMode: 'openapi',
 *   onWarning: (warning) => schemaLosses.push(warning),
 * });
 * ```
 */
export function functionDeclarations(
  toolset: ToolSet,
  options?: FunctionDeclarationsOptions<'json'>,
): JsonFunctionDeclaration[];
/**
 * {@link functionDeclarations} in openapi mode, from the main entry: typed with the API's
 * strings, which @google/genai's `FunctionDeclaration` does not take; the type's name says where
 * to go for genai's types: `import { functionDeclarations } from 'gemini-mcp-kit/genai'`.
 */
export function functionDeclarations(
  toolset: ToolSet,
  options: FunctionDeclarationsOptions<'openapi'> & { readonly schemaMode: 'openapi' },
): UseGeminiMcpKitGenaiForGenaiFunctionDeclaration[];
/** {@link functionDeclarations} in a schema mode known only at run time. */
export function functionDeclarations<M extends SchemaMode>(
  toolset: ToolSet,
  options?: FunctionDeclarationsOptions<M>,
): DeclaredFunction<M>[];
export function functionDeclarations<M extends SchemaMode = 'json'>(
  toolset: ToolSet,
  options: FunctionDeclarationsOptions<M> = {},
): DeclaredFunction<M>[] {
  // The mode decided which schema fields each declaration has: the type M names.
  return declared(toolset, options).declarations.map(
    (proven) => ({ ...proven }) as DeclaredFunction<M>,
  );
}

/**
 * The tool set as the `tools` of a Gemini request: `[{functionDeclarations: [...]}]`, or `[]`
 * when the set is empty (the API refuses a Tool without declarations). Options as for
 * {@link functionDeclarations}; the result is proven against the Tool schema (once per tool set
 * and options, as the declarations are). In json mode (the default) it is assignable to
 * @google/genai's `Tool[]` (`config.tools`). In openapi mode it is typed
 * {@link UseGeminiMcpKitGenaiForGenaiTool}`[]`, which genai's `Tool[]` does not take (its
 * `Schema.type` is a TypeScript enum): for genai's types, import this function from
 * `gemini-mcp-kit/genai`. With `mcpServers` (servers Gemini runs itself), one more Tool
 * `{mcpServers}` follows the declarations' (see {@link McpServersOption}).
 *
 * @example
 * ```ts
 * const response = await ai.models.generateContent({
 *   model: 'gemini-2.5-flash',
 *   contents,
 *   config: { tools: geminiTools(toolset) },
 * });
 * ```
 */
export function geminiTools(
  toolset: ToolSet,
  options: FunctionDeclarationsOptions<'json'> & McpServersOption,
): (FunctionTool<'json'> | McpServerTool)[];
/** {@link geminiTools} in openapi mode with servers Gemini runs itself (`mcpServers`). */
export function geminiTools(
  toolset: ToolSet,
  options: FunctionDeclarationsOptions<'openapi'> & {
    readonly schemaMode: 'openapi';
  } & McpServersOption,
): (UseGeminiMcpKitGenaiForGenaiTool | McpServerTool)[];
/** {@link geminiTools} in json mode (the default). */
export function geminiTools(
  toolset: ToolSet,
  options?: FunctionDeclarationsOptions<'json'>,
): FunctionTool<'json'>[];
/**
 * {@link geminiTools} in openapi mode, from the main entry: typed with the API's strings, which
 * @google/genai's `Tool` does not take; the type's name says where to go for genai's types:
 * `import { geminiTools } from 'gemini-mcp-kit/genai'`.
 */
export function geminiTools(
  toolset: ToolSet,
  options: FunctionDeclarationsOptions<'openapi'> & { readonly schemaMode: 'openapi' },
): UseGeminiMcpKitGenaiForGenaiTool[];
/** {@link geminiTools} in a schema mode known only at run time. */
export function geminiTools<M extends SchemaMode>(
  toolset: ToolSet,
  options?: FunctionDeclarationsOptions<M>,
): FunctionTool<M>[];
/** {@link geminiTools} in a schema mode known only at run time, with servers Gemini runs itself. */
export function geminiTools<M extends SchemaMode>(
  toolset: ToolSet,
  options: FunctionDeclarationsOptions<M> & Partial<McpServersOption>,
): (FunctionTool<M> | McpServerTool)[];
export function geminiTools<M extends SchemaMode = 'json'>(
  toolset: ToolSet,
  options: FunctionDeclarationsOptions<M> & Partial<McpServersOption> = {},
): (FunctionTool<M> | McpServerTool)[] {
  const dialect = options.budget === false ? undefined : options.budget?.dialect;
  const servers = mcpServerTools(options.mcpServers, dialect);
  return [...functionTools(toolset, options), ...servers];
}

/** The tool set's declarations as the `tools` of a request (see {@link geminiTools}). */
function functionTools<M extends SchemaMode>(
  toolset: ToolSet,
  options: FunctionDeclarationsOptions<M>,
): FunctionTool<M>[] {
  if (options.budget === false) {
    const found = declared(toolset, options);
    if (found.declarations.length === 0) return [];
    const tool: FunctionTool<M> = {
      functionDeclarations: found.declarations.map(
        (proven) => ({ ...proven }) as DeclaredFunction<M>,
      ),
    };
    if (!found.toolProven) {
      proveContract(tool, checkTool, { schema: 'Tool' });
      found.toolProven = true;
    }
    return [tool];
  }
  const budget = resolveBudget(options.budget);
  const select = options.budget?.select;
  const fitted = fitToolSet(
    toolset,
    options,
    select === undefined || typeof select === 'function'
      ? { budget }
      : {
          budget:
            select.maxTools === undefined || select.maxTools >= budget.maxDeclarations
              ? budget
              : { ...budget, maxDeclarations: select.maxTools },
          reserved: select.reserved(options.schemaMode ?? 'json'),
          select: select.select,
        },
  );
  for (const left of fitted.leftOut) options.onWarning?.(leftOutWarning(left));
  return fittedTools<M>(fitted);
}

/**
 * The tool set's declarations (built and proven once per set and options, their build warnings
 * reported to `options.onWarning`), fitted with `fit` (its budget, reserved declarations, refused
 * tools, selection; `options.budget.select` unless `fit` has its own). The left-out tools are
 * not reported: the caller does, once it has decided (a conversation retries).
 */
export function fitToolSet(
  toolset: ToolSet,
  options: FunctionDeclarationsOptions<SchemaMode>,
  fit: FitOptions,
): FittedDeclarations {
  const found = declared(toolset, options);
  found.candidates ??= declarationCandidates(
    found.declarations.map((declaration, index) => ({
      declaration,
      entry: found.entries[index]!,
    })),
  );
  const select =
    fit.select ?? (options.budget === false ? undefined : selectorOf(options.budget?.select));
  return fitDeclarations(found.candidates, { ...fit, ...(select === undefined ? {} : { select }) });
}

/**
 * Fitted declarations as the `tools` of a request: `[{functionDeclarations}]` (fresh copies,
 * proven against the Tool schema), or `[]` when nothing is declared (the API refuses an empty
 * list).
 */
export function fittedTools<M extends SchemaMode>(fitted: FittedDeclarations): FunctionTool<M>[] {
  if (fitted.declarations.length === 0) return [];
  const tool: FunctionTool<M> = {
    functionDeclarations: fitted.declarations.map(
      (proven) => ({ ...proven }) as DeclaredFunction<M>,
    ),
  };
  proveContract(tool, checkTool, { schema: 'Tool' });
  return [tool];
}
