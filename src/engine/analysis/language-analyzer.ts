import type { Analyzer } from './analyzer.js';
import { createFilteredAnalyzer, memoizeFilter } from './filtered-analyzer.js';
import type { LanguageSpec } from './languages.js';
import { scanStandard, tokenizeStandard, tokenizeStandardKeepCase } from './standard-analyzer.js';
import { loadStemmer } from './stemmers.js';
import { loadStopWords } from './stop-words.js';

const identity = (token: string): string => token;
const noStopWords: ReadonlySet<string> = new Set();

/**
 * Builds the analyzer of one language: the standard tokenizer (lowercasing, unless the language
 * lowercases itself), then per token the language's normalisation, its stop list (dropped words
 * keep their positions) and its stemmer, memoised per raw token. Loads the stop list and stemmer
 * now, so call it when the analyzer is first needed.
 */
export function createLanguageAnalyzer(spec: LanguageSpec): Analyzer {
  const normalize = spec.normalize ?? identity;
  const stopWords = spec.stop === null ? noStopWords : loadStopWords(spec.stop, spec.keepCase === true ? normalize : (w) => normalize(w.toLowerCase()), spec.stopCodePage);
  const stem = spec.stemmer === null ? identity : loadStemmer(spec.stemmer);
  const filter = (token: string): string | null => {
    const word = normalize(token);
    if (word.length === 0 || stopWords.has(word)) return null;
    return stem(word);
  };
  const memoized = memoizeFilter(filter);
  return spec.keepCase === true
    ? createFilteredAnalyzer(spec.name, tokenizeStandardKeepCase, memoized)
    : createFilteredAnalyzer(spec.name, tokenizeStandard, memoized, scanStandard, filter);
}
