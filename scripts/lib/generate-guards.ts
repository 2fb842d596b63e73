/**
 * The generated guards, built with ts-morph: typed isX / assertX / checkX (and readX) for every
 * schema, one module per family (`guards-gemini.ts`, ...) over that family's validators; the
 * helpers they share (`guards-common.ts`); the catalogue of every schema, which loads no
 * validator and imports a family's guards on demand (`catalog.ts`); and `guards.ts`, every guard
 * and the `SCHEMAS` table (what the `schemas` entry exports).
 *
 * A family's guards load its validators (a module of 0.3-0.45 MB each) on the first call of one
 * of them, synchronously (`lazyValidators` in guards-common.ts): importing the library costs no
 * validator, a program that never names a Vertex AI dialect never loads theirs, and every guard
 * stays a plain function.
 */
import { Project, type SourceFile, VariableDeclarationKind } from 'ts-morph';
import {
  byFamily,
  FAMILIES,
  familyModule,
  familyOf,
  validatorName,
} from './generate-validators.js';
import { GUARDS_PRELUDE } from './guards-template.js';
import { readTypeName, receivedOnly } from './read-rule.js';
import type { Family } from './schema-set.js';
import type { LoadedSchema, SchemaTree } from './schema-tree.js';

/** The name of the function that reads a received shape with its read twin. */
const readerName = (typeName: string): string => `read${typeName}`;

/** The guards module of a family, as imported from its siblings. */
const guardsModule = (family: Family): string => `./guards-${familyModule(family)}.js`;

const sorted = (names: readonly string[]): string[] => [...names].sort((a, b) => (a < b ? -1 : 1));

function newFile(name: string): SourceFile {
  return new Project({ useInMemoryFileSystem: true }).createSourceFile(name);
}

function finished(file: SourceFile): string {
  file.formatText({ indentSize: 2, convertTabsToSpaces: true });
  return file.getFullText();
}

/** What the guard modules share, from the vendored schemas and their read twins. */
interface Guarded {
  schemas: readonly LoadedSchema[];
  twinned: ReadonlySet<string>;
  received: ReadonlySet<string>;
}

function guarded(schemas: readonly LoadedSchema[], twins: readonly LoadedSchema[]): Guarded {
  return {
    schemas,
    twinned: new Set(twins.map((t) => t.typeName)),
    received: receivedOnly(schemas),
  };
}

const hasTwin = (g: Guarded, typeName: string): boolean => g.twinned.has(readTypeName(typeName));

/** The guard functions a schema has: isX, assertX, checkX and, with a read twin, readX. */
function guardNames(g: Guarded, typeName: string): string[] {
  const names = [`is${typeName}`, `assert${typeName}`, `check${typeName}`];
  return hasTwin(g, typeName) ? [...names, readerName(typeName)] : names;
}

/** `SCHEMAS`-style entry fields: the checker and, for a received-only shape, the reader. */
function entryGuards(g: Guarded, typeName: string, prefix = ''): string {
  const read = g.received.has(typeName) ? `, read: ${prefix}${readerName(typeName)}` : '';
  return `check: ${prefix}check${typeName}${read}`;
}

/**
 * `src/generated/guards-common.ts` (without banner): the helpers every family's guards use, and
 * the types they share.
 */
function generateGuardsCommon(g: Guarded): string {
  const file = newFile('guards-common.ts');
  file.addImportDeclarations([
    { moduleSpecifier: 'node:module', namedImports: ['createRequire'] },
    {
      moduleSpecifier: '../errors.js',
      namedImports: [
        'GeminiMcpError',
        { name: 'ViolationDetail', isTypeOnly: true },
        { name: 'Warning', isTypeOnly: true },
      ],
    },
  ]);
  file.addStatements(GUARDS_PRELUDE);
  file.addTypeAlias({
    isExported: true,
    name: 'SchemaName',
    docs: ['The name of every vendored schema.'],
    type: g.schemas.map((s) => `'${s.typeName}'`).join(' | '),
  });
  file.addInterface({
    isExported: true,
    name: 'SchemaGuards',
    docs: [
      "A schema's checker (the write contract) and, for a shape we only receive (nothing we send holds it), its reader (the read contract).",
    ],
    properties: [
      { name: 'check', type: '(value: unknown) => ViolationDetail[]' },
      { name: 'read', hasQuestionToken: true, type: '(value: unknown) => ReadCheck' },
    ],
  });
  return finished(file);
}

/**
 * `src/generated/guards-<family>.ts` (without banner): isX / assertX / checkX for every schema
 * of the family, readX for every one that has a read twin, and `GUARDS`, the family's part of
 * the `SCHEMAS` table without the files.
 */
