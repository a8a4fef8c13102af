/**
 * The engine's {@link Directory} on S3-compatible object storage, with a local working directory.
 *
 * - Files the engine writes are staged on local disk (`staging/`) and uploaded by `sync` (multipart
 *   and in parallel for large ones); a file is in the bucket only once synced, so a crash before
 *   the manifest is published leaves nothing a reader would look at.
 * - `rename` is the publish step: the source's bytes are written to the target with one plain
 *   PUT (readers see the old or the new object, never a mix), after the write lease was checked.
 * - Append-only files (the write-ahead log) stay on local disk (`log/`): an indexer needs a local
 *   disk for them, and with Kafka the log is the source of truth anyway.
 * - `delete` hides a file at once but removes the object only after a grace period, so searchers
 *   still reading an older manifest never miss a file. Deletions still pending when the process
 *   exits are found again by the next writer (its open removes files no manifest lists).
 * - Immutable files read from the bucket are kept in a bounded LRU cache (`cache/`); the names the
 *   engine replaces (`*.json`, `*.tmp`, `*.lock`) are never cached, and the manifest is re-read
 *   with a conditional GET on its ETag so that an unchanged one costs no bytes.
 * - The write lock is an {@link S3Lease}. Once it is lost, every write is refused, so a writer
 *   that lost it stops before it can publish another manifest.
 * - Read-only (a searcher): every write is refused; it never writes to the bucket.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Appender, Directory, Lock, LockOwner, RandomAccessFile } from '../../engine/directory.js';
import { ErrorCode, YarrowError } from '../../engine/errors.js';
import { isMutableFile } from '../../engine/index-files.js';
import { assertFileName } from '../file-name.js';
import { LocalDirectory } from '../local-directory.js';
import { LocalRandomAccessFile } from '../local-random-access-file.js';
import { fileNotFoundError, rangePastEndError } from '../lock-owner.js';
import { FileCache } from './file-cache.js';
import { S3Lease } from './s3-lease.js';
import type { S3ObjectStore, TransferStats } from './s3-object-store.js';

/** How an {@link S3Directory} behaves. */
export interface S3DirectoryOptions {
  /** Local working directory: `log/`, `staging/` and `cache/` live under it. One per process. */
  readonly workPath: string;
  /** A searcher: every write is refused. */
  readonly readOnly?: boolean;
  /** How long a deleted object stays in the bucket; default one hour. */
  readonly deleteGraceMs?: number;
  /** Lifetime of the write lease without renewal; default 30 s. */
  readonly lockTtlMs?: number;
  /** Budget of the local cache of downloaded files; default 4 GiB. */
  readonly cacheMaxBytes?: number;
  /** Called once when the write lease is lost. */
  readonly onLeaseLost?: (reason: string) => void;
}

/** Defaults of {@link S3DirectoryOptions}. */
export const S3_DIRECTORY_DEFAULTS = { deleteGraceMs: 3_600_000, lockTtlMs: 30_000, cacheMaxBytes: 4 * 1024 ** 3 } as const;

/** Uploads of one `sync` in flight at once (each multipart upload has parallel parts of its own). */
const UPLOAD_CONCURRENCY = 4;

/** Names the engine replaces in place (manifest, its temp file, locks, unknown names): never cached. */
function isMutable(name: string): boolean {
  return isMutableFile(name);
}

/** A {@link Directory} over one S3 prefix; see the module comment. */
export class S3Directory implements Directory {
  private readonly leases = new Set<S3Lease>();
  /** Hidden names whose objects are removed when their timer fires. */
  private readonly pendingDeletes = new Map<string, NodeJS.Timeout>();
  /** Last ETag and bytes of each mutable file read, for conditional GETs. */
  private readonly lastRead = new Map<string, { etag: string; bytes: Uint8Array }>();
  private readonly deleteGraceMs: number;
  private readonly lockTtlMs: number;

  private constructor(
    readonly store: S3ObjectStore,
    private readonly log: LocalDirectory,
    private readonly staging: LocalDirectory,
    private readonly cache: FileCache,
    private readonly options: S3DirectoryOptions,
  ) {
    this.deleteGraceMs = options.deleteGraceMs ?? S3_DIRECTORY_DEFAULTS.deleteGraceMs;
    this.lockTtlMs = options.lockTtlMs ?? S3_DIRECTORY_DEFAULTS.lockTtlMs;
  }

  /**
   * Opens the directory. A writer starts with empty `staging/` and `cache/` (copies an earlier
   * process left may be of files another writer has replaced since); a searcher keeps its cache.
   */
  static async open(store: S3ObjectStore, options: S3DirectoryOptions): Promise<S3Directory> {
    const readOnly = options.readOnly === true;
    const log = await LocalDirectory.open(join(options.workPath, 'log'));
    const staging = await LocalDirectory.open(join(options.workPath, 'staging'));
    if (!readOnly) for (const name of await staging.list()) await staging.delete(name);
    const cache = await FileCache.open(join(options.workPath, 'cache'), options.cacheMaxBytes ?? S3_DIRECTORY_DEFAULTS.cacheMaxBytes, !readOnly);
    return new S3Directory(store, log, staging, cache, options);
  }

