/**
 * gemini-mcp-kit as users run it: the built JavaScript (see build-cli.ts), not the TypeScript
 * sources through tsx. tsx's transform adds helpers to the code (`__name` on every function
 * created, 3-7% of some profiles), which the anchors, plain JavaScript from node_modules, do
 * not pay. Types come from the sources the JavaScript was built from.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuiltCli } from './build-cli.js';

type Declarations = typeof import('../../src/adapter/tools/declarations.js');
type Build = typeof import('../../src/adapter/tools/toolset.js');
type ToGeminiSchema = typeof import('../../src/schema/to-gemini-schema.js');
type Execute = typeof import('../../src/runtime/turn/execute.js');
type Guards = typeof import('../../src/generated/guards.js');

/** The built modules the figures measure. */
export interface Built {
  /** The built package's `dist` directory. */
  readonly dist: string;
  readonly functionDeclarations: Declarations['functionDeclarations'];
  readonly buildToolSet: Build['buildToolSet'];
  readonly toGeminiSchema: ToGeminiSchema['toGeminiSchema'];
  readonly toGeminiParameters: ToGeminiSchema['toGeminiParameters'];
  /** The generated Gemini `Schema` validator, to check outputs apart from the converter's own proof. */
  readonly checkSchema: Guards['checkSchema'];
  readonly executeToolCalls: Execute['executeToolCalls'];
  /** The same functions from the build with the contract proofs compiled out. */
  readonly unchecked: {
    readonly functionDeclarations: Declarations['functionDeclarations'];
    /**
     * The unchecked build's own: a tool set carries what its module found in its snapshot (the
     * fields free of hidden text), which another copy of the module cannot read.
     */
    readonly buildToolSet: Build['buildToolSet'];
    readonly toGeminiSchema: ToGeminiSchema['toGeminiSchema'];
  };
}

async function load<T>(dist: string, path: string): Promise<T> {
  return (await import(pathToFileURL(join(dist, path)).href)) as T;
}

/** Imports the built modules of `cli`'s package. */
export async function loadBuilt(cli: BuiltCli): Promise<Built> {
  const dist = cli.dist;
  const [
    declarations,
    build,
    schema,
    execute,
    guards,
    uncheckedDeclarations,
    uncheckedBuild,
    uncheckedSchema,
  ] = await Promise.all([
    load<Declarations>(dist, 'adapter/tools/declarations.js'),
    load<Build>(dist, 'adapter/tools/toolset.js'),
    load<ToGeminiSchema>(dist, 'schema/to-gemini-schema.js'),
    load<Execute>(dist, 'runtime/turn/execute.js'),
    load<Guards>(dist, 'generated/guards.js'),
    load<Declarations>(cli.unchecked, 'adapter/tools/declarations.js'),
    load<Build>(cli.unchecked, 'adapter/tools/toolset.js'),
    load<ToGeminiSchema>(cli.unchecked, 'schema/to-gemini-schema.js'),
  ]);
  return {
    dist,
    functionDeclarations: declarations.functionDeclarations,
    buildToolSet: build.buildToolSet,
    toGeminiSchema: schema.toGeminiSchema,
    toGeminiParameters: schema.toGeminiParameters,
    checkSchema: guards.checkSchema,
    executeToolCalls: execute.executeToolCalls,
    unchecked: {
      functionDeclarations: uncheckedDeclarations.functionDeclarations,
      buildToolSet: uncheckedBuild.buildToolSet,
      toGeminiSchema: uncheckedSchema.toGeminiSchema,
    },
  };
}
