/** `src/generated/guards.ts`: typed isX / assertX / checkX for every schema, built with ts-morph. */
import { Project, VariableDeclarationKind } from 'ts-morph';
import { validatorName } from './generate-validators.js';
import { GUARDS_PRELUDE } from './guards-template.js';
import type { LoadedSchema } from './schema-tree.js';

/** Builds the guards module source (without banner). */
export function generateGuards(schemas: readonly LoadedSchema[]): string {
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile('guards.ts');
  file.addImportDeclarations([
    {
      moduleSpecifier: '../errors.js',
      namedImports: ['GeminiMcpError', { name: 'ViolationDetail', isTypeOnly: true }],
    },
    {
      moduleSpecifier: './types.js',
      isTypeOnly: true,
      namedImports: schemas.map((s) => s.typeName),
    },
    {
      moduleSpecifier: './validators.js',
      namedImports: schemas.map((s) => validatorName(s.typeName)),
    },
  ]);
  file.addStatements(GUARDS_PRELUDE);
  for (const { typeName, file: source } of schemas) {
    const validate = validatorName(typeName);
    file.addFunctions([
      {
        isExported: true,
        name: `is${typeName}`,
        docs: [`True when \`value\` is a valid ${typeName} (schemas/${source}).`],
        parameters: [{ name: 'value', type: 'unknown' }],
        returnType: `value is ${typeName}`,
        statements: `return ${validate}(value);`,
      },
      {
        isExported: true,
        name: `assert${typeName}`,
        docs: [`Throws GeminiMcpError INVALID_PAYLOAD unless \`value\` is a valid ${typeName}.`],
        parameters: [{ name: 'value', type: 'unknown' }],
        returnType: `asserts value is ${typeName}`,
        statements: `if (!${validate}(value)) fail('${typeName}', ${validate});`,
      },
      {
        isExported: true,
        name: `check${typeName}`,
        docs: [`Every violation of ${typeName} in \`value\` (empty when valid).`],
        parameters: [{ name: 'value', type: 'unknown' }],
        returnType: 'ViolationDetail[]',
        statements: `return ${validate}(value) ? [] : violations(${validate});`,
      },
    ]);
  }
  file.addTypeAlias({
    isExported: true,
    name: 'SchemaName',
    docs: ['The name of every vendored schema.'],
    type: schemas.map((s) => `'${s.typeName}'`).join(' | '),
  });
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: ['Every schema by name: its file below schemas/ and its checker.'],
    declarations: [
      {
        name: 'SCHEMAS',
        type: 'Readonly<Record<SchemaName, { file: string; check: (value: unknown) => ViolationDetail[] }>>',
        initializer: `{\n${schemas.map((s) => `  ${s.typeName}: { file: '${s.file}', check: check${s.typeName} },`).join('\n')}\n}`,
      },
    ],
  });
  file.formatText({ indentSize: 2, convertTabsToSpaces: true });
  return file.getFullText();
}

/** Declarations for the validators module. */
export function generateValidatorTypes(schemas: readonly LoadedSchema[]): string {
  const lines = [
    `import type { ValidateFunction } from 'ajv';`,
    `import type { ${schemas.map((s) => s.typeName).join(', ')} } from './types.js';`,
    '',
    ...schemas.map(
      (s) => `export declare const ${validatorName(s.typeName)}: ValidateFunction<${s.typeName}>;`,
    ),
    '',
  ];
  return lines.join('\n');
}