function generateFamilyGuards(
  g: Guarded,
  family: Family,
  members: readonly LoadedSchema[],
  knownTo: string,
): string {
  const schemas = members.filter((s) => !s.file.startsWith('read/'));
  const validatorsModule = `./validators-${familyModule(family)}.js`;
  const file = newFile(`guards-${familyModule(family)}.ts`);
  file.addImportDeclarations([
    {
      moduleSpecifier: '../errors.js',
      isTypeOnly: true,
      namedImports: ['ViolationDetail'],
    },
    {
      moduleSpecifier: './guards-common.js',
      namedImports: [
        'assertWith',
        'checkWith',
        'isValid',
        'lazyValidators',
        { name: 'ReadCheck', isTypeOnly: true },
        'readWith',
        { name: 'SchemaGuards', isTypeOnly: true },
        { name: 'SchemaName', isTypeOnly: true },
      ],
    },
    {
      moduleSpecifier: './types.js',
      isTypeOnly: true,
      namedImports: schemas.map((s) => s.typeName),
    },
    { moduleSpecifier: validatorsModule, isTypeOnly: true, namespaceImport: 'Validators' },
  ]);
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name: 'KNOWN_TO', initializer: `'${knownTo.replace(/'/g, "\\'")}'` }],
  });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    docs: [`The ${family} validators, loaded on the first call of a guard below.`],
    declarations: [
      {
        name: 'validators',
        initializer: `lazyValidators<typeof Validators>('${validatorsModule}', import.meta.url)`,
      },
    ],
  });
  for (const { typeName, file: source } of schemas) {
    const validate = validatorName(typeName);
    file.addFunctions([
      {
        isExported: true,
        name: `is${typeName}`,
        docs: [`True when \`value\` is a valid ${typeName} (schemas/${source}).`],
        parameters: [{ name: 'value', type: 'unknown' }],
        returnType: `value is ${typeName}`,
        statements: `return isValid(validators().${validate}, value);`,
      },
      {
        isExported: true,
        name: `assert${typeName}`,
        docs: [`Throws GeminiMcpError INVALID_PAYLOAD unless \`value\` is a valid ${typeName}.`],
        parameters: [{ name: 'value', type: 'unknown' }],
        returnType: `asserts value is ${typeName}`,
        statements: `assertWith('${typeName}', validators().${validate}, value);`,
      },
      {
        isExported: true,
        name: `check${typeName}`,
        docs: [`Every violation of ${typeName} in \`value\` (empty when valid).`],
        parameters: [{ name: 'value', type: 'unknown' }],
        returnType: 'ViolationDetail[]',
        statements: `return checkWith(validators().${validate}, value);`,
      },
    ]);
    if (!hasTwin(g, typeName)) continue;
    const twin = validatorName(readTypeName(typeName));
    file.addFunction({
      isExported: true,
      name: readerName(typeName),
      docs: [
        `Reads a received ${typeName} with its read contract (${readTypeName(typeName)}): \`violations\` when even that fails, else a notice for each tolerance used (a field, enum value or part kind the vendored schemas do not know).`,
      ],
      parameters: [{ name: 'value', type: 'unknown' }],
      returnType: 'ReadCheck',
      statements: `const v = validators();\nreturn readWith(value, v.${validate}, v.${twin}, '${typeName}', KNOWN_TO);`,
    });
  }
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [`The guards of every ${family} schema, by name (the \`SCHEMAS\` table's part).`],
    declarations: [
      {
        name: 'GUARDS',
        type: 'Readonly<Partial<Record<SchemaName, SchemaGuards>>>',
        initializer: `{\n${schemas.map((s) => `  ${s.typeName}: { ${entryGuards(g, s.typeName)} },`).join('\n')}\n}`,
      },
    ],
  });
  return finished(file);
}

/**
 * `src/generated/catalog.ts` (without banner): every schema's name, file, family and whether it
 * is read with its read contract, and the loader of a family's guards: a program that checks
 * one family loads that family's validators alone.
 */
