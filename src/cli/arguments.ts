/** Parsers for the command line's numeric option values. */
import { InvalidArgumentError } from 'commander';

/** A whole number above 0 (a count, a turn limit), or a usage error saying so. */
export function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw new InvalidArgumentError('expected a whole number > 0');
  }
  return n;
}
