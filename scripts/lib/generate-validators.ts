/** Standalone ajv validators (draft 2020-12, ESM), compiled here, never at import time. */
import Ajv2020, { _, type KeywordCxt, type KeywordDefinition, Name } from 'ajv/dist/2020.js';
import ajvNames from 'ajv/dist/compile/names.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { isJsonObject, type Json, type JsonObject } from './canonical-json.js';
import type { Family } from './schema-set.js';
import type { LoadedSchema } from './schema-tree.js';

/** The export name of a schema's validate function. */
export const validatorName = (typeName: string): string => `validate${typeName}`;

/** Every family, in the order the generated modules list them. */
export const FAMILIES: readonly Family[] = ['gemini', 'live', 'mcp', 'vertex/v1', 'vertex/v1beta1'];

/**
 * The family whose schemas a family may refer to besides its own: the Live API's messages hold
 * the Gemini API's Content, Tool, ... (their validators imported from the Gemini module).
 */
export const BASE_FAMILY: Readonly<Partial<Record<Family, Family>>> = { live: 'gemini' };

/**
 * The family a schema file belongs to: its folder below `schemas/`, a read twin's
 * (`read/gemini/Part.schema.json`) that of the schema it mirrors.
 */
export function familyOf(file: string): Family {
  const source = file.startsWith('read/') ? file.slice('read/'.length) : file;
  const family = FAMILIES.find(
    (f) => source.startsWith(`${f}/`) && !source.slice(f.length + 1).includes('/'),
  );
  if (family === undefined) throw new Error(`generate-validators: ${file} is in no schema family`);
  return family;
}

/** `vertex/v1beta1` -> `vertex-v1beta1`: the suffix of a family's generated module names. */
export const familyModule = (family: Family): string => family.replace('/', '-');

