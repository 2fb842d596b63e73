/** Checks of the numeric options the runtime takes, so a bad one is refused, typed, up front. */
import { GeminiMcpError } from '../errors.js';

/** The longest delay a Node timer holds (2^31 - 1 ms, about 24.8 days); longer ones fire at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;

function refuse(option: string, expected: string, value: unknown): never {
  throw new GeminiMcpError(
    'INVALID_INPUT',
    `option ${option} must be ${expected}, got ${typeof value === 'number' ? String(value) : typeof value}`,
    { data: { option } },
  );
}

/**
 * Throws INVALID_INPUT naming `option` unless `value` is undefined or a timeout a timer can
 * hold: a number of milliseconds above 0, at most {@link MAX_TIMEOUT_MS}.
 *
 * @example
 * ```ts
 * checkTimeout('timeoutMs', 2 ** 31); // throws: must be a number of ms in (0, 2147483647]
 * ```
 */
export function checkTimeout(option: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !(value > 0 && value <= MAX_TIMEOUT_MS)) {
    refuse(option, `a number of ms in (0, ${MAX_TIMEOUT_MS}]`, value);
  }
}

/**
 * Throws INVALID_INPUT naming `option` unless `value` is undefined or a whole number of at
 * least 1 (`Infinity` too when `unbounded` allows it).
 *
 * @example
 * ```ts
 * checkCount('concurrency', Number.NaN); // throws: must be a whole number >= 1
 * ```
 */
export function checkCount(option: string, value: unknown, unbounded = false): void {
  if (value === undefined) return;
  if (unbounded && value === Number.POSITIVE_INFINITY) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    refuse(option, `a whole number >= 1${unbounded ? ' (or Infinity)' : ''}`, value);
  }
}
