import type { Analyzer, TokenSink } from './analyzer.js';

/** A tokenizer: calls the sink per token with positions from `startPosition`, returns the next free one. */
export type Tokenizer = (text: string, sink: TokenSink, startPosition?: number) => number;

/** The per-token filter chain of an analyzer: the term for a raw token, or null to drop it. */
export type TokenFilter = (token: string) => string | null;

/**
 * Bound on memoised filter results per analyzer. Text repeats a small vocabulary, so a cache this
 * size answers nearly every lookup, while a Snowball stemmer costs microseconds per call.
 */
const memoLimit = 400_000;

/**
 * Wraps `filter` in a memo keyed by raw token, so that the whole chain (elision, stop word,
 * normalisation, stem) costs one hash lookup for a token seen before. When the memo is full it is
 * replaced rather than evicted entry by entry, which keeps every hit a single lookup.
 */
export function memoizeFilter(filter: TokenFilter): TokenFilter {
  let memo = new Map<string, string | null>();
  return (token) => {
    let term = memo.get(token);
    if (term === undefined) {
      term = filter(token);
      if (memo.size >= memoLimit) memo = new Map();
      memo.set(token, term);
    }
    return term;
  };
}

/**
 * Creates an analyzer that runs `tokenize` and passes each token through `normalize` (usually
 * memoised with {@link memoizeFilter}); tokens it maps to null are dropped but keep their position,
 * so phrase queries see the gap. Offsets are the tokenizer's. Exposes both parts as `decomposed`,
 * with `scan`, the tokenizer's string-free form, when given, and `normalizeUncached`, the filter
 * `normalize` memoises, when given.
 */
export function createFilteredAnalyzer(name: string, tokenize: Tokenizer, normalize: TokenFilter, scan?: Analyzer['scan'], normalizeUncached?: TokenFilter): Analyzer {
  return {
    name,
    analyze(text: string, sink: TokenSink, startPosition = 0): number {
      let next = startPosition;
      tokenize(
        text,
        (token, position, start, end) => {
          const term = normalize(token);
          if (term === null) return;
          sink(term, position, start, end);
          next = position + 1;
        },
        startPosition,
      );
      return next;
    },
    decomposed: {
      tokenize,
      normalize,
      ...(scan === undefined ? {} : { scan }),
      ...(normalizeUncached === undefined ? {} : { normalizeUncached }),
    },
  };
}
