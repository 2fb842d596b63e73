/**
 * Enum and const violations name the value found and the allowed values (issue 33, item 6),
 * wherever violations are worded: the generated guards (and so `validate` and every
 * `GeminiMcpError` of a failed assertion or contract check) and the checks of a tool's own
 * inputSchema (`validateArgs`), whose words the model reads.
 */
import { describe, expect, it } from 'vitest';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import { functionCalls } from '../../src/adapter/turn/calls.js';
import { GeminiMcpError } from '../../src/errors.js';
import {
  assertGenerateContentRequest,
  checkMcpTextContent,
  checkToolConfig,
} from '../../src/generated/guards.js';
import { proveContract } from '../../src/json/contract.js';
import { tool } from './helpers.js';

const MODES = '"MODE_UNSPECIFIED", "AUTO", "ANY", "NONE", "VALIDATED"';

describe('enum violations in the generated guards', () => {
  it('assertGenerateContentRequest: a FunctionCallingConfig mode typo names the value and the modes', () => {
    const request = {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      toolConfig: { functionCallingConfig: { mode: 'AUTOMATIC' } },
    };
    let error: unknown;
    try {
      assertGenerateContentRequest(request);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(GeminiMcpError);
    expect((error as GeminiMcpError).message).toBe(
      `GenerateContentRequest at "/toolConfig/functionCallingConfig/mode": must be one of ${MODES}; found "AUTOMATIC"`,
    );
    expect((error as GeminiMcpError).details).toEqual([
      {
        path: '/toolConfig/functionCallingConfig/mode',
        keyword: 'enum',
        message: `must be one of ${MODES}; found "AUTOMATIC"`,
      },
    ]);
  });

  it('a contract check (proveContract) words it the same, with a did-you-mean for a case slip', () => {
    expect(() =>
      proveContract({ functionCallingConfig: { mode: 'any' } }, checkToolConfig, {
        schema: 'ToolConfig',
      }),
    ).toThrow(
      `gemini-mcp-kit produced an invalid ToolConfig at "/functionCallingConfig/mode": must be one of ${MODES}; found "any" (did you mean "ANY"?)`,
    );
  });

  it('a const: the one value allowed and the value found', () => {
    expect(checkMcpTextContent({ type: 'txt', text: 'a' })).toContainEqual({
      path: '/type',
      keyword: 'const',
      message: 'must be "text"; found "txt"',
    });
  });

  it('bounded: a long value is cut, an object is named by its kind, never printed whole', () => {
    const [long] = checkToolConfig({ functionCallingConfig: { mode: 'X'.repeat(100_000) } });
    expect(long?.message).toMatch(/; found "X{76}\.\.\.$/);
    const violations = checkToolConfig({ functionCallingConfig: { mode: { huge: 'x' } } });
    expect(violations.find((v) => v.keyword === 'enum')?.message).toBe(
      `must be one of ${MODES}; found an object`,
    );
  });
});

describe("FC-5: enum violations of a tool's own inputSchema (validateArgs)", () => {
  const colours = Array.from({ length: 14 }, (_, i) => `colour-${i}`);
  const { toolset } = buildToolSet([
    {
      serverId: 'paint',
      tools: [
        tool('paint', {
          inputSchema: {
            type: 'object',
            properties: {
              colour: { enum: colours },
              finish: { enum: ['matte', 'gloss'] },
              version: { const: 2 },
            },
          },
        }),
      ],
    },
  ]);

  it('the model is told the value it sent and what it may send: ten listed, the rest counted', () => {
    const { rejected } = functionCalls(
      [{ functionCall: { name: 'paint', args: { colour: 'teal', finish: 'Matte', version: 3 } } }],
      toolset,
      { validateArgs: true },
    );
    const error = rejected[0]?.message as string;
    const listed = colours
      .slice(0, 10)
      .map((c) => `"${c}"`)
      .join(', ');
    expect(error).toContain(`/colour: must be one of ${listed} and 4 more; found "teal"`);
    expect(error).toContain(
      '/finish: must be one of "matte", "gloss"; found "Matte" (did you mean "matte"?)',
    );
    expect(error).toContain('/version: must be 2; found 3');
  });
});
