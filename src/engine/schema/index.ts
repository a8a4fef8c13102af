/**
 * @module
 * The schema layer: the mapping model parsed from the config's `schema` section (with errors that
 * name the full config path, all of them at once), its JSON form for the index manifest, wildcard
 * field names, and per-document validation that normalises values for the writer. Pure
 * computation: imports only `engine/errors` and the analyzer names from `engine/analysis`; never
 * I/O, codecs, segments or search.
 */
export { checkMapping, fieldTypes, mappingFromJson, mappingToJson, parseMapping } from './mapping.js';
export type { BaseType, FieldMapping, Mapping } from './mapping.js';
export { MappingProblems } from './mapping-problems.js';
export type { MappingProblem } from './mapping-problems.js';
export { isWildcardName } from './field-name.js';
export { DEFAULT_ANALYZER, DISTANCES, MAX_VECTOR_DIM, QUANTIZATIONS } from './text-options.js';
export type { SemanticMapping, SuggestMapping } from './text-options.js';
export { describeJsonType, validateDocument } from './document.js';
export type { DocumentLocation, FieldValue, ValidDocument } from './document.js';
export { parseIsoDate, parseIsoDateTime } from './date-time.js';
