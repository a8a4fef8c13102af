import type { Analyzer } from './analyzer.js';
import { ErrorCode, YarrowError } from '../errors.js';
import { createEnglishAnalyzer } from './english-analyzer.js';
import { createKeywordAnalyzer } from './keyword-analyzer.js';
import { createLanguageAnalyzer } from './language-analyzer.js';
import { languages } from './languages.js';
import { createStandardAnalyzer } from './standard-analyzer.js';
import { createWhitespaceAnalyzer } from './whitespace-analyzer.js';

/**
 * Every accepted analyzer name and how to build it. Yarrow's own names come first, then
 * Nixiesearch's: `default` (Lucene's StandardAnalyzer, Yarrow's `standard`), `en`/`english`, and
 * each language's code, name and aliases. Language analyzers load their stop list and stemmer on
 * first use; all names of one language share one instance (and so one memo) under their own name.
 */
const factories = new Map<string, () => Analyzer>();
const built = new Map<string, Analyzer>();

function register(names: readonly string[], create: () => Analyzer): void {
  let shared: Analyzer | undefined;
  for (const name of names) {
    factories.set(name, () => {
      shared ??= create();
      return shared.name === name ? shared : { ...shared, name };
    });
  }
}

register(['standard', 'default'], createStandardAnalyzer);
register(['english', 'en'], createEnglishAnalyzer);
register(['keyword'], createKeywordAnalyzer);
register(['whitespace'], createWhitespaceAnalyzer);
for (const spec of languages) register([spec.code, spec.name, ...(spec.aliases ?? [])], () => createLanguageAnalyzer(spec));

/** Names accepted by {@link getAnalyzer}, in the order the docs list them. */
export const analyzerNames: readonly string[] = Object.freeze([...factories.keys()]);

/**
 * Returns the analyzer registered under `name` (built on first request, then shared), or throws
 * YarrowError(ErrorCode.invalidMapping, ...) naming the unknown analyzer and the known ones.
 */
export function getAnalyzer(name: string): Analyzer {
  let analyzer = built.get(name);
  if (analyzer !== undefined) return analyzer;
  const create = factories.get(name);
  if (create === undefined) {
    throw new YarrowError(
      ErrorCode.invalidMapping,
      `unknown analyzer "${name}"; known analyzers: ${analyzerNames.join(', ')}`,
      { expected: analyzerNames.join(' | '), actual: name },
    );
  }
  analyzer = create();
  built.set(name, analyzer);
  return analyzer;
}
