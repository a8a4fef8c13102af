/**
 * @module engine/suggest
 * Completion suggestions: word n-grams of `suggest` fields collected while documents are buffered
 * (suggest-collector.ts), stored per segment in `.sgt` files (codec/suggestions), merged with the
 * segments (suggest-merger.ts), and served by prefix with typo tolerance, ranked by document
 * count and fused across fields (suggester.ts). Like the rest of the engine it does no I/O of its
 * own: segment files come through the segment reader and its Directory.
 */
export { suggest } from './suggester.js';
export type { Suggestion, SuggestResponse } from './suggester.js';
export { prepareSuggest } from './suggest-request.js';
export type { PreparedSuggest, SuggestRequest } from './suggest-request.js';