/** Every `$ref` of a schema, resolved against its `$id`. */
function references(node: Json, base: string, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const child of node) references(child, base, out);
  else if (isJsonObject(node)) {
    if (typeof node.$ref === 'string') out.push(new URL(node.$ref, base).href.replace(/#.*$/, ''));
    for (const child of Object.values(node)) references(child, base, out);
  }
  return out;
}

/**
 * The schemas grouped by family, each group closed under `$ref` but for references into its
 * {@link BASE_FAMILY} (any other reference out of its family, which the family's module could
 * not resolve, fails the generation). One validator module per
 * family keeps a program that checks one family (the CLI's `validate --kind`) from loading the
 * code of the others.
 */
export function byFamily(schemas: readonly LoadedSchema[]): Map<Family, LoadedSchema[]> {
  const groups = new Map<Family, LoadedSchema[]>(FAMILIES.map((f) => [f, []]));
  for (const s of schemas) groups.get(familyOf(s.file))!.push(s);
  for (const [family, group] of groups) {
    const base = BASE_FAMILY[family];
    const ids = new Set(
      [...group, ...(base === undefined ? [] : groups.get(base)!)].map(
        (s) => s.schema.$id as string,
      ),
    );
    for (const s of group) {
      const id = s.schema.$id as string;
      const outside = references(s.schema, id).find((ref) => ref !== id && !ids.has(ref));
      if (outside !== undefined) {
        throw new Error(
          `generate-validators: ${s.file} refers to ${outside}, outside its family ${family}`,
        );
      }
    }
  }
  return groups;
}

/** The ajv options the validators are compiled with (a runtime ajv given them checks alike). */
export const VALIDATOR_OPTIONS = {
  allErrors: true,
  verbose: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
  inlineRefs: false,
  validateFormats: false,
} as const;

/**
 * Validators this module takes from another, compiled there once (the Vertex messages v1 and
 * v1beta1 share; the Gemini messages inside the Live API's): their schemas' `$id`s, each with the
 * name of the validator the other module exports for it.
 */
export interface ImportedValidators {
  /** The module, as imported from this one: `./validators-vertex-common.js`. */
  readonly from: string;
  readonly byId: ReadonlyMap<string, string>;
  /** Whether the module exports them under its own names too (the Vertex versions do). */
  readonly reexport: boolean;
}

/**
 * Compiles every schema given (a family, closed under `$ref`) and returns the ESM module's
 * source. The schemas `imported` names are not compiled here: the module re-exports the other
 * module's validators under its own names for them, and its references to them call those.
 */
export function generateValidators(
  schemas: readonly LoadedSchema[],
  imported?: ImportedValidators,
): string {
  const own = schemas.filter((s) => imported?.byId.has(s.schema.$id as string) !== true);
  const elsewhere = schemas.filter((s) => !own.includes(s));
  const ajv = new Ajv2020.default({
    schemas: [
      ...own.map((s) => s.schema),
      // Each stands for the validator imported in its place (see IMPORTED_KEYWORD).
      ...elsewhere.map(
        (s): JsonObject => ({
          $id: s.schema.$id as string,
          [IMPORTED_KEYWORD]: imported!.byId.get(s.schema.$id as string)!,
        }),
      ),
    ],
    ...VALIDATOR_OPTIONS,
    keywords: [importedKeyword],
    code: { source: true, esm: true },
  });
  withoutEvaluatedTracking(ajv, own);
  const exports: Record<string, string> = {};
  for (const s of own) exports[validatorName(s.typeName)] = s.schema.$id as string;
  const source = oneFieldFirst(
    cheapPointerTokens(
      positionalContext(withoutParentSchemas(linearErrors(standaloneCode.default(ajv, exports)))),
    ),
  );
  return imported === undefined ? source : withImports(withoutStubs(source), elsewhere, imported);
}

/** The keyword of a schema compiled elsewhere: the name of the validator imported for it. */
const IMPORTED_KEYWORD = 'x-imported-validator';

/**
 * The code of a schema compiled elsewhere: a call of the validator imported for it, its errors
 * gathered as ajv gathers those of a referenced schema (so the same paths, in the same order).
 * Such a schema holds this keyword alone, so the data and path are those of its root.
 */
const importedKeyword: KeywordDefinition = {
  keyword: IMPORTED_KEYWORD,
  schemaType: 'string',
  code(cxt: KeywordCxt) {
    const { gen } = cxt;
    const N = ajvNames.default;
    const validate = new Name(cxt.schema as string);
    gen.if(_`!${validate}(${cxt.data}, ${N.instancePath}, ${N.rootData})`, () => {
      gen.assign(
        N.vErrors,
        _`${N.vErrors} === null ? ${validate}.errors : ${N.vErrors}.concat(${validate}.errors)`,
      );
      gen.assign(N.errors, _`${N.vErrors}.length`);
    });
  },
};

/** A stub as {@link importedKeyword} and the post-processing above leave it, with its schema. */
const STUB =
  /const schema\d+ = \{"\$id":"([^"]+)","x-imported-validator":"[\w$]+"\};function (validate\d+)\(data, instancePath="", rootData=data\)\{\/\*# sourceURL="\1" \*\/;let vErrors = null;let errors = 0;if\(!([\w$]+)\(data, instancePath, rootData\)\)\{if \(vErrors === null\) \{vErrors = \3\.errors;\} else \{for \(const e of \3\.errors\) vErrors\.push\(e\);\}errors = vErrors\.length;\}\2\.errors = vErrors;return errors === 0;\}/g;

/**
 * ajv compiles a function for each schema compiled elsewhere that a schema here refers to: a
 * stub that calls the imported validator and takes its errors. The references call the imported
 * validator itself instead (it leaves the same errors), and the stubs go: no stub code in the
 * module, no extra call. A stub of another form fails the generation.
 */
