/**
 * @module
 * Text analysis: turns field text into the terms and positions the index stores. Tokenizers are
 * char-code loops over a class table (the indexing hot path); language analyzers add filters on top.
 * Pure computation: never imports I/O modules, schema, codecs or anything outside `engine/errors`.
 */
export type { Analyzer, TokenSink } from './analyzer.js';
export { maxTokenLength } from './analyzer.js';
export { analyzerNames, getAnalyzer } from './analyzers.js';
export { englishStopWords } from './english-analyzer.js';
export { stemEnglish } from './english-stemmer.js';
export { tokenizeStandard } from './standard-analyzer.js';
