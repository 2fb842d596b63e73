/** Bugs the fuzzers found, each pinned by a test named after what it caught. */
import { describe, expect, it } from 'vitest';
import { functionResponse } from '../../src/adapter/turn/responses.js';
import { isToolError } from '../../src/adapter/types.js';
import { GeminiMcpError } from '../../src/errors.js';

describe('fuzzer regressions', () => {
  it.each([null, undefined, 0, 'text', []])(
    'a result of %j is INVALID_INPUT, not a TypeError (isToolError on a non-object)',
    (result) => {
      expect(isToolError(result)).toBe(false);
      expect(() => functionResponse('hello', result as never)).toThrow(GeminiMcpError);
      try {
        functionResponse('hello', result as never);
      } catch (error) {
        expect((error as GeminiMcpError).code).toBe('INVALID_INPUT');
      }
    },
  );
});
