/** Standalone ajv validators (draft 2020-12, ESM), compiled here, never at import time. */
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import type { LoadedSchema } from './schema-tree.js';

/** The export name of a schema's validate function. */
export const validatorName = (typeName: string): string => `validate${typeName}`;

/** Compiles every schema and returns the ESM module's source. */
export function generateValidators(schemas: readonly LoadedSchema[]): string {
  const ajv = new Ajv2020.default({
    schemas: schemas.map((s) => s.schema),
    allErrors: true,
    verbose: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    inlineRefs: false,
    validateFormats: false,
    code: { source: true, esm: true },
  });
  const exports: Record<string, string> = {};
  for (const s of schemas) exports[validatorName(s.typeName)] = s.schema.$id as string;
  return withoutParentSchemas(linearErrors(standaloneCode.default(ajv, exports)));
}

/**
 * `verbose` gives each error its `schema` (the guards read it to name a oneOf's fields) and its
 * `parentSchema`, which nothing reads: dropping the latter keeps validators.js about 100 KB
 * smaller (one reference per error site).
 */
function withoutParentSchemas(source: string): string {
  const stripped = source.replace(
    /,parentSchema:schema\d+(?:\.[\w$]+|\["[^"\]]*"\]|\[\d+\])*(?=[,}])/g,
    '',
  );
  if (stripped.includes('parentSchema:')) {
    throw new Error('generate-validators: an ajv parentSchema form this script does not know');
  }
  return stripped;
}

/**
 * ajv gathers a referenced validator's errors with `vErrors.concat(...)`, copying every error
 * so far on each failing item: an invalid array of n items costs O(n²) (8,000 empty content
 * blocks took 18 s). Appending in place keeps collecting linear.
 */
function linearErrors(source: string): string {
  const gathered =
    /vErrors = vErrors === null \? ([\w.]+)\.errors : vErrors\.concat\(\1\.errors\);/g;
  const rewritten = source.replace(
    gathered,
    (_, callee: string) =>
      `if (vErrors === null) {vErrors = ${callee}.errors;} else {for (const e of ${callee}.errors) vErrors.push(e);}`,
  );
  if (rewritten.includes('vErrors.concat(')) {
    throw new Error('generate-validators: an ajv error-gathering form this script does not know');
  }
  return rewritten;
}
