import type { Analyzer } from './analyzer.js';
import { ErrorCode, YarrowError } from '../errors.js';
import { createEnglishAnalyzer } from './english-analyzer.js';
import { createKeywordAnalyzer } from './keyword-analyzer.js';
import { createStandardAnalyzer } from './standard-analyzer.js';
import { createWhitespaceAnalyzer } from './whitespace-analyzer.js';

// Analyzers are stateless apart from module-level caches, so one shared instance of each is enough.
const registry = new Map<string, Analyzer>(
  [createStandardAnalyzer(), createEnglishAnalyzer(), createKeywordAnalyzer(), createWhitespaceAnalyzer()].map(
    (analyzer) => [analyzer.name, analyzer],
  ),
);

/** Names accepted by {@link getAnalyzer}, in the order the docs list them. */
export const analyzerNames: readonly string[] = Object.freeze([...registry.keys()]);

/**
 * Returns the analyzer registered under `name`, or throws YarrowError(ErrorCode.invalidMapping, ...)
 * naming the unknown analyzer and the known ones.
 */
export function getAnalyzer(name: string): Analyzer {
  const analyzer = registry.get(name);
  if (analyzer === undefined) {
    throw new YarrowError(
      ErrorCode.invalidMapping,
      `unknown analyzer "${name}"; known analyzers: ${analyzerNames.join(', ')}`,
      { expected: analyzerNames.join(' | '), actual: name },
    );
  }
  return analyzer;
}
