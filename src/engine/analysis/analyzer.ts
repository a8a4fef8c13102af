/**
 * Receives each token, in order: the term text, its 0-based position (positions count removed stop
 * words as gaps, like Lucene), and the `[start, end)` UTF-16 offsets of the source characters that
 * produced it in the analyzed text (the term may differ from that slice: lowercased, stemmed).
 * Called once per token with plain numbers, so a token stream allocates nothing but the term.
 */
export type TokenSink = (term: string, position: number, start: number, end: number) => void;

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
   * When the analyzer is a tokenizer followed by a per-token filter that depends on nothing but
   * the token, it exposes both parts: `analyze` equals `tokenize` with `normalize` applied to each
   * token (null drops the token but keeps its position). An indexer can then cache `normalize` by
   * raw token and pay one hash lookup per token instead of one per filter stage, and the
   * highlighter sees every word (stop words too) to cut fragments on word boundaries.
   */
  readonly decomposed?: {
    tokenize(text: string, sink: TokenSink, startPosition?: number): number;
    normalize(token: string): string | null;
  };
}

/** Longest token, in UTF-16 code units, that tokenizing analyzers keep; longer ones are dropped. */
export const maxTokenLength = 255;
