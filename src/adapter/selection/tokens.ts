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
    'had having it its it’s this that these those there here i me my mine we us our ours you your ' +
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

/**
 * The words of `text`, in order: split at every character that is not a letter or digit, and
 * inside identifiers at a lower-to-upper case change (`pullRequest`), an acronym's end
 * (`HTTPServer` → http, server) and a letter-digit change (`v2010`); lower-cased; function words
 * and one-letter words dropped; each stemmed.
 *
 * @example
 * ```ts
 * words('createPullRequests in GitHub'); // ['creat', 'pull', 'request', 'github']
 * ```
 */
export function words(text: string): string[] {
  const out: string[] = [];
  const spaced = text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})|(\p{N})(\p{L})/gu, '$1$3 $2$4')
    .toLowerCase();
  for (const raw of spaced.split(/[^\p{L}\p{N}]+/u)) {
    const word = raw.replace(/['’]/g, '');
    if (word.length < 2 || word.length > MAX_WORD_LENGTH || STOP_WORDS.has(word)) continue;
    out.push(stemOf(word));
  }
  return out;
}
