/**
 * Seeded fuzzing of every public entry point. Property: a valid output (checked by the generated
 * validators) or a GeminiMcpError with a documented code, in bounded time; never another
 * exception, never a mutated input (inputs are deep-frozen, so a write throws).
 *
 * CI runs a few thousand cases per entry point with a fixed seed; for a long run:
 * `FUZZ_RUNS=100000 FUZZ_SEED=<n> npx vitest run test/hardening/fuzz.test.ts`.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionDeclarations, geminiTools } from '../../src/adapter/tools/declarations.js';
import { EXPOSED_NAME_PATTERN } from '../../src/adapter/tools/names.js';
import { toolSchemaViolations } from '../../src/adapter/tools/tool-schemas.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import type { ToolSet } from '../../src/adapter/tools/toolset-types.js';
import { functionCalls } from '../../src/adapter/turn/calls.js';
import { functionResponse, rejectionResponse } from '../../src/adapter/turn/responses.js';
import { GeminiMcpError, type GeminiMcpErrorCode } from '../../src/errors.js';
import {
  checkContent,
  checkPart,
  checkSchema,
  checkTool,
  checkVertexV1Beta1Part,
  checkVertexV1Part,
} from '../../src/generated/guards.js';
import { stripInvisible } from '../../src/json/invisible.js';
import { answerCalls } from '../../src/runtime/turn/answer.js';
import { toGeminiSchema } from '../../src/schema/to-gemini-schema.js';
import { deepFreeze } from '../schema/support.js';
import { inMemoryBitcoinClient } from '../support/runtime-servers.js';
import {
  adversarialSchema,
  anyValue,
  callToolResult,
  hostileString,
  jsonSchema,
  largeStructuredResult,
  modelTurn,
  serverList,
} from './arbitraries.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261129);
/** Long runs (FUZZ_RUNS=100000) need more than the default minute per test. */
const TIMEOUT = 60_000 + RUNS * 10;
const settings = { seed: SEED, numRuns: RUNS } as const;
/** A hang guard, not a speed target: no single case may take this long. */
const CASE_LIMIT_MS = 5000;

/** Runs `call`; a GeminiMcpError with a documented code is an accepted outcome (undefined). */
function guarded<T>(documented: readonly GeminiMcpErrorCode[], call: () => T): T | undefined {
  const started = performance.now();
  let result: T | undefined;
  try {
    result = call();
  } catch (error) {
    if (!(error instanceof GeminiMcpError && documented.includes(error.code))) throw error;
  }
  const elapsed = performance.now() - started;
  if (elapsed > CASE_LIMIT_MS) throw new Error(`one case took ${Math.round(elapsed)} ms`);
  return result;
}

async function guardedAsync<T>(
  documented: readonly GeminiMcpErrorCode[],
  call: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof GeminiMcpError && documented.includes(error.code)) return undefined;
    throw error;
  }
}

const SCHEMA_ERRORS: GeminiMcpErrorCode[] = ['SCHEMA_UNSUPPORTED', 'SCHEMA_TOO_LARGE'];

