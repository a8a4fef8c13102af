/**
 * Opens the Directory an index lives in, from the config's `store` section (or the index's own
 * override): `local` -> `<path>/<index>`, `memory` -> a fresh in-process directory, `s3` ->
 * `s3://bucket/prefix/<index>/` with a local working directory `<workPath>/<index>`. The S3 code
 * (and the AWS SDK) is loaded only when a store is on S3.
 */
import { join, resolve } from 'node:path';
import type { StoreConfig } from '../../config/index.js';
import type { Directory } from '../../engine/index.js';
import { LocalDirectory, MemoryDirectory } from '../../storage/index.js';

/** Bytes exchanged with a remote store. */
export interface StoreTransfers {
  readonly bytesDownloaded: number;
  readonly bytesUploaded: number;
  readonly requests: number;
}

/** An opened store of one index. */
export interface OpenedStore {
  readonly dir: Directory;
  /** Path or URL, for logs. */
  readonly location: string;
  /** The local directory of a local store (watched by searchers), else null. */
  readonly localPath: string | null;
  /** How often a searcher polls for new commits; undefined: the mode's default. */
  readonly pollIntervalMs?: number;
  /** Transfer counters of a remote store. */
  readonly transfers?: () => StoreTransfers;
  /** Releases clients and timers. */
  close(): void;
}

/** What the opener needs to know about the process. */
export interface OpenStoreOptions {
  /** A searcher: the store is never written. */
  readonly readOnly?: boolean;
  /** Called once if the write lease of an S3 store is lost. */
  readonly onLeaseLost?: (reason: string) => void;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The directory of index `name` in `store`; relative local paths are relative to the working directory. */
export async function openStore(store: StoreConfig, name: string, options: OpenStoreOptions = {}): Promise<OpenedStore> {
  if (store.local !== undefined) {
    const path = resolve(store.local.path, name);
    return { dir: await LocalDirectory.open(path), location: path, localPath: path, close: () => undefined };
  }
  if (store.memory !== undefined) {
    return { dir: new MemoryDirectory(`memory:${name}`), location: `memory:${name}`, localPath: null, close: () => undefined };
  }
  const s3 = store.s3!;
  const { createS3Client, S3Directory, S3ObjectStore } = await import('../../storage/s3/index.js');
  const location = {
    bucket: s3.bucket,
    prefix: [s3.prefix.replace(/^\/+|\/+$/g, ''), name].filter((p) => p !== '').join('/'),
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: s3.forcePathStyle,
  };
  const client = createS3Client(location, options.env);
  const objects = new S3ObjectStore(client, location);
  const dir = await S3Directory.open(objects, {
    workPath: resolve(join(s3.workPath, name)),
    readOnly: options.readOnly === true,
    deleteGraceMs: s3.deleteGraceMs,
    lockTtlMs: s3.lockTtlMs,
    cacheMaxBytes: s3.cacheMaxBytes,
    ...(options.onLeaseLost === undefined ? {} : { onLeaseLost: options.onLeaseLost }),
  });
  return {
    dir,
    location: objects.describe(),
    localPath: null,
    pollIntervalMs: s3.pollIntervalMs,
    transfers: () => dir.transfers,
    close: () => {
      dir.close();
      client.destroy();
    },
  };
}
