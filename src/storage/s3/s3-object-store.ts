/**
 * The few S3 calls an index needs, on the objects under one `bucket/prefix/`: whole and ranged GETs
 * (conditional on an ETag), PUTs (conditional on `If-None-Match: *` or `If-Match`), multipart
 * uploads of large files, deletes and listing. It counts the bytes it moves, for metrics and
 * benchmarks, and turns "no such key" into the engine's `file_not_found` and "no such bucket" into
 * `bucket_not_found`.
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { YarrowError } from '../../engine/errors.js';
import { fileNotFoundError, rangePastEndError } from '../lock-owner.js';

/** Where an index's objects live and how to reach the server. */
export interface S3Location {
  readonly bucket: string;
  /** Key prefix of the index, without a trailing slash ('' for the bucket's root). */
  readonly prefix: string;
  readonly region?: string | undefined;
  /** An S3-compatible endpoint (MinIO, versitygw, moto...). */
  readonly endpoint?: string | undefined;
  /** Path-style addressing; the default is true when an endpoint is given. */
  readonly forcePathStyle?: boolean | undefined;
}

/** Bytes and requests an object store has moved since it was created. */
export interface TransferStats {
  bytesDownloaded: number;
  bytesUploaded: number;
  requests: number;
}

/** Objects at or above this size go up as multipart uploads. */
const MULTIPART_THRESHOLD = 16 * 1024 * 1024;
const PART_SIZE = 8 * 1024 * 1024;
/** Parts of one upload in flight at once. */
const PART_CONCURRENCY = 4;

/** Creates an S3 client; credentials come from the SDK's standard chain (env, profile, roles). */
export function createS3Client(location: S3Location, env: Readonly<Record<string, string | undefined>> = process.env): S3Client {
  const endpoint = location.endpoint;
  return new S3Client({
    region: location.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    // Non-AWS servers often reject the newer default checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(endpoint === undefined ? {} : { endpoint }),
    forcePathStyle: location.forcePathStyle ?? endpoint !== undefined,
  });
}

/** The outcome of a conditional GET. */
export type ConditionalGet = { readonly bytes: Uint8Array; readonly etag: string } | 'not-modified';

/** The objects of one index, addressed by flat file names. */
export class S3ObjectStore {
  readonly stats: TransferStats = { bytesDownloaded: 0, bytesUploaded: 0, requests: 0 };
  private readonly keyPrefix: string;

  constructor(
    readonly client: S3Client,
    readonly location: S3Location,
  ) {
    const trimmed = location.prefix.replace(/^\/+|\/+$/g, '');
    this.keyPrefix = trimmed === '' ? '' : `${trimmed}/`;
    // Every call (multipart uploads too) goes through the client: a missing bucket becomes one
    // readable error there, and is never mistaken for a missing key.
    client.middlewareStack.add(
      (next) => async (args) => {
        try {
          return await next(args);
        } catch (error) {
          if ((error as { name?: string } | null)?.name === 'NoSuchBucket') throw this.bucketNotFound(error);
          throw error;
        }
      },
      { step: 'initialize', name: 'yarrowNoSuchBucket', override: true },
    );
  }

  private bucketNotFound(cause: unknown): YarrowError {
    const { bucket, endpoint, region } = this.location;
    const at = endpoint ?? `AWS S3${region === undefined ? '' : ` (${region})`}`;
    return new YarrowError('bucket_not_found', `S3 bucket ${bucket} does not exist at ${at} (store ${this.describe()}): create it or fix store.s3.bucket`, { bucket, ...(endpoint === undefined ? {} : { endpoint }) }, { cause });
  }

  /** `s3://bucket/prefix/`, for logs and error messages. */
  describe(name = ''): string {
    return `s3://${this.location.bucket}/${this.keyPrefix}${name}`;
  }