  /** Bytes and requests exchanged with the bucket so far. */
  get transfers(): Readonly<TransferStats> {
    return this.store.stats;
  }

  /** Bytes in the local cache. */
  get cachedBytes(): number {
    return this.cache.size;
  }

  async list(): Promise<string[]> {
    const names = new Set(await this.store.list());
    for (const name of this.pendingDeletes.keys()) names.delete(name);
    for (const name of await this.staging.list()) names.add(name);
    for (const name of await this.log.list()) names.add(name);
    return [...names];
  }

  async exists(name: string): Promise<boolean> {
    assertFileName(name);
    if ((await this.log.exists(name)) || (await this.staging.exists(name))) return true;
    if (this.pendingDeletes.has(name)) return false;
    if (this.cache.has(name)) return true;
    return (await this.store.head(name)) !== undefined;
  }

  async readFile(name: string): Promise<Uint8Array> {
    const local = await this.localFor(name);
    if (local !== undefined) return local.readFile(name);
    if (this.pendingDeletes.has(name)) throw fileNotFoundError(name, this.store.describe(name));
    if (isMutable(name)) {
      const last = this.lastRead.get(name);
      const got = await this.store.get(name, last?.etag);
      if (got === 'not-modified') return last!.bytes.slice();
      this.lastRead.set(name, { etag: got.etag, bytes: got.bytes.slice() });
      return got.bytes;
    }
    const cached = await this.cache.read(name);
    if (cached !== undefined) return cached;
    const got = await this.store.get(name);
    if (got === 'not-modified') throw new Error('unreachable: unconditional GET answered 304');
    await this.cache.put(name, got.bytes);
    return got.bytes;
  }

  /**
   * Reads a range; an immutable file is downloaded to the local cache once (in ranged GETs, never
   * whole in memory) and read locally after.
   */
  async readRange(name: string, offset: number, length: number): Promise<Uint8Array> {
    const local = await this.localFor(name);
    if (local !== undefined) return local.readRange(name, offset, length);
    if (this.pendingDeletes.has(name)) throw fileNotFoundError(name, this.store.describe(name));
    if (isMutable(name)) return this.store.getRange(name, offset, length);
    if (!this.cache.has(name)) await this.downloadToCache(name);
    const range = await this.cache.readRange(name, offset, length);
    if (range === null) throw rangePastEndError(name, offset, length, offset);
    // Too large for the cache (or evicted at once): ask the bucket for just the range.
    return range ?? this.store.getRange(name, offset, length);
  }

  /**
   * Positional reads of an immutable file from its local copy (downloaded first when missing).
   * The descriptor stays valid if the cache evicts the copy meanwhile: the file is unlinked, not
   * truncated, and the disk space returns when the reader drops the descriptor.
   */
  async openRandomAccess(name: string): Promise<RandomAccessFile> {
    const local = await this.localFor(name);
    if (local?.openRandomAccess !== undefined) return local.openRandomAccess(name);
    if (this.pendingDeletes.has(name)) throw fileNotFoundError(name, this.store.describe(name));
    if (isMutable(name)) throw new Error(`${name}: positional reads are for immutable files only`);
    if (this.cache.has(name)) {
      try {
        return LocalRandomAccessFile.open(name, this.cache.pathOf(name));
      } catch (error) {
        // Evicted since (a small cache, another process sharing it): fetch it again below.
        if (!(error instanceof YarrowError && error.code === ErrorCode.fileNotFound)) throw error;
        await this.cache.remove(name);
      }
    }
    const { temp, size } = await this.download(name);
    // Opened before the cache takes the copy, so that neither an eviction nor a copy too large
    // for the cache (which adopt deletes) can take it from under the descriptor.
    const file = LocalRandomAccessFile.open(name, temp);
    await this.cache.adopt(name, temp, size);
    return file;
  }

  /** Copies an immutable object into the local cache, in ranged GETs. */
  private async downloadToCache(name: string): Promise<void> {
    const { temp, size } = await this.download(name);
    await this.cache.adopt(name, temp, size);
  }

  /** Downloads an object to a temporary file of the cache's directory, never whole in memory. */
  private async download(name: string): Promise<{ temp: string; size: number }> {
    const head = await this.store.head(name);
    if (head === undefined) throw fileNotFoundError(name, this.store.describe(name));
    const temp = await this.cache.download(head.size, (offset, length) => this.store.getRange(name, offset, length));
    return { temp, size: head.size };
  }

  async writeFile(name: string, data: Uint8Array): Promise<void> {
    assertFileName(name);
    this.assertWritable();
    this.cancelDelete(name);
    await this.cache.remove(name);
    await this.staging.writeFile(name, data);
  }

