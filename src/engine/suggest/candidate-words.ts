/**
 * How text becomes completion candidates, shared by indexing (every word n-gram of a field's
 * values) and querying (the words typed so far): the `analyze` analyzer of the field's `suggest`
 * splits the text into words, and each word is kept as the user wrote it (the source slice, not
 * the stemmed term), so "Running Shoes" suggests "running shoes", never "run shoe". Stop words are
 * kept when the analyzer exposes its tokenizer, so "lord of the rings" stays whole.
 */
import type { Analyzer } from '../analysis/analyzer.js';

/** Longest candidate kept, in UTF-16 code units; longer n-grams are not useful completions. */
export const MAX_CANDIDATE_LENGTH = 200;

/** The words of `text` as written (source slices, inner whitespace collapsed). */
export function surfaceWords(analyzer: Analyzer, text: string): string[] {
  const words: string[] = [];
  const sink = (_term: string, _position: number, start: number, end: number): void => {
    let word = text.slice(start, end);
    // The keyword analyzer yields the whole value: a candidate is words joined by single spaces.
    if (/\s/.test(word)) word = word.split(/\s+/).filter((w) => w !== '').join(' ');
    if (word !== '') words.push(word);
  };
  if (analyzer.decomposed !== undefined) analyzer.decomposed.tokenize(text, sink);
  else analyzer.analyze(text, sink);
  return words;
}

/** The lookup form of a word or candidate: lower-cased, as keys are stored. */
export function foldCase(s: string): string {
  return s.toLowerCase();
}

/**
 * Calls `emit(start, n, key)` for every run of `min`..`max` consecutive words of `folded` (the
 * lower-cased words): `key` is the run joined by single spaces. Runs longer than
 * {@link MAX_CANDIDATE_LENGTH} are skipped. The written form of a run, when needed, is
 * {@link joinWords} of the same words as written.
 */
export function wordNgrams(folded: readonly string[], min: number, max: number, emit: (start: number, n: number, key: string) => void): void {
  for (let start = 0; start < folded.length; start++) {
    let key = '';
    for (let n = 1; n <= max && start + n <= folded.length; n++) {
      key = n === 1 ? folded[start] : `${key} ${folded[start + n - 1]}`;
      if (key.length > MAX_CANDIDATE_LENGTH) break;
      if (n >= min) emit(start, n, key);
    }
  }
}

/** Words `start` to `start + n - 1` of `words`, joined by single spaces. */
export function joinWords(words: readonly string[], start: number, n: number): string {
  return words.slice(start, start + n).join(' ');
}
