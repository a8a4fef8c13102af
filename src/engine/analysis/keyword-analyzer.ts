import type { Analyzer, TokenSink } from './analyzer.js';

/**
 * Creates the `keyword` analyzer: the whole value is one term, unchanged (no lowercasing, no length
 * limit), for exact-match fields such as ids, tags and enums. An empty string yields no term.
 */
export function createKeywordAnalyzer(): Analyzer {
  return {
    name: 'keyword',
    analyze(text: string, sink: TokenSink, startPosition = 0): number {
      if (text.length === 0) return startPosition;
      sink(text, startPosition, 0, text.length);
      return startPosition + 1;
    },
  };
}
