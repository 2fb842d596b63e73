/** `src/generated/guards.ts`: typed isX / assertX / checkX for every schema, built with ts-morph. */
import { Project, VariableDeclarationKind } from 'ts-morph';
import { validatorName } from './generate-validators.js';
import { GUARDS_PRELUDE } from './guards-template.js';
import { readTypeName, receivedOnly } from './read-rule.js';
import type { LoadedSchema, SchemaTree } from './schema-tree.js';

/** The name of the function that reads a received shape with its read twin. */
const readerName = (typeName: string): string => `read${typeName}`;

/**
 * Builds the guards module source (without banner): isX / assertX / checkX for every vendored
 * schema, and readX for every one that has a read twin (`twins`, from read-rule.ts).
 */
export function generateGuards(
  schemas: readonly LoadedSchema[],
  twins: readonly LoadedSchema[],
  knownTo: SchemaTree['knownTo'],
): string {
  const twinned = new Set(twins.map((t) => t.typeName));
  const received = receivedOnly(schemas);
  const hasTwin = (typeName: string): boolean => twinned.has(readTypeName(typeName));
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
      namedImports: [...schemas, ...twins]
        .map((s) => validatorName(s.typeName))
        .sort((a, b) => (a < b ? -1 : 1)),
    },
  ]);
  file.addStatements(GUARDS_PRELUDE);
  file.addVariableStatements([
    {
      declarationKind: VariableDeclarationKind.Const,
      declarations: [
        { name: 'KNOWN_TO_GEMINI', initializer: JSON.stringify(knownTo.gemini).replace(/"/g, "'") },
      ],
    },
    {
      declarationKind: VariableDeclarationKind.Const,
      declarations: [
        { name: 'KNOWN_TO_MCP', initializer: JSON.stringify(knownTo.mcp).replace(/"/g, "'") },
      ],
    },
  ]);
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
    if (!hasTwin(typeName)) continue;
    const twin = validatorName(readTypeName(typeName));
    const known = source.startsWith('mcp/') ? 'KNOWN_TO_MCP' : 'KNOWN_TO_GEMINI';
    file.addFunction({
      isExported: true,
      name: readerName(typeName),
      docs: [
        `Reads a received ${typeName} with its read contract (${readTypeName(typeName)}): \`violations\` when even that fails, else a notice for each tolerance used (a field, enum value or part kind the vendored schemas do not know).`,
      ],
      parameters: [{ name: 'value', type: 'unknown' }],
      returnType: 'ReadCheck',
      statements: `return readWith(value, ${validate}, ${twin}, '${typeName}', ${known});`,
    });
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
    docs: [
      'Every schema by name: its file below schemas/, its checker (the write contract) and, for a shape we only receive (nothing we send holds it), its reader (the read contract).',
    ],
    declarations: [
      {
        name: 'SCHEMAS',
        type: 'Readonly<Record<SchemaName, { file: string; check: (value: unknown) => ViolationDetail[]; read?: (value: unknown) => ReadCheck }>>',
        initializer: `{\n${schemas.map((s) => `  ${s.typeName}: { file: '${s.file}', check: check${s.typeName}${received.has(s.typeName) ? `, read: ${readerName(s.typeName)}` : ''} },`).join('\n')}\n}`,
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
