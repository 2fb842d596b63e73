/**
 * SC-7 wiring: whatever the converter returns goes through the vendored Schema validator, and a
 * failure there is a CONTRACT_VIOLATION (a bug of gemini-mcp-kit), never a silently bad schema. The
 * validator is replaced here by one that refuses everything, to see the wiring act.
 */
import { describe, expect, it, vi } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import { toGeminiParameters, toGeminiSchema } from '../../src/schema/to-gemini-schema.js';

vi.mock('../../src/generated/guards.js', () => ({
  checkSchema: () => [{ path: '/type', message: 'refused by the test validator', keyword: 'enum' }],
}));

describe('SC-7 contract', () => {
  it.each([
    ['toGeminiSchema', () => toGeminiSchema({ type: 'string' })],
    [
      'toGeminiParameters',
      () => toGeminiParameters({ type: 'object', properties: { a: { type: 'string' } } }),
    ],
  ])(
    'SC-7: an output the Schema validator refuses is a CONTRACT_VIOLATION (%s)',
    (_name, convert) => {
      let caught: unknown;
      try {
        convert();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(GeminiMcpError);
      expect(caught).toMatchObject({
        code: 'CONTRACT_VIOLATION',
        path: '/type',
        details: [{ path: '/type', message: 'refused by the test validator', keyword: 'enum' }],
      });
    },
  );
});
