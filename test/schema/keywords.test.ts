/**
 * The converter's keyword helpers that re-implement a declared rule by hand for speed: each must
 * agree with the rule it stands for.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GEMINI_PROPERTY_NAME, isGeminiPropertyName } from '../../src/schema/keywords.js';

describe('isGeminiPropertyName', () => {
  it('issue 14: agrees with GEMINI_PROPERTY_NAME (letters, digits and _, 1 to 64) on any name', () => {
    const edges = [
      '',
      '_',
      'a',
      'Z',
      '0',
      '9',
      'a-b',
      'a b',
      'é',
      'a\n',
      '@',
      '[',
      '`',
      '{',
      '/',
      ':',
    ];
    for (const name of [...edges, 'a'.repeat(64), 'a'.repeat(65)]) {
      expect(isGeminiPropertyName(name), JSON.stringify(name)).toBe(
        GEMINI_PROPERTY_NAME.test(name),
      );
    }
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 70 }),
          fc.string({
            unit: fc.constantFrom('a', 'Z', '5', '_', '-', '`', '@', '\n'),
            maxLength: 70,
          }),
        ),
        (name) => isGeminiPropertyName(name) === GEMINI_PROPERTY_NAME.test(name),
      ),
      { numRuns: 2000 },
    );
  });
});
