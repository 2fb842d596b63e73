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
  return standaloneCode.default(ajv, exports);
}
