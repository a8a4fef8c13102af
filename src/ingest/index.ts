/**
 * @module ingest
 * Pull indexing's input side: sources that turn a URL into byte streams (local files and
 * directories, HTTP, S3), decompression by magic bytes (gzip, zstd), a JSON Lines splitter that
 * yields batches with their source and line numbers, and progress reporting. It may import the
 * engine's public surface (errors) but never storage, config, api or cli code. The S3 source is
 * exported from `./s3-file-source.js` only, so the AWS SDK loads only when an s3:// URL is used.
 */
export type { FileSource, SourceObject } from './file-source.js';
export { LocalFileSource } from './local-file-source.js';
export type { LocalFileSourceOptions } from './local-file-source.js';
export { HttpFileSource } from './http-file-source.js';
export { parseSourceUrl, SourceUrlError } from './source-url.js';
export type { SourceUrl } from './source-url.js';
export { SourceError, SOURCE_UNAVAILABLE, describeCause } from './source-error.js';
export { decompressByMagic, detectCompression } from './decompress.js';
export type { Compression } from './decompress.js';
export { createZstdDecompressor } from './zstd-decompressor.js';
export { readJsonlBatches } from './jsonl-batches.js';
export type { JsonlBatch, JsonlBatchOptions } from './jsonl-batches.js';
export { ProgressReporter } from './progress-reporter.js';
export type { Progress, ProgressDisplay, ProgressReporterOptions } from './progress-reporter.js';
export { FileIndexer } from './file-indexer.js';
export type { FileIndexerOptions, FileResult, IndexingTarget } from './file-indexer.js';