function generateCatalog(g: Guarded): string {
  const file = newFile('catalog.ts');
  file.addImportDeclaration({
    moduleSpecifier: './guards-common.js',
    isTypeOnly: true,
    namedImports: ['SchemaGuards', 'SchemaName'],
  });
  file.addTypeAlias({
    isExported: true,
    name: 'SchemaFamily',
    docs: [
      'A folder of schemas/ whose schemas refer only to each other: each family has its own validators and guards module.',
    ],
    type: FAMILIES.map((f) => `'${f}'`).join(' | '),
  });
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [
      'Every schema by name: its file below schemas/, its family, and whether it is a shape we only receive (read with its read contract). Loads no validator.',
    ],
    declarations: [
      {
        name: 'CATALOG',
        type: 'Readonly<Record<SchemaName, { file: string; family: SchemaFamily; received: boolean }>>',
        initializer: `{\n${g.schemas.map((s) => `  ${s.typeName}: { file: '${s.file}', family: '${familyOf(s.file)}', received: ${g.received.has(s.typeName)} },`).join('\n')}\n}`,
      },
    ],
  });
  file.addFunction({
    isExported: true,
    name: 'loadFamily',
    docs: [
      "The guards of a family's schemas, by name: imports the family's validators on first use.",
    ],
    parameters: [{ name: 'family', type: 'SchemaFamily' }],
    returnType: 'Promise<Readonly<Partial<Record<SchemaName, SchemaGuards>>>>',
    statements: [
      'switch (family) {',
      ...FAMILIES.map(
        (f) => `  case '${f}': return import('${guardsModule(f)}').then((m) => m.GUARDS);`,
      ),
      '}',
    ],
  });
  return finished(file);
}

/**
 * `src/generated/guards.ts` (without banner): every family's guards and the `SCHEMAS` table, as
 * the `schemas` entry exports them (a family's validators load with the first check of one of
 * its schemas).
 */
function generateAllGuards(g: Guarded): string {
  const file = newFile('guards.ts');
  const families = new Map<Family, string[]>(FAMILIES.map((f) => [f, []]));
  for (const s of g.schemas) families.get(familyOf(s.file))!.push(s.typeName);
  file.addImportDeclarations([
    { moduleSpecifier: '../errors.js', isTypeOnly: true, namedImports: ['ViolationDetail'] },
    {
      moduleSpecifier: './guards-common.js',
      isTypeOnly: true,
      namedImports: ['ReadCheck', 'SchemaName'],
    },
    ...FAMILIES.map((f) => ({
      moduleSpecifier: guardsModule(f),
      namedImports: sorted(
        families
          .get(f)!
          .flatMap((name) => [`check${name}`, ...(g.received.has(name) ? [readerName(name)] : [])]),
      ),
    })),
  ]);
  file.addExportDeclarations([
    {
      moduleSpecifier: './guards-common.js',
      isTypeOnly: true,
      namedExports: ['ReadCheck', 'ReadNotice', 'SchemaName'],
    },
    ...FAMILIES.map((f) => ({
      moduleSpecifier: guardsModule(f),
      namedExports: sorted(families.get(f)!.flatMap((name) => guardNames(g, name))),
    })),
  ]);
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
        initializer: `{\n${g.schemas.map((s) => `  ${s.typeName}: { file: '${s.file}', ${entryGuards(g, s.typeName)} },`).join('\n')}\n}`,
      },
    ],
  });
  return finished(file);
}

/**
 * Every guards module (file name to source without banner): `guards-common.ts`, one
 * `guards-<family>.ts` per family, `catalog.ts` and `guards.ts`.
 */
export function generateGuards(
  schemas: readonly LoadedSchema[],
  twins: readonly LoadedSchema[],
  knownTo: SchemaTree['knownTo'],
): Map<string, string> {
  const g = guarded(schemas, twins);
  const files = new Map<string, string>([
    ['catalog.ts', generateCatalog(g)],
    ['guards-common.ts', generateGuardsCommon(g)],
  ]);
  for (const [family, members] of byFamily([...schemas, ...twins])) {
    const known =
      family === 'mcp' ? knownTo.mcp : family === 'live' ? knownTo.live : knownTo.gemini;
    files.set(`guards-${familyModule(family)}.ts`, generateFamilyGuards(g, family, members, known));
  }
  files.set('guards.ts', generateAllGuards(g));
  return files;
}

/** Declarations for a family's validators module (its schemas and their read twins). */
export function generateValidatorTypes(schemas: readonly LoadedSchema[]): string {
  const lines = [
    `import type { ErrorObject } from 'ajv';`,
    `import type { ${schemas.map((s) => s.typeName).join(', ')} } from './types.js';`,
    '',
    '/**',
    ' * A standalone validator as the post-processing leaves it: called with the value alone (the',
    " * positional context after it is the validators' own, for the schemas they refer to); its",
    ' * errors on the function after a refusal.',
    ' */',
    'type GeneratedValidator<T> = ((data: unknown) => data is T) & { errors?: ErrorObject[] | null };',
    '',
    ...schemas.map(
      (s) =>
        `export declare const ${validatorName(s.typeName)}: GeneratedValidator<${s.typeName}>;`,
    ),
    '',
  ];
  return lines.join('\n');
}
