import type { Analyzer } from '../../../src/engine/analysis/index.js';

/** Runs `analyzer` and returns its terms, positions and return value. */
export function run(analyzer: Analyzer, text: string, startPosition?: number) {
  const terms: string[] = [];
  const positions: number[] = [];
  const sink = (term: string, position: number): void => {
    terms.push(term);
    positions.push(position);
  };
  const next = startPosition === undefined ? analyzer.analyze(text, sink) : analyzer.analyze(text, sink, startPosition);
  return { terms, positions, next };
}
