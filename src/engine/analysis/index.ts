/**
 * @module
 * Text analysis: turns field text into the terms, positions and source offsets the index and the
 * highlighter use. Tokenizers are char-code loops over a class table (the indexing hot path);
 * language analyzers add per-token filters (normalisation, stop words, Snowball stemmers) on top.
 * Pure computation: never imports I/O modules, schema, codecs or anything outside `engine/errors`.
 */
export type { Analyzer, SpanSink, TokenSink } from './analyzer.js';
export { maxTokenLength, SpanFlags, spanTerm } from './analyzer.js';
export { analyzerNames, getAnalyzer } from './analyzers.js';
export { englishStopWords } from './english-analyzer.js';
export { stemEnglish } from './english-stemmer.js';
export type { LanguageSpec } from './languages.js';
export { languages } from './languages.js';
export { scanStandard, tokenizeStandard, tokenizeStandardKeepCase } from './standard-analyzer.js';
