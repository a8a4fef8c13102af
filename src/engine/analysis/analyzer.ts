/**
 * Receives each token: the term text and its 0-based position (positions count removed stop words
 * as gaps, like Lucene).
 */
export type TokenSink = (term: string, position: number) => void;

/**
 * Turns field text into the terms the index stores. Implementations are stateless apart from caches,
 * so one instance serves every field and every call.
 */
export interface Analyzer {
  readonly name: string;
  /**
   * Tokenizes and filters `text`, calling `sink` for each term in order. Positions start at
   * `startPosition` (default 0). Returns the next free position (last position + 1, or
   * startPosition if no token), so multi-valued fields can continue positions with a gap.
   */
  analyze(text: string, sink: TokenSink, startPosition?: number): number;
}

/** Longest token, in UTF-16 code units, that tokenizing analyzers keep; longer ones are dropped. */
export const maxTokenLength = 255;
