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
function violations(validate: Validate): ViolationDetail[] {
  const errors = validate.errors ?? [];
  const rules = presenceRules(errors);
  const details: ViolationDetail[] = [];
  for (const e of errors) {
    if (details.length === MAX_VIOLATIONS) break;
    if (!underRule(e, rules)) details.push(toViolation(e));
  }
  return details;
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
