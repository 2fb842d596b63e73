/**
 * The fixed part of the generated guards, `src/generated/guards-common.ts`: turns ajv errors
 * into the project's violations, and loads a family's validators on first use. It is emitted
 * verbatim into the generated file (which imports nothing from src/ but the leaf module
 * errors.ts); each family's guards call its exports.
 */
export const GUARDS_PRELUDE = `
type AjvError = {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
  schema?: unknown;
  data?: unknown;
};
type Validate = ((value: unknown) => boolean) & { errors?: AjvError[] | null };

const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\\//g, '~1');

const presenceNames = (schema: unknown): string[] =>
  Array.isArray(schema)
    ? schema.flatMap((branch: { required?: unknown }) =>
        Array.isArray(branch?.required) ? branch.required.map(String) : [],
      )
    : [];

/**
 * A value in a violation's message: JSON cut to \`max\` characters (a long string is cut before
 * it is encoded), an object or array named by its kind only, so the message stays short and
 * costs nothing however large the value a sender sent.
 */
const briefValue = (value: unknown, max: number): string => {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  const cut = typeof value === 'string' && value.length > max ? value.slice(0, max) : value;
  const text = JSON.stringify(cut) ?? String(cut);
  return text.length > max ? \`\${text.slice(0, max - 3)}...\` : text;
};

/** Allowed values an enum violation lists at most; the rest are counted. */
const MAX_LISTED_VALUES = 10;

/** Longest value found that gets a did-you-mean (one read in full, whatever a sender sent). */
const MAX_HINTED_LENGTH = 200;

/** An enum's wording, made once per allowed-values array (ajv passes the schema's own). */
interface EnumWords {
  expected: string;
  /** Each string value by its lower case, for the did-you-mean. */
  byLowerCase: Map<string, string>;
}

const enumWordsCache = new WeakMap<readonly unknown[], EnumWords>();

function enumWords(allowed: readonly unknown[]): EnumWords {
  const known = enumWordsCache.get(allowed);
  if (known !== undefined) return known;
  const listed = allowed.slice(0, MAX_LISTED_VALUES).map((v) => briefValue(v, 40));
  const more = allowed.length > MAX_LISTED_VALUES ? \` and \${allowed.length - MAX_LISTED_VALUES} more\` : '';
  const byLowerCase = new Map<string, string>();
  for (const v of allowed) if (typeof v === 'string' && !byLowerCase.has(v.toLowerCase())) byLowerCase.set(v.toLowerCase(), v);
  const words = {
    expected: allowed.length === 1 ? \`must be \${listed[0]}\` : \`must be one of \${listed.join(', ')}\${more}\`,
    byLowerCase,
  };
  enumWordsCache.set(allowed, words);
  return words;
}

/**
 * An enum (or const) violation in words: the allowed values (at most ten listed, the rest
 * counted) and the value found, each cut short, with a did-you-mean for a case slip:
 * \`must be one of "AUTO", "ANY", ...; found "auto" (did you mean "AUTO"?)\`. The wording of
 * each allowed-values array is made once.
 */
export function enumMessage(found: unknown, allowed: readonly unknown[]): string {
  const { expected, byLowerCase } = enumWords(allowed);
  const close =
    typeof found === 'string' && found.length <= MAX_HINTED_LENGTH ? byLowerCase.get(found.toLowerCase()) : undefined;
  const hint = close === undefined ? '' : \` (did you mean \${briefValue(close, 40)}?)\`;
  return \`\${expected}; found \${briefValue(found, 80)}\${hint}\`;
}

function toViolation(error: AjvError): ViolationDetail {
  const at = error.instancePath;
  const { missingProperty, additionalProperty, passingSchemas, allowedValues, allowedValue } = error.params;
  switch (error.keyword) {
    case 'enum':
      return { path: at, keyword: 'enum', message: enumMessage(error.data, Array.isArray(allowedValues) ? allowedValues : []) };
    case 'const':
      return { path: at, keyword: 'const', message: enumMessage(error.data, [allowedValue]) };
    case 'required':
      return { path: \`\${at}/\${escapePointer(String(missingProperty))}\`, keyword: 'required', message: \`required field "\${String(missingProperty)}" is missing\` };
    case 'additionalProperties':
      return { path: \`\${at}/\${escapePointer(String(additionalProperty))}\`, keyword: 'additionalProperties', message: \`unknown field "\${String(additionalProperty)}" (not in the schema)\` };
    case 'oneOf': {
      const names = presenceNames(error.schema);
      if (names.length > 0) {
        const found = Array.isArray(passingSchemas) ? passingSchemas.map((i: number) => names[i]).join(', ') : 'none';
        return { path: at, keyword: 'oneOf', message: \`must hold exactly one of \${names.join(', ')} (found: \${found})\` };
      }
      return { path: at, keyword: 'oneOf', message: error.message ?? 'must match exactly one alternative' };
    }
    case 'not': {
      const both = presenceNames([error.schema]);
      const message = both.length > 1 ? \`fields \${both.map((n) => \`"\${n}"\`).join(' and ')} exclude each other\` : (error.message ?? 'is not allowed');
      return { path: at, keyword: 'not', message };
    }
    default:
      return { path: at, keyword: error.keyword, message: error.message ?? 'is invalid' };
  }
}

/** Most violations reported for one value (an invalid array of n items has n times as many). */
const MAX_VIOLATIONS = 100;

/** "Holds exactly one of" rules by instance path: the schema paths they sit at. */
function presenceRules(errors: readonly AjvError[]): Map<string, Set<string>> {
  const rules = new Map<string, Set<string>>();
  for (const e of errors) {
    if (e.keyword !== 'oneOf' || presenceNames(e.schema).length === 0) continue;
    const at = rules.get(e.instancePath) ?? new Set<string>();
    at.add(e.schemaPath);
    rules.set(e.instancePath, at);
  }
  return rules;
}

/** Whether a rule at the error's instance path sits strictly above it in the schema. */
function underRule(error: AjvError, rules: Map<string, Set<string>>): boolean {
  const at = rules.get(error.instancePath);
  if (at === undefined) return false;
  for (let end = error.schemaPath.lastIndexOf('/'); end > 0; end = error.schemaPath.lastIndexOf('/', end - 1)) {
    if (at.has(error.schemaPath.slice(0, end))) return true;
  }
  return false;
}

/**
 * A "holds exactly one of" rule speaks for its branches: their errors are noise. Linear in
 * the errors (each checked against its own schema path's prefixes), at most MAX_VIOLATIONS.
 */
export function violations(validate: Validate): ViolationDetail[] {
  const errors = validate.errors ?? [];
  const rules = presenceRules(errors);
  const details: ViolationDetail[] = [];
  for (const e of errors) {
    if (details.length === MAX_VIOLATIONS) break;
    if (!underRule(e, rules)) details.push(toViolation(e));
  }
  return details;
}

/**
 * A tolerance a read contract used: something newer than the vendored schemas, kept as it came;
 * or, from gathering a stream (\`gatherTurn\`), a piece of a streamed function call that was not
 * assembled into it.
 */
export interface ReadNotice extends Warning {
  /**
   * A field the schema does not define, an enum value it does not list, a Part holding none of
   * the data fields it knows, or a block (an MCP content block) of a type it does not know;
   * \`streamed-call-refused\`: a piece of a streamed call's arguments refused (its path, its
   * value, a bound); \`streamed-call-unclosed\`: a streamed call that the stream ended (or a new
   * call replaced) before its last piece.
   */
  code:
    | 'unknown-field'
    | 'unknown-enum-value'
    | 'unknown-part-kind'
    | 'unknown-block-kind'
    | 'streamed-call-refused'
    | 'streamed-call-unclosed';
  /** The schema read, e.g. \`GenerateContentResponse\`. */
  schema: string;
  /** JSON pointer to the field, value or part. */
  path: string;
  /** The field's value, the enum value, or the part's field names. */
  value: unknown;
  /** E.g. \`finishReason "NEW_REASON" is unknown to revision 20260325\`. */
  message: string;
}

/** What reading a received value found: \`violations\` (it cannot be read), else the \`notices\` of the tolerances used. */
export interface ReadCheck {
  violations: ViolationDetail[];
  notices: ReadNotice[];
}

const lastName = (pointer: string): string => {
  const segments = pointer.split('/').filter((s) => s !== '' && !/^\\d+$/.test(s));
  return (segments.at(-1) ?? '(root)').replace(/~1/g, '/').replace(/~0/g, '~');
};

const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? \`\${text.slice(0, 77)}...\` : text;
};

/**
 * The strict contract's errors on a value its read twin accepts, as notices. The twin differs
 * from the strict schema only by the read rule's tolerances, so each of those errors is one of
 * them; any other error is noise of a union branch the value does not take, and is left out.
 */
function notices(errors: readonly AjvError[], schema: string, knownTo: string): ReadNotice[] {
  const out: ReadNotice[] = [];
  const seen = new Set<string>();
  const add = (notice: ReadNotice): void => {
    const key = \`\${notice.code} \${notice.path}\`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(notice);
  };
  const rules = presenceRules(errors);
  for (const error of errors) {
    if (out.length === MAX_VIOLATIONS) break;
    if (underRule(error, rules)) continue;
    const at = error.instancePath;
    const data = (error as { data?: unknown }).data;
    if (error.keyword === 'additionalProperties') {
      const field = String(error.params.additionalProperty);
      const value = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[field] : undefined;
      add({ code: 'unknown-field', schema, path: \`\${at}/\${escapePointer(field)}\`, value, message: \`field "\${field}" is unknown to \${knownTo}\` });
    } else if (error.keyword === 'enum') {
      add({ code: 'unknown-enum-value', schema, path: at, value: data, message: \`\${lastName(at)} \${shown(data)} is unknown to \${knownTo}\` });
    } else if (error.keyword === 'oneOf' && presenceNames(error.schema).length > 0) {
      const fields = typeof data === 'object' && data !== null ? Object.keys(data) : [];
      add({ code: 'unknown-part-kind', schema, path: at, value: fields, message: \`a part of a kind unknown to \${knownTo}: none of its data fields (\${presenceNames(error.schema).join(', ')}); its fields: \${fields.join(', ') || 'none'}\` });
    } else if (error.keyword === 'anyOf' && Array.isArray(error.schema)) {
      // A union of kinds the value takes none of: every branch refused its \`type\`.
      const kind = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
      const refused = errors.filter((e) => e.keyword === 'const' && e.instancePath === \`\${at}/type\`).length;
      if (typeof kind === 'string' && refused >= error.schema.length) {
        add({ code: 'unknown-block-kind', schema, path: at, value: kind, message: \`a block of a kind unknown to \${knownTo}: type \${shown(kind)}\` });
      }
    }
  }
  return out;
}

/** Strict first (the common case costs one pass); on failure, the read twin decides. */
export function readWith(value: unknown, strict: Validate, twin: Validate, schema: string, knownTo: string): ReadCheck {
  const found = verdict(strict, value);
  if (typeof found === 'object') return { violations: [found], notices: [] };
  if (found) return { violations: [], notices: [] };
  const errors = strict.errors ?? [];
  const read = verdict(twin, value);
  if (typeof read === 'object') return { violations: [read], notices: [] };
  if (!read) return { violations: violations(twin), notices: [] };
  return { violations: [], notices: notices(errors, schema, knownTo) };
}

/**
 * A family's validators module, loaded on the first call and kept: \`require\` of an ES module
 * (Node.js 20.19, 22.12 and later), so a guard stays synchronous and a program that never calls
 * one never loads the module. Where Node.js cannot require an ES module, the call is a
 * GeminiMcpError NOT_AVAILABLE naming the Node.js versions that can.
 */
export function lazyValidators<T>(specifier: string, from: string): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded !== undefined) return loaded;
    try {
      loaded = createRequire(from)(specifier) as T;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ERR_REQUIRE_ESM') throw error;
      throw new GeminiMcpError('NOT_AVAILABLE', \`the validators \${specifier} load with require() of an ES module, which Node.js \${process.version} cannot do: use Node.js 20.19, 22.12 or later\`, { cause: error, data: { module: specifier } });
    }
    return loaded;
  };
}

/** The level (the root is level 0) a violation of nesting too deep names: as deep as the toolkit copies a value. */
const MAX_DEPTH = 512;

/**
 * The violation of a value nesting an array or object deeper than MAX_DEPTH levels, at the
 * pointer of the first one in document order, or undefined when none does. Iterative (a stack of
 * the open containers), so any depth is safe.
 */
function tooDeep(value: unknown): ViolationDetail | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const nodes: Record<string, unknown>[] = [value as Record<string, unknown>];
  const names: (string[] | undefined)[] = [Array.isArray(value) ? undefined : Object.keys(value)];
  const next: number[] = [0];
  while (nodes.length > 0) {
    const top = nodes.length - 1;
    const node = nodes[top] as Record<string, unknown>;
    const keys = names[top];
    const at = next[top] as number;
    if (at >= (keys === undefined ? (node as unknown as unknown[]).length : keys.length)) {
      nodes.pop();
      names.pop();
      next.pop();
      continue;
    }
    next[top] = at + 1;
    const child = keys === undefined ? node[at] : node[keys[at] as string];
    if (typeof child !== 'object' || child === null) continue;
    if (nodes.length > MAX_DEPTH) {
      const path = names
        .map((k, i) => \`/\${k === undefined ? (next[i] as number) - 1 : escapePointer(k[(next[i] as number) - 1] as string)}\`)
        .join('');
      return { path, message: \`nests deeper than \${MAX_DEPTH} levels\`, keyword: 'maxDepth' };
    }
    nodes.push(child as Record<string, unknown>);
    names.push(Array.isArray(child) ? undefined : Object.keys(child));
    next.push(0);
  }
  return undefined;
}

/**
 * The validator's verdict on \`value\`, or, when its recursion (once per level of a recursive
 * schema such as Schema) runs out of stack, the violation naming where \`value\` nests too deep:
 * a declaration nested 1,500 levels deep is one violation, never a RangeError. Costs nothing
 * until the stack runs out (no walk of every value checked).
 */
function verdict(validate: Validate, value: unknown): boolean | ViolationDetail {
  try {
    return validate(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return tooDeep(value) ?? { path: '', message: 'nests too deep to check', keyword: 'maxDepth' };
  }
}

/** Whether \`value\` is valid (false for one too deep to check). */
export function isValid(validate: Validate, value: unknown): boolean {
  return verdict(validate, value) === true;
}

/** Every violation of \`value\`: the validator's, or the one of nesting too deep. */
export function checkWith(validate: Validate, value: unknown): ViolationDetail[] {
  const found = verdict(validate, value);
  if (typeof found === 'object') return [found];
  return found ? [] : violations(validate);
}

/** Throws GeminiMcpError INVALID_PAYLOAD naming the first violation unless \`value\` is valid. */
export function assertWith(schema: string, validate: Validate, value: unknown): void {
  const details = checkWith(validate, value);
  const first = details[0];
  if (first === undefined) return;
  throw new GeminiMcpError('INVALID_PAYLOAD', \`\${schema} at "\${first.path}": \${first.message}\`, {
    path: first.path,
    details,
    data: { schema },
  });
}
`;
