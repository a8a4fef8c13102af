/**
 * @module storage/s3
 *
 * The index on S3-compatible object storage: the object calls ({@link S3ObjectStore}), the write
 * lease ({@link S3Lease}), the local cache of downloaded files ({@link FileCache}) and the
 * {@link S3Directory} that combines them. It loads the AWS SDK, so callers import it only when a
 * store is on S3.
 */
export { S3Directory, S3_DIRECTORY_DEFAULTS } from './s3-directory.js';
export type { S3DirectoryOptions } from './s3-directory.js';
export { S3ObjectStore, createS3Client, isNotFound, isPreconditionFailed } from './s3-object-store.js';
export type { S3Location, TransferStats } from './s3-object-store.js';
export { S3Lease } from './s3-lease.js';
export { FileCache } from './file-cache.js';