  /** Uploads staged files (several at once) and fsyncs log files; a file already in the bucket needs nothing. */
  async sync(names: readonly string[]): Promise<void> {
    for (const name of names) assertFileName(name);
    this.assertWritable();
    const queue = [...new Set(names)];
    const worker = async (): Promise<void> => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) await this.syncOne(name);
    };
    await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, queue.length) }, worker));
  }

  /**
   * Publishes `from` as `to` with one PUT of its bytes, once the write lease is confirmed, then
   * removes `from` at once (a temporary name is nobody's to read).
   */
  async rename(from: string, to: string): Promise<void> {
    assertFileName(from);
    assertFileName(to);
    this.assertWritable();
    const bytes = await this.readFile(from);
    for (const lease of this.leases) await lease.assertHeld();
    this.cancelDelete(to);
    await this.cache.remove(to);
    await this.staging.delete(to);
    await this.store.put(to, bytes);
    this.lastRead.delete(to);
    await this.staging.delete(from);
    await this.cache.remove(from);
    this.lastRead.delete(from);
    await this.store.delete(from);
  }

  async delete(name: string): Promise<void> {
    assertFileName(name);
    this.assertWritable();
    if (await this.log.exists(name)) {
      await this.log.delete(name);
      return;
    }
    await this.staging.delete(name);
    await this.cache.remove(name);
    this.lastRead.delete(name);
    if (this.deleteGraceMs <= 0) {
      await this.store.delete(name);
      return;
    }
    if (this.pendingDeletes.has(name)) return;
    const timer = setTimeout(() => {
      this.pendingDeletes.delete(name);
      // A writer that lost its lease must not delete what the new holder may have written since.
      if (!this.leasesValid()) return;
      this.store.delete(name).catch(() => undefined);
    }, this.deleteGraceMs);
    timer.unref();
    this.pendingDeletes.set(name, timer);
  }

  async openAppender(name: string): Promise<Appender> {
    assertFileName(name);
    this.assertWritable();
    return this.log.openAppender(name);
  }

  /** Takes the write lease `name` in the bucket (see {@link S3Lease}). */
  async obtainLock(name: string, owner: LockOwner, onStale?: (stale: LockOwner) => void): Promise<Lock> {
    assertFileName(name);
    this.assertWritable();
    this.cancelDelete(name);
    const lease = await S3Lease.obtain(
      this.store,
      name,
      owner,
      { ttlMs: this.lockTtlMs, onLost: (reason) => { this.onLeaseLost(reason); } },
      onStale,
    );
    this.leases.add(lease);
    return {
      owner: lease.owner,
      release: async () => {
        this.leases.delete(lease);
        await lease.release();
      },
    };
  }

  describe(): string {
    return this.store.describe();
  }

  /** Stops pending deletion timers (their objects stay until a later writer removes them). */
  close(): void {
    for (const timer of this.pendingDeletes.values()) clearTimeout(timer);
    this.pendingDeletes.clear();
  }

  /** The local directory holding `name`, if any: the write-ahead log first, then staged files. */
  private async localFor(name: string): Promise<LocalDirectory | undefined> {
    assertFileName(name);
    if (await this.log.exists(name)) return this.log;
    if (await this.staging.exists(name)) return this.staging;
    return undefined;
  }

  private async syncOne(name: string): Promise<void> {
    if (await this.log.exists(name)) {
      await this.log.sync([name]);
      return;
    }
    if (await this.staging.exists(name)) {
      const path = join(this.staging.path, name);
      const { size } = await stat(path);
      await this.store.upload(name, path, size);
      if (isMutable(name)) return;
      // Uploaded: the staged copy becomes a cached copy of the object.
      await this.cache.adopt(name, path, size);
      return;
    }
    if (!this.pendingDeletes.has(name) && (this.cache.has(name) || (await this.store.head(name)) !== undefined)) return;
    throw fileNotFoundError(name, this.store.describe(name));
  }

  private cancelDelete(name: string): void {
    const timer = this.pendingDeletes.get(name);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.pendingDeletes.delete(name);
  }

  private leasesValid(): boolean {
    for (const lease of this.leases) if (!lease.valid) return false;
    return true;
  }

  private onLeaseLost(reason: string): void {
    // Pending deletions could remove files the next holder wrote under the same names.
    this.close();
    this.options.onLeaseLost?.(reason);
  }

  private assertWritable(): void {
    if (this.options.readOnly === true) {
      throw new YarrowError(ErrorCode.indexClosed, `${this.describe()} is open read-only: a searcher never writes to the bucket`);
    }
    for (const lease of this.leases) {
      if (!lease.valid) {
        throw new YarrowError(ErrorCode.lockHeld, `the write lease of ${this.describe()} is lost; this writer refuses every write`, { source: this.describe() });
      }
    }
  }
}
