/**
 * The P3 anchor: `convertJSONSchemaToOpenAPISchema` of @ai-sdk/google (the Vercel AI SDK's
 * Gemini provider, pinned devDependency). The package exports neither it nor its module from
 * any entry (`.` and `./internal` export only the model classes and tool factories), so the
 * benchmark takes the function's own module out of the installed bundle, byte for byte: the
 * section `// src/convert-json-schema-to-openapi-schema.ts` of `dist/index.mjs`, up to the
 * next `// src/` section, with its one import (`UnsupportedFunctionalityError` from
 * @ai-sdk/provider) passed in. The code run is exactly the code the provider runs for each
 * tool's `inputSchema` (its `prepareTools` calls it once per tool); V8 compiles it like any
 * other module code.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The converter's signature, as the provider calls it. */
type ConvertJsonSchemaToOpenApi = (jsonSchema: unknown, isRoot?: boolean) => unknown;

const SECTION = '// src/convert-json-schema-to-openapi-schema.ts';

/** The package's version and the file the function was taken from. */
export interface AiSdkConverter {
  readonly convert: ConvertJsonSchemaToOpenApi;
  readonly version: string;
  readonly source: string;
}

/** Loads the converter out of the installed @ai-sdk/google. */
export function loadAiSdkConverter(): AiSdkConverter {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('@ai-sdk/google/package.json');
  const manifest = require(manifestPath) as { version: string };
  const source = join(dirname(manifestPath), 'dist', 'index.mjs');
  const bundle = readFileSync(source, 'utf8');
  const start = bundle.indexOf(SECTION);
  if (start === -1) throw new Error(`${source} has no section "${SECTION}"`);
  const end = bundle.indexOf('\n// src/', start + SECTION.length);
  const section = bundle.slice(start, end === -1 ? undefined : end);
  const importPattern =
    /import\s*\{\s*UnsupportedFunctionalityError\s*\}\s*from\s*"@ai-sdk\/provider";/;
  if (!importPattern.test(section)) {
    throw new Error(`the converter section of ${source} no longer has the expected import`);
  }
  const body = section.replace(importPattern, '');
  // The provider resolves @ai-sdk/provider from its own folder; so do we.
  const fromProvider = createRequire(manifestPath)('@ai-sdk/provider') as {
    UnsupportedFunctionalityError: unknown;
  };
  const factory = new Function(
    'UnsupportedFunctionalityError',
    `${body}\nreturn convertJSONSchemaToOpenAPISchema;`,
  ) as (error: unknown) => ConvertJsonSchemaToOpenApi;
  return {
    convert: factory(fromProvider.UnsupportedFunctionalityError),
    version: manifest.version,
    source: 'dist/index.mjs',
  };
}
