import { porter2 } from './porter2.js';

/**
 * Bound on memoised stems. English text repeats a small vocabulary, so a cache this size answers
 * nearly every lookup.
 */
const stemCacheLimit = 400_000;

let stemCache = new Map<string, string>();

/**
 * Returns the Porter2 (Snowball English) stem of a lowercase word: "running" -> "run",
 * "generously" -> "generous". Words the algorithm leaves alone (two letters or fewer, or not
 * starting with a Latin letter or digit) skip the stemmer. Results are memoised; when the cache is
 * full it is replaced rather than evicted entry by entry, which keeps every hit a single lookup.
 */
export function stemEnglish(word: string): string {
  if (word.length <= 2 || word.charCodeAt(0) >= 0x250) return word;
  let stem = stemCache.get(word);
  if (stem === undefined) {
    stem = stemEnglishUncached(word);
    if (stemCache.size >= stemCacheLimit) stemCache = new Map();
    stemCache.set(word, stem);
  }
  return stem;
}

/**
 * {@link stemEnglish} without its memo, for callers that memoise a whole filter chain themselves
 * (the `english` analyzer), so that a word is not cached twice.
 */
export function stemEnglishUncached(word: string): string {
  if (word.length <= 2 || word.charCodeAt(0) >= 0x250) return word;
  return porter2(word);
}