function withoutStubs(source: string): string {
  const imported = new Map<string, string>();
  const stripped = source.replace(STUB, (_, __, local: string, validate: string) => {
    imported.set(local, validate);
    return '';
  });
  if (
    /\bx-imported-validator\b/.test(stripped) ||
    /if\(![\w$]+\(data, instancePath, rootData\)\)\{/.test(stripped)
  ) {
    throw new Error('generate-validators: a stub form this script does not know');
  }
  return stripped.replace(/\bvalidate\d+\b/g, (name) => imported.get(name) ?? name);
}

/**
 * `source` importing the validators it calls from `imported.from`, and re-exporting those of
 * `elsewhere` under the names this module would give them.
 */
function withImports(
  source: string,
  elsewhere: readonly LoadedSchema[],
  imported: ImportedValidators,
): string {
  const theirs = (s: LoadedSchema): string => imported.byId.get(s.schema.$id as string)!;
  const called = sorted(
    [...new Set(elsewhere.map(theirs))].filter((name) => source.includes(`${name}(`)),
  );
  const reexported = sorted(elsewhere.map((s) => `${theirs(s)} as ${validatorName(s.typeName)}`));
  const head = '"use strict";';
  if (!source.startsWith(head)) {
    throw new Error('generate-validators: ajv standalone code no longer starts with "use strict"');
  }
  const from = JSON.stringify(imported.from);
  const lines = [
    ...(called.length === 0 ? [] : [`import {${called.join(', ')}} from ${from};`]),
    ...(imported.reexport ? [`export {${reexported.join(', ')}} from ${from};`] : []),
  ];
  return `${head}${lines.join('')}${source.slice(head.length)}`;
}

const sorted = (names: readonly string[]): string[] => [...names].sort((a, b) => (a < b ? -1 : 1));

/** Keywords that need ajv's tracking of evaluated properties and items. */
const UNEVALUATED = new Set(['unevaluatedProperties', 'unevaluatedItems']);

function usesUnevaluated(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(usesUnevaluated);
  if (typeof node !== 'object' || node === null) return false;
  return Object.entries(node).some(
    ([key, value]) => UNEVALUATED.has(key) || usesUnevaluated(value),
  );
}

/**
 * ajv's 2020 class always tracks which properties and items each subschema evaluated, for
 * `unevaluatedProperties` / `unevaluatedItems`, and that tracking keeps an `anyOf` from stopping
 * at its first passing branch: a valid ContentBlock (anyOf over five content kinds) built the
 * verbose errors of the four kinds it is not, about 250 ns of a 300 ns CallToolResult check. No
 * schema of ours uses those keywords, so the tracking is switched off before anything is
 * compiled (ajv reads the option only while compiling); the errors are the same, as an `anyOf`
 * that passes drops its branches' errors and one that fails has tried every branch. A schema
 * that does use them fails the generation here rather than be checked wrongly.
 */
function withoutEvaluatedTracking(ajv: Ajv2020.default, schemas: readonly LoadedSchema[]): void {
  const using = schemas.filter((s) => usesUnevaluated(s.schema)).map((s) => s.file);
  if (using.length > 0) {
    throw new Error(
      `generate-validators: unevaluatedProperties/unevaluatedItems (in ${using.join(', ')}) need the evaluated-properties tracking these validators leave out`,
    );
  }
  ajv.opts.unevaluated = false;
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

/** A JavaScript string literal, or an argument part outside one: no comma, brace or quote. */
const ARGUMENT = '(?:"(?:[^"\\\\]|\\\\.)*"|[^,{}"()]|\\((?:"(?:[^"\\\\]|\\\\.)*"|[^()"])*\\))+';

/**
 * ajv's validators take their context as an object (`{instancePath, parentData,
 * parentDataProperty, rootData, dynamicAnchors}`), built afresh for every referenced schema a
 * value goes through, valid or not, with a default `dynamicAnchors` object for each: a
 * GenerateContentResponse made dozens of them, a third of its check on a cold start (issue 14).
 * Nothing here reads `parentData`, `parentDataProperty` or `dynamicAnchors` (no `$dynamicRef`,
 * no coercion, defaults or removal), so the context becomes two positional parameters,
 * `(data, instancePath = "", rootData = data)`: the same paths in the same errors. A called
 * validator is still `validate(data)`. A form this script does not know fails the generation.
 */
function positionalContext(source: string): string {
  const head =
    '{instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}';
  const passed = new RegExp(
    `\\{instancePath:(${ARGUMENT}),parentData:${ARGUMENT},parentDataProperty:${ARGUMENT},rootData,dynamicAnchors\\}`,
    'g',
  );
  const rewritten = source
    .split(head)
    .join('instancePath="", rootData=data')
    .replace(passed, (_, instancePath: string) => `${instancePath}, rootData`)
    .split('{instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}')
    .join('instancePath, rootData');
  if (/\b(?:parentData|parentDataProperty|dynamicAnchors)\b/.test(rewritten)) {
    throw new Error(
      'generate-validators: an ajv validation-context form this script does not know',
    );
  }
  return rewritten;
}

/**
 * ajv escapes every property name it descends into for the error path, with two global regex
 * replaces per key, valid data or not: most of a proof of a wide Schema's `properties`. A name
 * holding neither `~` nor `/` (nearly all) is its own token; only the others are replaced, the
 * same way.
 */
function cheapPointerTokens(source: string): string {
  const escaped = /([\w$]+)\.replace\(\/~\/g, "~0"\)\.replace\(\/\\\/\/g, "~1"\)/g;
  const rewritten = source.replace(escaped, (_, key: string) => `escapePointerToken(${key})`);
  if (rewritten.includes('.replace(/~/g')) {
    throw new Error('generate-validators: an ajv key-escaping form this script does not know');
  }
  if (rewritten === source) return source;
  if (!source.startsWith('"use strict";')) {
    throw new Error('generate-validators: ajv standalone code no longer starts with "use strict"');
  }
  const helper =
    'function escapePointerToken(key){return key.includes("~") || key.includes("/") ? key.replace(/~/g, "~0").replace(/\\//g, "~1") : key;}';
  return `"use strict";${helper}${rewritten.slice('"use strict";'.length)}`;
}

/** The data-field tests of a `oneOf` whose every branch is `required` of one property. */
const REQUIRED_SITE =
  /if\(([\w$]+)(\.[\w$]+|\["(?:[^"\\]|\\.)*"\]) === undefined\)\{const err\d+ = \{instancePath,schemaPath:"[^"]*",keyword:"required"/g;

/**
 * A `oneOf` whose branches each require one property ("exactly one data field", as Part's
 * `text` / `inlineData` / `functionCall` / ...) made ajv try every branch on every valid
 * value, each failing branch building an error that the passing `oneOf` then dropped: eight
 * errors for each valid Part, and the code V8 took longest to optimise in `validate`'s first
 * megabytes (issue 14, P4). When the value is an object holding exactly one of those
 * properties, exactly one branch passes and the `oneOf` leaves no error, so the branches are
 * skipped; any other value goes through them as before, with the same errors. A `oneOf` of
 * another form is left as ajv wrote it.
 */
function oneFieldFirst(source: string): string {
  const prologue = /const (_errs\d+) = errors;let (valid\d+) = false;let (passing\d+) = null;/g;
  let out = '';
  let copied = 0;
  for (const match of source.matchAll(prologue)) {
    const [head, , valid, passing] = match;
    const from = match.index + head.length;
    const verdict = new RegExp(
      `if\\(!${valid}\\)\\{const err\\d+ = \\{instancePath,schemaPath:"[^"]*",keyword:"oneOf"`,
    ).exec(source.slice(from));
    if (verdict === null) continue;
    const branches = source.slice(from, from + verdict.index);
    const sites = [...branches.matchAll(REQUIRED_SITE)];
    const keywords = [...branches.matchAll(/keyword:"(\w+)"/g)].map((k) => k[1]);
    const count = branches.split(`${passing} = [${passing}, `).length;
    const data = sites[0]?.[1];
    if (
      data === undefined ||
      sites.length !== count ||
      keywords.length !== count ||
      keywords.some((k) => k !== 'required') ||
      sites.some((site) => site[1] !== data) ||
      /\bvalidate\d+\(|\bfor\(/.test(branches)
    ) {
      continue;
    }
    const present = sites.map((site) => `(${data}${site[2]} !== undefined)`).join(' + ');
    out += `${source.slice(copied, from)}if(${data} && typeof ${data} == "object" && !Array.isArray(${data}) && ${present} === 1){${valid} = true;}else {${branches}}`;
    copied = from + verdict.index;
  }
  return out + source.slice(copied);
}
