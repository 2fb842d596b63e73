/**
 * gemini-mcp-kit as users run it: the built JavaScript (see build-cli.ts), not the TypeScript
 * sources through tsx. tsx's transform adds helpers to the code (`__name` on every function
 * created, 3-7% of some profiles), which the anchors, plain JavaScript from node_modules, do
 * not pay. Every function comes through the build's public entry (`dist/index.js`, the
 * package's `.` export), typed by the package's published types (`dist/index.d.ts`, mapped to
 * the package name in bench/tsconfig.json: `npm run build` first for `npm run typecheck`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Package from 'gemini-mcp-kit';
import type * as Live from 'gemini-mcp-kit/live';
import type * as Schemas from 'gemini-mcp-kit/schemas';
import type { BuiltCli } from './build-cli.js';

/** The built modules the figures measure. */
export interface Built {
  /** The built package's `dist` directory. */
  readonly dist: string;
  readonly functionDeclarations: typeof Package.functionDeclarations;
  readonly buildToolSet: typeof Package.buildToolSet;
  readonly toGeminiSchema: typeof Package.toGeminiSchema;
  readonly toGeminiParameters: typeof Package.toGeminiParameters;
  /** The generated Gemini `Schema` validator, to check outputs apart from the converter's own proof. */
  readonly checkSchema: (typeof Schemas.SCHEMAS)['Schema']['check'];
  /** The generated GenerateContentResponse validator (P4's JSONL is proven valid with it). */
  readonly checkGenerateContentResponse: typeof Schemas.checkGenerateContentResponse;
  readonly executeToolCalls: typeof Package.executeToolCalls;
  /** The `/live` entry's helper (L2); undefined in a build from before it (`--src`). */
  readonly liveTools: typeof Live.liveTools | undefined;
  /** The same functions from the build with the contract proofs compiled out. */
  readonly unchecked: {
    readonly functionDeclarations: typeof Package.functionDeclarations;
    /**
     * The unchecked build's own: a tool set carries what its module found in its snapshot (the
     * fields free of hidden text), which another copy of the module cannot read.
     */
    readonly buildToolSet: typeof Package.buildToolSet;
    readonly toGeminiSchema: typeof Package.toGeminiSchema;
  };
}

/** The public entry of a built `dist` directory. */
async function entry(dist: string): Promise<typeof Package> {
  return (await import(pathToFileURL(join(dist, 'index.js')).href)) as typeof Package;
}

/** The `/schemas` entry of a built `dist` directory. */
async function schemasEntry(dist: string): Promise<typeof Schemas> {
  return (await import(pathToFileURL(join(dist, 'schemas.js')).href)) as typeof Schemas;
}

/** The `/live` entry of a built `dist` directory, if the build has one. */
async function liveEntry(dist: string): Promise<typeof Live | undefined> {
  const file = join(dist, 'live.js');
  return existsSync(file) ? ((await import(pathToFileURL(file).href)) as typeof Live) : undefined;
}

/** Imports the built modules of `cli`'s package. */
export async function loadBuilt(cli: BuiltCli): Promise<Built> {
  const [lib, schemas, unchecked, live] = await Promise.all([
    entry(cli.dist),
    schemasEntry(cli.dist),
    entry(cli.unchecked),
    liveEntry(cli.dist),
  ]);
  return {
    dist: cli.dist,
    functionDeclarations: lib.functionDeclarations,
    buildToolSet: lib.buildToolSet,
    toGeminiSchema: lib.toGeminiSchema,
    toGeminiParameters: lib.toGeminiParameters,
    checkSchema: schemas.SCHEMAS.Schema.check,
    checkGenerateContentResponse: schemas.checkGenerateContentResponse,
    executeToolCalls: lib.executeToolCalls,
    liveTools: live?.liveTools,
    unchecked: {
      functionDeclarations: unchecked.functionDeclarations,
      buildToolSet: unchecked.buildToolSet,
      toGeminiSchema: unchecked.toGeminiSchema,
    },
  };
}
