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
function violations(validate: Validate): ViolationDetail[] {
  const errors = validate.errors ?? [];
  const rules = errors.filter((e) => e.keyword === 'oneOf' && presenceNames(e.schema).length > 0);
  return errors
    .filter((e) => !rules.some((rule) => e !== rule && e.schemaPath.startsWith(\`\${rule.schemaPath}/\`) && e.instancePath === rule.instancePath))
    .map(toViolation);
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
