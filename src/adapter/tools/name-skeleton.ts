/**
 * A name's look-alike skeleton: two names with the same skeleton read the same to a person
 * (and often to a model) although they differ in code points: case, accents, Cyrillic or Greek
 * letters standing in for Latin ones, invisible characters, `-` for `_`.
 */
import { stripInvisible } from '../../json/invisible.js';

/** Non-Latin letters that render like a Latin letter, mapped to it (lower case). */
const CONFUSABLES = new Map<string, string>([
  ['а', 'a'],
  ['в', 'b'],
  ['с', 'c'],
  ['ԁ', 'd'],
  ['е', 'e'],
  ['ё', 'e'],
  ['һ', 'h'],
  ['і', 'i'],
  ['ї', 'i'],
  ['ј', 'j'],
  ['к', 'k'],
  ['м', 'm'],
  ['н', 'h'],
  ['о', 'o'],
  ['р', 'p'],
  ['ԛ', 'q'],
  ['ѕ', 's'],
  ['т', 't'],
  ['у', 'y'],
  ['х', 'x'],
  ['ԝ', 'w'],
  ['α', 'a'],
  ['β', 'b'],
  ['ε', 'e'],
  ['η', 'n'],
  ['ι', 'i'],
  ['κ', 'k'],
  ['ν', 'v'],
  ['ο', 'o'],
  ['ρ', 'p'],
  ['τ', 't'],
  ['υ', 'u'],
  ['χ', 'x'],
  ['ı', 'i'],
  ['ɡ', 'g'],
  ['ℓ', 'l'],
]);

/**
 * The skeleton of `name`: invisible characters removed, compatibility-decomposed, accents
 * dropped, lower-cased, look-alike letters mapped to Latin, and `-`, `.`, spaces folded to `_`.
 *
 * @example
 * ```ts
 * nameSkeleton('Rеad-File') === nameSkeleton('read_file'); // true (the 'е' is Cyrillic)
 * ```
 */
export function nameSkeleton(name: string): string {
  const folded = stripInvisible(name).text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  let skeleton = '';
  for (const char of folded) skeleton += CONFUSABLES.get(char) ?? char;
  return skeleton.replace(/[-.\s]/gu, '_');
}
