/**
 * @module engine
 * Yarrow's index engine: mapping and validation, analysis, the segment codecs, the write path
 * (buffer, write-ahead log, commits, merges) and search (BM25 with dynamic pruning).
 *
 * It performs no I/O of its own: storage comes in through the {@link Directory} port and logs go
 * out through the {@link Logger} port. It must never import file-system, network, HTTP, Kafka or
 * S3 code (enforced by the dependency rules in .dependency-cruiser.cjs).
 */
export { Index, LOCK_FILE } from './search-index.js';
export { CommitFollower } from './reader/commit-follower.js';
export type { FollowOptions, FollowHealth } from './reader/commit-follower.js';
export type { IndexReader } from './reader/index-reader.js';
export type { DocumentWrites, WriterFigures } from './commit/document-writer.js';
export type { BulkLoad, BulkLoadOptions, BulkWorkerStarter } from './commit/bulk-load.js';
export { prestartBulkThreads, stopPrestartedBulkThreads } from './commit/bulk-load.js';
export { lineDocumentId } from './commit/line-document-id.js';
export { foregroundGate } from './commit/foreground-gate.js';
export { IndexFiles, indexFileKinds, fileKindOf, isDataFile, isMutableFile, walFile, walGenerationOf, MANIFEST_FILE } from './index-files.js';
export type { IndexFileKind, FileLifetime } from './index-files.js';
export type { IndexOpenOptions, SearchRequest, SearchResponse, SearchHit, IndexStats, BatchSource, SegmentFigures } from './search-index.js';
export type { SuggestRequest, SuggestResponse, Suggestion } from './suggest/index.js';
export type { CommitResult, WriterOptions } from './commit/index-writer.js';
export type { Directory, Appender, Lock, LockOwner, RandomAccessFile } from './directory.js';
export { configureVectorCache, vectorCacheStats } from './vector/shared-block-cache.js';
export type { BlockCacheOptions, BlockCacheStats } from './vector/block-cache.js';
export { YarrowError, ErrorCode, ExitCode, errorCatalogue, isErrorCode, httpStatusOf, exitCodeOfCode } from './errors.js';
export type { ErrorDetails, ErrorEntry } from './errors.js';
export type { DocumentLocation, ValidDocument } from './schema/document.js';
export type { Logger } from './logger.js';
export type { Embedder, EmbedKind } from './embedder.js';
export { silentLogger } from './logger.js';
export { TimeSlicer, yieldToEventLoop } from './event-loop.js';
export { checkMapping, mappingToJson, parseMapping } from './schema/mapping.js';
export { decodeJsonLine, isBlankLine, parseJsonLine } from './schema/json-line.js';
export { JsonValueSplitter } from './schema/json-value-stream.js';
export type { ParsedValue, ValueLocation } from './schema/json-value-stream.js';
export { invalidUtf8Offset } from './schema/utf8.js';
export type { Mapping, FieldMapping } from './schema/mapping.js';
export { MappingProblems, isWildcardName } from './schema/index.js';
export type { MappingProblem, SemanticMapping, SuggestMapping } from './schema/index.js';
export { getAnalyzer, analyzerNames } from './analysis/analyzers.js';
export type { Analyzer } from './analysis/analyzer.js';
