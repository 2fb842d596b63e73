/**
 * The fixed part of `src/generated/guards.ts`: turns ajv errors into the project's violations.
 * It is emitted verbatim into the generated file (which imports nothing from src/ but the
 * leaf module errors.ts).
 */
export const GUARDS_PRELUDE = `
type AjvError = {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
  schema?: unknown;
};
type Validate = ((value: unknown) => boolean) & { errors?: AjvError[] | null };

const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\\//g, '~1');

const presenceNames = (schema: unknown): string[] =>
  Array.isArray(schema)
    ? schema.flatMap((branch: { required?: unknown }) =>
        Array.isArray(branch?.required) ? branch.required.map(String) : [],
      )
    : [];

function toViolation(error: AjvError): ViolationDetail {
  const at = error.instancePath;
  const { missingProperty, additionalProperty, passingSchemas } = error.params;
  switch (error.keyword) {
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

/** A "holds exactly one of" rule speaks for its branches: their "missing" errors are noise. */
function relevant(errors: readonly AjvError[]): AjvError[] {
  const rules = errors.filter((e) => e.keyword === 'oneOf' && presenceNames(e.schema).length > 0);
  return errors.filter((e) => !rules.some((rule) => e !== rule && e.schemaPath.startsWith(\`\${rule.schemaPath}/\`) && e.instancePath === rule.instancePath));
}

function violations(validate: Validate): ViolationDetail[] {
  return relevant(validate.errors ?? []).map(toViolation);
}

/** A tolerance a read contract used: something newer than the vendored schemas, kept as it came. */
export interface ReadNotice {
  /** A field the schema does not define, an enum value it does not list, or a Part holding none of the data fields it knows. */
  kind: 'unknown-field' | 'unknown-enum-value' | 'unknown-part-kind';
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
    const key = \`\${notice.kind} \${notice.path}\`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(notice);
  };
  for (const error of relevant(errors)) {
    const at = error.instancePath;
    const data = (error as { data?: unknown }).data;
    if (error.keyword === 'additionalProperties') {
      const field = String(error.params.additionalProperty);
      const value = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[field] : undefined;
      add({ kind: 'unknown-field', schema, path: \`\${at}/\${escapePointer(field)}\`, value, message: \`field "\${field}" is unknown to \${knownTo}\` });
    } else if (error.keyword === 'enum') {
      add({ kind: 'unknown-enum-value', schema, path: at, value: data, message: \`\${lastName(at)} \${shown(data)} is unknown to \${knownTo}\` });
    } else if (error.keyword === 'oneOf' && presenceNames(error.schema).length > 0) {
      const fields = typeof data === 'object' && data !== null ? Object.keys(data) : [];
      add({ kind: 'unknown-part-kind', schema, path: at, value: fields, message: \`a part of a kind unknown to \${knownTo}: none of its data fields (\${presenceNames(error.schema).join(', ')}); its fields: \${fields.join(', ') || 'none'}\` });
    }
  }
  return out;
}

/** Strict first (the common case costs one pass); on failure, the read twin decides. */
function readWith(value: unknown, strict: Validate, twin: Validate, schema: string, knownTo: string): ReadCheck {
  if (strict(value)) return { violations: [], notices: [] };
  const errors = strict.errors ?? [];
  if (!twin(value)) return { violations: violations(twin), notices: [] };
  return { violations: [], notices: notices(errors, schema, knownTo) };
}

function fail(schema: string, validate: Validate): never {
  const details = violations(validate);
  const first = details[0] ?? { path: '', message: 'is invalid' };
  throw new GeminiMcpError('INVALID_PAYLOAD', \`\${schema} at "\${first.path}": \${first.message}\`, {
    path: first.path,
    details,
    data: { schema },
  });
}
`;
