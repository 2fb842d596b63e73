/**
 * The words a ranker compares: text split into words (identifiers too: `createPullRequest`,
 * `list_issues`, `TwilioApiV2010--CreateMessage`), lower-cased, common English function words
 * dropped, each reduced to its Porter stem (the `stemmer` package), so that "charts", "charting"
 * and "chart" meet.
 */
import { stemmer } from 'stemmer';

/**
 * English function words that say nothing of what a tool does. A general list (the closed
 * classes: articles, pronouns, prepositions, conjunctions, auxiliaries), not one drawn from any
 * tool or query.
 */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or nor but if then else of to in on at by for with from into onto over under ' +
    'about as up down out off is are was were be been being am do does did doing done have has ' +
    'had having it its this that these those there here i me my mine we us our ours you your ' +
    'yours he him his she her hers they them their theirs what which who whom whose when where why ' +
    'how all any each both either neither some such no not only own same so than too very can ' +
    'could will would shall should may might must just also via per e g eg ie etc let please'
  ).split(' '),
);

/** The longest word kept (longer runs are ids, hashes or noise), in UTF-16 code units. */
const MAX_WORD_LENGTH = 40;

/** Stems of words seen before: the vocabulary of a tool set is small and repeats. */
const stems = new Map<string, string>();
/** Remembered stems at most (a bound against hostile text). */
const MAX_REMEMBERED_STEMS = 50_000;

function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = /^[a-z]+$/.test(word) ? stemmer(word) : word;
    if (stems.size < MAX_REMEMBERED_STEMS) stems.set(word, stem);
  }
  return stem;
}

/** The kind of an ASCII character (by code): 0 a separator, 1 lower case, 2 upper case, 3 a digit. */
const ASCII_KINDS = Uint8Array.from({ length: 128 }, (_, code) =>
  code >= 97 && code <= 122 ? 1 : code >= 65 && code <= 90 ? 2 : code >= 48 && code <= 57 ? 3 : 0,
);

/**
 * The kind of a character past ASCII, as of an ASCII one: a digit 3, upper case 2, another letter
 * (with or without case) 1, anything else 0.
 */
function wideKindOf(char: string): number {
  if (/\p{N}/u.test(char)) return 3;
  if (/\p{Lu}/u.test(char)) return 2;
  return /\p{L}/u.test(char) ? 1 : 0;
}

/**
 * The words of `text`, in order: split at every character that is not a letter or digit, and
 * inside identifiers at a lower-to-upper case change (`pullRequest`), an acronym's end
 * (`HTTPServer`: http, server) and a letter-digit change (`v2010`); lower-cased; function words
 * and one-letter words dropped; each stemmed. One pass over the text (a catalog is megabytes).
 *
 * @example
 * ```ts
 * words('createPullRequests in GitHub'); // ['creat', 'pull', 'request', 'github']
 * ```
 */
export function words(text: string): string[] {
  const out: string[] = [];
  const push = (from: number, to: number): void => {
    if (to - from < 2 || to - from > MAX_WORD_LENGTH) return;
    const word = text.slice(from, to).toLowerCase();
    if (!STOP_WORDS.has(word)) out.push(stemOf(word));
  };
  let start = -1;
  let previous = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const kind = code < 128 ? ASCII_KINDS[code]! : wideKindOf(text[i]!);
    if (kind === 0) {
      if (start !== -1) push(start, i);
      start = -1;
    } else if (start === -1) {
      start = i;
    } else if (
      (kind === 2 && previous === 1) ||
      (kind === 3) !== (previous === 3) ||
      (kind === 1 && previous === 2 && i - start > 1)
    ) {
      // a new word: lower to upper, letter to digit or back, or the last capital of an acronym
      const at = kind === 1 && previous === 2 ? i - 1 : i;
      push(start, at);
      start = at;
    }
    previous = kind;
  }
  if (start !== -1) push(start, text.length);
  return out;
}
