import type { Analyzer } from './analyzer.js';
import { stemEnglishUncached } from './english-stemmer.js';
import { createFilteredAnalyzer, memoizeFilter } from './filtered-analyzer.js';
import { scanStandard, tokenizeStandard } from './standard-analyzer.js';

/**
 * Lucene's classic English stop set (`EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`): small on purpose, so
 * that phrases such as "to be or not to be" keep most of their words.
 */
export const englishStopWords: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it',
  'no', 'not', 'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they',
  'this', 'to', 'was', 'will', 'with',
]);

/**
 * Creates the `english` analyzer (also registered as `en`): {@link tokenizeStandard}, then
 * possessive removal ("ship's" -> "ship"; the tokenizer has already turned U+2019 into an
 * apostrophe), then stop words, which are dropped but keep their positions so phrase queries still
 * see the gap, then Porter2 stemming. The filters are memoised per raw token.
 */
export function createEnglishAnalyzer(name = 'english'): Analyzer {
  return createFilteredAnalyzer(name, tokenizeStandard, englishFilter, scanStandard, normalizeEnglish);
}

/** The english filters for one lowercase token: possessive, stop word (null), Porter2 stem. */
function normalizeEnglish(token: string): string | null {
  let term = token;
  const n = term.length;
  if (n > 2 && term.charCodeAt(n - 1) === 0x73 && term.charCodeAt(n - 2) === 0x27) {
    term = term.slice(0, n - 2);
  }
  // Stop words are short: only short words pay the set lookup.
  if (term.length <= 5 && englishStopWords.has(term)) return null;
  return stemEnglishUncached(term);
}

/** One memo for every name the English analyzer is registered under. */
const englishFilter = memoizeFilter(normalizeEnglish);