  /** Names of the objects directly under the prefix (deeper keys are not the index's). */
  async list(): Promise<string[]> {
    const names: string[] = [];
    let token: string | undefined;
    do {
      this.stats.requests++;
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: this.keyPrefix, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? []) {
        const name = item.Key?.slice(this.keyPrefix.length);
        if (name !== undefined && name !== '' && !name.includes('/')) names.push(name);
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return names;
  }

  /** Size and ETag of an object, or undefined when it does not exist. */
  async head(name: string): Promise<{ size: number; etag: string } | undefined> {
    try {
      this.stats.requests++;
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.key(name) }));
      return { size: out.ContentLength ?? 0, etag: out.ETag ?? '' };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Reads a whole object; with `ifNoneMatch`, answers 'not-modified' when its ETag is unchanged. */
  async get(name: string, ifNoneMatch?: string): Promise<ConditionalGet> {
    try {
      this.stats.requests++;
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.location.bucket, Key: this.key(name), ...(ifNoneMatch === undefined ? {} : { IfNoneMatch: ifNoneMatch }) }),
      );
      const bytes = await out.Body!.transformToByteArray();
      this.stats.bytesDownloaded += bytes.length;
      return { bytes, etag: out.ETag ?? '' };
    } catch (error) {
      if (ifNoneMatch !== undefined && statusOf(error) === 304) return 'not-modified';
      if (isNotFound(error)) throw fileNotFoundError(name, this.describe(name), error);
      throw error;
    }
  }

  /** Reads `length` bytes at `offset` with a Range GET; a range past the end is `corrupt_index`. */
  async getRange(name: string, offset: number, length: number): Promise<Uint8Array> {
    if (length === 0) {
      const head = await this.head(name);
      if (head === undefined) throw fileNotFoundError(name, this.describe(name));
      if (offset > head.size) throw rangePastEndError(name, offset, length, head.size);
      return new Uint8Array(0);
    }
    let bytes: Uint8Array;
    try {
      this.stats.requests++;
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.location.bucket, Key: this.key(name), Range: `bytes=${offset}-${offset + length - 1}` }),
      );
      bytes = await out.Body!.transformToByteArray();
    } catch (error) {
      if (isNotFound(error)) throw fileNotFoundError(name, this.describe(name), error);
      if (statusOf(error) === 416) throw rangePastEndError(name, offset, length, offset);
      throw error;
    }
    this.stats.bytesDownloaded += bytes.length;
    if (bytes.length !== length) throw rangePastEndError(name, offset, length, offset + bytes.length);
    return bytes;
  }

  /**
   * Writes a whole object in one PUT (readers see the old or the new object, never a mix).
   * `ifNoneMatch: '*'` creates only; `ifMatch` replaces only that version. Resolves to the new ETag;
   * a failed condition rejects with an error {@link isPreconditionFailed} recognises.
   */
  async put(name: string, bytes: Uint8Array, condition: { ifNoneMatch?: '*'; ifMatch?: string } = {}): Promise<string> {
    this.stats.requests++;
    const out = await this.client.send(
      new PutObjectCommand({
        Bucket: this.location.bucket,
        Key: this.key(name),
        Body: bytes,
        ContentLength: bytes.length,
        ...(condition.ifNoneMatch === undefined ? {} : { IfNoneMatch: condition.ifNoneMatch }),
        ...(condition.ifMatch === undefined ? {} : { IfMatch: condition.ifMatch }),
      }),
    );
    this.stats.bytesUploaded += bytes.length;
    return out.ETag ?? '';
  }

  /** Uploads a local file: one PUT when small, else a multipart upload with parts sent in parallel. */
  async upload(name: string, path: string, size: number): Promise<void> {
    if (size < MULTIPART_THRESHOLD) {
      await this.put(name, new Uint8Array(await readFile(path)));
      return;
    }
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.location.bucket, Key: this.key(name), Body: createReadStream(path) },
      partSize: PART_SIZE,
      queueSize: PART_CONCURRENCY,
      leavePartsOnError: false,
    });
    this.stats.requests += Math.ceil(size / PART_SIZE) + 2;
    await upload.done();
    this.stats.bytesUploaded += size;
  }

  /** Deletes an object; a missing one is not an error. */
  async delete(name: string): Promise<void> {
    this.stats.requests++;
    await this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.key(name) }));
  }

  private key(name: string): string {
    return this.keyPrefix + name;
  }

}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

/** Whether an S3 error means "no such key" (404). */
export function isNotFound(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(error) === 404;
}

/** Whether an S3 error is a failed `If-None-Match` / `If-Match` condition (412, or 409 on a race). */
export function isPreconditionFailed(error: unknown): boolean {
  const status = statusOf(error);
  return status === 412 || status === 409;
}