describe('fuzzing every entry point', { timeout: TIMEOUT }, () => {
  it(`buildToolSet and functionDeclarations (both modes): ${RUNS} tool lists`, () => {
    fc.assert(
      fc.property(
        serverList,
        fc.constantFrom('on-collision', 'always', 'never'),
        (servers, prefix) => {
          deepFreeze(servers);
          const built = guarded(['NAME_COLLISION', 'INVALID_INPUT'], () =>
            buildToolSet(servers, { prefix }),
          );
          if (built === undefined) return;
          const names = built.toolset.entries.map((entry) => entry.exposedName);
          expect(new Set(names).size).toBe(names.length);
          for (const entry of built.toolset.entries) {
            expect(entry.exposedName).toMatch(EXPOSED_NAME_PATTERN);
            expect(built.toolset.resolve(entry.exposedName)).toBe(entry);
            expect(built.toolset.exposedName(entry.serverId, entry.tool.name)).toBe(
              entry.exposedName,
            );
          }
          expect(checkTool(geminiTools(built.toolset)[0] ?? { functionDeclarations: [] })).toEqual(
            [],
          );
          const openapi = guarded(SCHEMA_ERRORS, () =>
            functionDeclarations(built.toolset, { schemaMode: 'openapi', responseSchema: true }),
          );
          if (openapi !== undefined)
            expect(checkTool({ functionDeclarations: openapi })).toEqual([]);
        },
      ),
      settings,
    );
  });

  it(`toGeminiSchema: ${RUNS} random schemas and values`, () => {
    fc.assert(
      fc.property(fc.oneof(jsonSchema, anyValue), fc.boolean(), (schema, describeLosses) => {
        deepFreeze(schema);
        const converted = guarded(SCHEMA_ERRORS, () => toGeminiSchema(schema, { describeLosses }));
        if (converted !== undefined) expect(checkSchema(converted.schema)).toEqual([]);
      }),
      settings,
    );
  });

  describe('on a fixed tool set', () => {
    let toolset: ToolSet;
    let client: Client;
    beforeAll(async () => {
      client = await inMemoryBitcoinClient();
      const { tools } = await client.listTools();
      toolset = buildToolSet([{ serverId: 'bitcoin', tools }]).toolset;
    });
    afterAll(() => client.close());
    const names = ['hello', 'bitcoin_price'];

    it(`functionCalls: ${RUNS} model turns`, () => {
      fc.assert(
        fc.property(modelTurn(names), fc.boolean(), (turn, validateArgs) => {
          deepFreeze(turn);
          const result = guarded(['INVALID_INPUT'], () =>
            functionCalls(turn, toolset, { validateArgs }),
          );
          if (result === undefined) return;
          for (const call of result.calls)
            expect(toolset.resolve(call.exposedName)?.tool.name).toBe(call.name);
          for (const rejected of result.rejected)
            expect(checkPart(rejectionResponse(rejected))).toEqual([]);
          expect(result.items.length).toBe(result.calls.length + result.rejected.length);
        }),
        settings,
      );
    });

    it(`functionResponse: ${RUNS} results under every option`, () => {
      fc.assert(
        fc.property(
          fc.oneof(fc.constantFrom(...names), hostileString(20)),
          callToolResult,
          fc.record(
            {
              id: fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null)),
              structured: fc.constantFrom('prefer', 'auto', 'append', 'ignore'),
              media: fc.constantFrom('placeholder', 'parts'),
              maxOutputBytes: fc.integer({ min: 0, max: 2000 }),
              dialect: fc.constantFrom('gemini', 'vertex-v1', 'vertex-v1beta1', 'vertex'),
            },
            { requiredKeys: [] },
          ),
          (name, result, options) => {
            deepFreeze(result);
            const part = guarded(['INVALID_INPUT'], () =>
              functionResponse(name, result as never, options),
            );
            if (part === undefined) return;
            const check =
              options.dialect === 'vertex-v1'
                ? checkVertexV1Part
                : options.dialect === undefined || options.dialect === 'gemini'
                  ? checkPart
                  : checkVertexV1Beta1Part;
            expect(check(part)).toEqual([]);
          },
        ),
        settings,
      );
    });

    it(`answerCalls: ${Math.ceil(RUNS / 10)} model turns on a real in-memory server, one response per call`, async () => {
      await fc.assert(
        fc.asyncProperty(modelTurn(names), async (turn) => {
          deepFreeze(turn);
          const content = await guardedAsync(['INVALID_INPUT'], () =>
            answerCalls(turn as never, toolset, { bitcoin: client }, { timeoutMs: 10_000 }),
          );
          if (content === undefined) return;
          expect(checkContent(content)).toEqual([]);
          expect(content.role).toBe('user');
          const parts = content.parts ?? [];
          expect(parts.length).toBeGreaterThan(0);
          for (const part of parts) expect(part.functionResponse).toBeDefined();
        }),
        { ...settings, numRuns: Math.ceil(RUNS / 10) },
      );
    });
  });
});

/** CPU milliseconds (user + system) `run` takes. */
function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

describe('issue 13: adversarial schemas and large results', { timeout: TIMEOUT }, () => {
  const runs = Math.max(20, Math.ceil(RUNS / 20));

  it(`server schemas: ${runs} catastrophic patterns, uniqueItems, large invalid arrays, nested hidden text`, () => {
    fc.assert(
      fc.property(
        adversarialSchema,
        fc.constantFrom('json', 'openapi'),
        ({ schema, value }, schemaMode) => {
          deepFreeze(schema);
          deepFreeze(value);
          let violations: ReturnType<typeof toolSchemaViolations>;
          // Bounded: a catastrophic pattern under RegExp alone takes seconds at 27 characters.
          expect(cpuMs(() => (violations = toolSchemaViolations(schema, value)))).toBeLessThan(
            2000,
          );
          expect(violations).toBeDefined();
          expect(violations?.length ?? 0).toBeLessThanOrEqual(10);
          const { toolset } = buildToolSet([
            { serverId: 's', tools: [{ name: 't', inputSchema: schema, outputSchema: schema }] },
          ]);
          const declarations = guarded(SCHEMA_ERRORS, () =>
            functionDeclarations(toolset, { schemaMode, responseSchema: true }),
          );
          if (declarations === undefined) return;
          expect(checkTool({ functionDeclarations: declarations })).toEqual([]);
          expect(stripInvisible(JSON.stringify(declarations)).removed).toBe(0);
        },
      ),
      { ...settings, numRuns: runs },
    );
  });

  const largeRuns = Math.max(10, Math.ceil(RUNS / 200));
  it(`functionResponse: ${largeRuns} large structured results (long, wide, deep, $ref far down)`, () => {
    fc.assert(
      fc.property(
        largeStructuredResult,
        fc.constantFrom('prefer', 'auto', 'append', 'ignore'),
        fc.constantFrom(262_144, Number.POSITIVE_INFINITY),
        (result, structured, maxOutputBytes) => {
          const part = functionResponse('t', result as never, { structured, maxOutputBytes });
          expect(checkPart(part)).toEqual([]);
        },
      ),
      { ...settings, numRuns: largeRuns },
    );
  });
});
