/**
 * Typo tolerance in the word being typed: the key ranges of candidates whose last typed word has a
 * prefix within one edit (insertion, deletion, substitution or transposition of neighbours) of
 * what was typed. As Lucene's FuzzySuggester does by default, the first letter must be right and
 * words shorter than {@link MIN_FUZZY_LENGTH} are not corrected (a typo in two letters is a guess).
 *
 * Instead of walking a Levenshtein automaton, the variants within one edit are spelled out: a
 * deletion or transposition is one variant per position, and a substitution or insertion at a
 * position takes only the letters that some key actually has there, found by skipping through
 * the sorted keys (`SuggestionField.nextLetters`, a trie walk over the sorted array). Each variant
 * is one prefix range.
 */
import type { SuggestionField } from '../codec/suggestions/suggestions-reader.js';

/** Shortest last word (in UTF-16 code units) that is corrected. */
export const MIN_FUZZY_LENGTH = 3;
/** Letters tried per position for substitutions and insertions (bounds the work for large scripts). */
const MAX_LETTERS = 128;

/**
 * Disjoint, sorted `[lo, hi)` ranges of the keys of `field` that start with `head` followed by a
 * variant within one edit of `word` (the exact spelling excluded) keeping its first letter.
 */
export function fuzzyPrefixRanges(field: SuggestionField, head: string, word: string): [number, number][] {
  if (word.length < MIN_FUZZY_LENGTH) return [];
  const variants = new Set<string>();
  for (let i = 1; i < word.length; i++) {
    const before = word.slice(0, i);
    variants.add(before + word.slice(i + 1));
    if (i + 1 < word.length) variants.add(before + word[i + 1] + word[i] + word.slice(i + 2));
    for (const c of field.nextLetters(head + before, MAX_LETTERS)) {
      variants.add(before + c + word.slice(i + 1));
      variants.add(before + c + word.slice(i));
    }
  }
  variants.delete(word);
  const ranges: [number, number][] = [];
  for (const v of variants) {
    const r = field.prefixRange(head + v);
    if (r[0] < r[1]) ranges.push(r);
  }
  return mergeRanges(ranges);
}

/** Sorts ranges and joins overlapping ones (prefix ranges are nested or disjoint). */
export function mergeRanges(ranges: [number, number][]): [number, number][] {
  ranges.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const r of ranges) {
    const last = out.length === 0 ? null : out[out.length - 1];
    if (last !== null && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}
