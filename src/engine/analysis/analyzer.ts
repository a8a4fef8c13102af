/**
 * Receives each token, in order: the term text, its 0-based position (positions count removed stop
 * words as gaps, like Lucene), and the `[start, end)` UTF-16 offsets of the source characters that
 * produced it in the analyzed text (the term may differ from that slice: lowercased, stemmed).
 * Called once per token with plain numbers, so a token stream allocates nothing but the term.
 */
export type TokenSink = (term: string, position: number, start: number, end: number) => void;

/**
 * Receives each raw token of a span scan: its position, its `[start, end)` offsets in the text,
 * {@link SpanFlags} saying how the source slice becomes the token ({@link spanTerm}) and the span's
 * `hash` (`hashSpan` of span-hash.ts, computed while scanning; it keys nothing when the flags
 * say `upperOther` or `curlyApostrophe`). No string is made, so a consumer can intern the
 * characters in place (lowercasing ASCII inline when only `upperAscii` is set) and slice only
 * terms it has not seen.
 */
export type SpanSink = (position: number, start: number, end: number, flags: number, hash: number) => void;

/** Bits of a span's flags. */
export const SpanFlags = {
  /** The slice has ASCII capitals (A-Z), and no other character that lowercasing changes. */
  upperAscii: 1,
  /** The slice has a non-ASCII character that lowercasing changes: use `toLowerCase()`. */
  upperOther: 2,
  /** The slice has U+2019, which the token writes as an ASCII apostrophe. */
  curlyApostrophe: 4,
} as const;

/**
 * The token a span stands for: the source slice, lowercased when flagged (pass flags without the
 * upper bits to keep case), with U+2019 written as an apostrophe.
 */
export function spanTerm(text: string, start: number, end: number, flags: number): string {
  let term = text.slice(start, end);
  if ((flags & (SpanFlags.upperAscii | SpanFlags.upperOther)) !== 0) term = term.toLowerCase();
  if ((flags & SpanFlags.curlyApostrophe) !== 0) term = term.replaceAll('\u2019', "'");
  return term;
}

/**
 * Turns field text into the terms the index stores. Implementations are stateless apart from caches,
 * so one instance serves every field and every call.
 */
export interface Analyzer {
  /** The name the mapping uses for it (a language code and its name are two analyzers alike). */
  readonly name: string;
  /**
   * Tokenizes and filters `text`, calling `sink` for each term in order. Positions start at
   * `startPosition` (default 0); offsets are always relative to `text`. Returns the next free
   * position (last position + 1, or startPosition if no token), so multi-valued fields can
   * continue positions with a gap.
   */
  analyze(text: string, sink: TokenSink, startPosition?: number): number;
  /**
   * When present, `analyze` without strings: the same tokens as spans, each term being
   * `spanTerm(text, start, end, flags)`, for analyzers that are a tokenizer alone (`standard`).
   */
  readonly scan?: (text: string, sink: SpanSink, startPosition?: number) => number;
  /**
   * When the analyzer is a tokenizer followed by a per-token filter that depends on nothing but
   * the token, it exposes both parts: `analyze` equals `tokenize` with `normalize` applied to each
   * token (null drops the token but keeps its position). An indexer can then cache `normalize` by
   * raw token and pay one hash lookup per token instead of one per filter stage, and the
   * highlighter sees every word (stop words too) to cut fragments on word boundaries.
   */
  readonly decomposed?: {
    tokenize(text: string, sink: TokenSink, startPosition?: number): number;
    normalize(token: string): string | null;
    /**
     * When `normalize` is memoised: the same filter without the memo, for a caller that caches
     * results by raw token itself (the indexer's shared vocabulary), so no token is cached twice.
     */
    readonly normalizeUncached?: (token: string) => string | null;
    /**
     * When present, `tokenize` without strings: the same tokens as spans, each token being
     * `spanTerm(text, start, end, flags)`. Positions and the return value are those of `tokenize`.
     */
    readonly scan?: (text: string, sink: SpanSink, startPosition?: number) => number;
  };
}

/** Longest token, in UTF-16 code units, that tokenizing analyzers keep; longer ones are dropped. */
export const maxTokenLength = 255;
