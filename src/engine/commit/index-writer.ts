/**
 * The write path of one index: buffers validated documents, logs every batch to the write-ahead
 * log before acknowledging it, turns the buffer into segments on refresh and publishes snapshots
 * (`segment-registry.ts`), commits (`commit-protocol.ts`) and merges in the background
 * (`merge-scheduler.ts`). Created by recovery (`recovery.ts`), which replays the log into it.
 *
 * All state changes run under one mutex; WAL fsyncs happen outside it so concurrent batches share
 * one fsync (group commit).
 */
import type { Analyzer } from '../analysis/analyzer.js';
import { LiveDocs } from '../codec/live-docs/live-docs.js';
import type { Directory, Lock } from '../directory.js';
import { TimeSlicer } from '../event-loop.js';
import type { Logger } from '../logger.js';
import type { ValidDocument } from '../schema/document.js';
import type { Mapping } from '../schema/mapping.js';
import { SegmentBuffer } from '../segment/segment-buffer.js';
import { segmentName } from '../segment/segment-component.js';
import { SegmentLoad, SegmentReader } from '../segment/segment-reader.js';
import type { Snapshot } from '../segment/snapshot.js';
import { coveredLogFiles, publishCommit } from './commit-protocol.js';
import { hasThreadFiles } from './engine-worker.js';
import { FileRefs } from './file-refs.js';
import { manifestFiles } from './manifest.js';
import type { Manifest } from './manifest.js';
import { MergeScheduler } from './merge-scheduler.js';
import { Mutex } from './mutex.js';
import { SegmentRegistry, openCommittedSegment } from './segment-registry.js';
import type { LiveSegment } from './segment-registry.js';
import { InversionThread, ThreadedSegmentBuffer } from './threaded-segment-buffer.js';
import type { ParsedBody } from './threaded-segment-buffer.js';
import { liveBuiltIds } from './bulk-ids.js';
import type { BuiltIdResolver } from './bulk-ids.js';
import { BulkLoad, BulkLoadThreads } from './bulk-load.js';
import type { BuiltSegment, BulkLoadOptions } from './bulk-load.js';
import { encodeWalRecordSliced } from './write-ahead-log.js';
import type { WalEntry, WriteAheadLog } from './write-ahead-log.js';
import type { WriteBuffer } from './write-buffer.js';
import type { CommitResult, PreparedDocument, WriterOptions } from './writer-options.js';
import { VectorDimensions } from './vector-check.js';
import type { YarrowError } from '../errors.js';
import { writerFailure } from './writer-failure.js';

export type { LiveSegment } from './segment-registry.js';
export { liveDocsGeneration } from './segment-registry.js';
export { writeManifest } from './commit-protocol.js';

export type { CommitResult, PreparedDocument, WriterOptions } from './writer-options.js';
export { defaultWriterOptions } from './writer-options.js';

/** The single writer of an index; created by recovery (`recovery.ts`). */
export class IndexWriter {
  private readonly mutex = new Mutex();
  private readonly refs: FileRefs;
  private readonly registry: SegmentRegistry;
  private readonly merges: MergeScheduler;
  private buffer: WriteBuffer;
  /** Where buffers invert when {@link WriterOptions.inversionThreads} is set. */
  private readonly thread: InversionThread | null;
  /** Where bulk loads parse and invert, started by the first one. */
  private bulkThreads: BulkLoadThreads | null = null;
  /** Bulk-load threads a last load released, until they have stopped (`BulkLoadOptions.last`). */
  private readonly stoppingThreads: Promise<void>[] = [];
  /** Syncs of bulk-loaded files started ahead of their commit, which waits for them before its own (`BulkLoadHost.syncAhead`). */
  private readonly syncsAhead = new Set<Promise<void>>();
  /** Ids upserted or deleted since the last refresh: older copies in segments must be deleted. */
  private pendingIds = new Set<string>();
  private committed: Manifest;
  /** Segment names are never reused, even for merges that run while a commit is written. */
  private nextSegmentId: number;
  private checkpoints: Record<string, unknown>;
  private dirty = false;
  private readonly deletions = new Set<Promise<void>>();
  private failure: YarrowError | null = null;
  private readonly failed: Promise<YarrowError>;
  private signalFailure: (error: YarrowError) => void = () => undefined;
  /** Set by {@link abandon}: the files belong to whoever reopens the index, so this writer deletes none. */
  private abandoned = false;
  private closing = false;
  private closed = false;
  private commitsMade = 0;
  private refreshesMade = 0;
  /** Checks vectors before the log (see vector-check.ts). */
  private readonly vectorDims: VectorDimensions;
  /** Bumped by every setCheckpoint, so a commit knows whether one arrived while it was writing. */
  private checkpointVersion = 0;

  constructor(
    private readonly dir: Directory,
    private readonly mapping: Mapping,
    private readonly analyzer: (name: string) => Analyzer,
    private readonly lock: Lock,
    private readonly log: Logger,
    private readonly options: WriterOptions,
    segments: LiveSegment[],
    manifest: Manifest,
    private readonly wal: WriteAheadLog,
  ) {
    this.failed = new Promise((resolve) => { this.signalFailure = resolve; });
    this.refs = new FileRefs((name) => { this.deleteLater(name); });
    this.committed = manifest;
    this.nextSegmentId = manifest.nextSegmentId;
    this.checkpoints = { ...manifest.checkpoints };
    this.refs.incRef(manifestFiles(manifest));
    this.thread = options.inversionThreads > 0 ? new InversionThread(mapping, options.backgroundNice, hasThreadFiles(dir) ? dir.threadFiles() : undefined) : null;
    this.buffer = this.newBuffer();
    this.registry = new SegmentRegistry(segments, this.refs);
    this.vectorDims = new VectorDimensions(mapping, segments.map((s) => s.info));
    this.merges = new MergeScheduler({
      dir,
      log,
      mutex: this.mutex,
      registry: this.registry,
      policy: options.mergePolicy,
      segmentLoad: options.segmentLoad,
      mergeThread: options.mergeThread,
      backgroundNice: options.backgroundNice,
      canMerge: () => options.merges && !this.closing && !this.closed && this.failure === null,
      canForceMerge: () => !this.closing && !this.closed && this.failure === null,
      isLive: () => !this.closed && this.failure === null,
      allocateSegmentId: () => this.nextSegmentId++,
      deleteLater: (name) => { this.deleteLater(name); },
      merged: () => {
        this.dirty = true;
        this.registry.republish();
      },
      writeFiles: (files) => this.writeFiles(files),
      wroteOnThread: (files) => { this.wroteOnThread(files); },
    });
  }

  /** The error every write answers since an I/O failure stopped this writer, or null while it works. */
  get failedWith(): YarrowError | null {
    return this.failure;
  }

  /** Resolves with the `index_unavailable` error once this writer fails (never, if it does not). */
  whenFailed(): Promise<YarrowError> {
    return this.failed;
  }

  /** The latest published snapshot, acquired for the caller (release it when done). */
  acquireSnapshot(): Snapshot {
    return this.registry.acquireSnapshot();
  }

  /** Whether snapshots of this writer can be searched (see {@link WriterOptions.segmentLoad}). */
  get searchable(): boolean {
    return this.options.segmentLoad === SegmentLoad.full;
  }

  /** The last durable commit. */
  get lastCommit(): Manifest {
    return this.committed;
  }

  /** Docs buffered but not yet in a segment. */
  get bufferedDocs(): number {
    return this.buffer.maxDoc;
  }

  /** Whether writes or deletes are waiting for a refresh to become searchable. */
  get hasUnrefreshed(): boolean {
    return this.buffer.maxDoc > 0 || this.pendingIds.size > 0;
  }

  /** Bytes in the current WAL generation (older ones are deleted by the commit that covers them). */
  get walBytes(): number {
    return this.wal.size;
  }

  /** Commits and refreshes made since open, automatic ones included (for metrics). */
  get activity(): { readonly commits: number; readonly refreshes: number } {
    return { commits: this.commitsMade, refreshes: this.refreshesMade };
  }

  /**
   * Logs and applies a batch of validated documents (ids assigned). Resolves once the batch is
   * durable in the WAL; it becomes searchable at the next refresh. A batch of a source `file` is
   * replayed after a crash only if {@link endFile} logged that file's end.
   */
  async write(docs: readonly PreparedDocument[], deletes: readonly string[] = [], file?: string): Promise<void> {
    this.checkOpen();
    const ops: WalEntry[] = [];
    for (const d of docs) ops.push(d.doc.vectors.size === 0 ? { uJson: d.walJson } : { uJson: d.walJson, vectors: d.doc.vectors });
    for (const id of deletes) ops.push({ d: id });
    const durable = await this.mutex.run(async () => {
      this.checkOpen();
      this.vectorDims.check(docs);
      let synced: Promise<void>;
      const record = await encodeWalRecordSliced(ops, file);
      try {
        const end = await this.wal.appendRecord(record);
        // The fsync runs on libuv's thread pool while this thread inverts the batch.
        synced = this.wal.syncTo(end);
      } catch (e) {
        throw this.fail(e, 'appending to the write-ahead log');
      }
      // Handled below; marked now so a rejection never counts as unhandled while the batch inverts.
      synced.catch(() => undefined);
      if (this.buffer.applyLogged !== undefined) {
        // An inversion thread takes the logged bytes as they are; this thread keeps the ids.
        for (const d of docs) this.pendingIds.add(d.id);
        for (const id of deletes) this.pendingIds.add(id);
        this.dirty = true;
        try {
          await this.buffer.applyLogged(record, docs.length);
        } catch (e) {
          throw this.fail(e, 'inverting a batch');
        }
        return { synced };
      }
      // One WAL record keeps the batch all-or-nothing; inverting it in slices keeps the event loop
      // free for searches (which read snapshots, so they never see half a batch).
      const slicer = new TimeSlicer();
      for (const d of docs) {
        if (slicer.due()) await slicer.yield();
        this.applyUpsert(d.doc, d.id, d.storedJson);
      }
      for (const id of deletes) this.applyDelete(id);
      return { synced };
    });
    await this.acknowledge(durable.synced);
  }

  /**
   * Whether {@link writeBody} can take request bodies: the writer has an inversion thread, and the
   * mapping embeds no field (embedding runs on this thread, before the log).
   */
  get takesBodies(): boolean {
    return this.thread !== null && this.mapping.fields.every((f) => f.semantic == null);
  }

  /**
   * Writes the documents of a JSON body (JSON Lines, concatenated values or an array; see
   * `JsonValueSplitter`) as one batch, all or nothing, with the parsing, validation and log
   * encoding on the inversion thread (`body-batch.ts`): this thread forwards the bytes and logs
   * the record. Resolves once the batch is durable, as {@link write} does; an empty body writes
   * nothing. Only when {@link takesBodies}.
   * @throws YarrowError(invalid_document) naming the first invalid document (nothing written).
   */
  async writeBody(body: AsyncIterable<Uint8Array>, onChunk?: (docs: number, bytes: number) => void): Promise<{ docs: number; bytes: number }> {
    this.checkOpen();
    if (this.thread === null || !this.takesBodies) throw new Error('this writer parses no bodies (no inversion thread, or a mapping that embeds)');
    const parsed: ParsedBody = await this.thread.parseBody(body, onChunk);
    if (parsed.recordLength === 0 || parsed.docs === 0) {
      this.thread.drop(parsed.batch);
      return { docs: 0, bytes: parsed.bytes };
    }
    const thread = this.thread;
    const durable = await this.mutex.run(async () => {
      if (this.failure !== null || this.closed) {
        this.thread?.drop(parsed.batch);
        this.checkOpen();
      }
      let synced: Promise<void>;
      // The thread appends the record it built to a local log itself (at its idle priority, and
      // the ~20 MB of a body's record never pass through this thread's heap); elsewhere it hands
      // the record over for this thread to append (`WriteAheadLog.appendFrom`).
      let appended: Uint8Array | null = null;
      try {
        const end = await this.wal.appendFrom(parsed.recordLength, async (file) => (appended = await thread.logParsed(parsed.batch, file)));
        synced = this.wal.syncTo(end);
      } catch (e) {
        this.thread?.drop(parsed.batch);
        throw this.fail(e, 'appending to the write-ahead log');
      }
      synced.catch(() => undefined);
      for (const id of parsed.ids) this.pendingIds.add(id);
      this.dirty = true;
      try {
        // With an inversion thread every buffer is a ThreadedSegmentBuffer (newBuffer).
        if (!(this.buffer instanceof ThreadedSegmentBuffer)) throw new Error('the buffer is not on the inversion thread');
        await this.buffer.applyParsed(parsed, appended);
      } catch (e) {
        throw this.fail(e, 'inverting a batch');
      }
      return { synced };
    });
    await this.acknowledge(durable.synced);
    return { docs: parsed.docs, bytes: parsed.bytes };
  }

  /**
   * Waits for a logged batch's fsync, then flushes or commits when the buffer or the log has
   * grown past its bound.
   */
  private async acknowledge(synced: Promise<void>): Promise<void> {
    try {
      await synced;
    } catch (e) {
      throw this.fail(e, 'syncing the write-ahead log');
    }
    // The batch is durable: acknowledge it even if the flush it triggers fails (that failure stops
    // the writer, and the reopen replays this batch from the log).
    try {
      if (this.buffer.estimatedBytes > this.options.maxBufferBytes) await this.refresh();
      if (this.wal.size > this.options.maxWalBytes) await this.commit();
    } catch (e) {
      if (this.failure === null) throw e;
    }
  }

  /**
   * Starts loading one input on `threads` worker threads, without the write-ahead log (see
   * `bulk-load.ts`): its documents are published by {@link BulkLoad.finish} and durable at the
   * commit after it. Another bulk load must not run at the same time.
   */
  bulkLoad(threads: number, options: BulkLoadOptions): BulkLoad {
    this.checkOpen();
    // Each thread's buffer flushes at 1.5 times the writer's buffer size (see bulk-load.ts).
    this.bulkThreads ??= new BulkLoadThreads(this.mapping, threads, this.options.maxBufferBytes);
    return new BulkLoad(this.bulkThreads.threads, {
      allocateSegmentName: () => segmentName(this.nextSegmentId++),
      writeFiles: async (files) => {
        this.checkOpen();
        try {
          await this.writeFiles(files);
        } catch (e) {
          throw this.fail(e, 'writing a segment');
        }
      },
      openReader: (info, files) => SegmentReader.open(this.dir, info, files, this.options.segmentLoad),
      syncAhead: (names) => {
        const task = this.dir.sync(names).catch(() => undefined);
        this.syncsAhead.add(task);
        void task.finally(() => this.syncsAhead.delete(task));
      },
      releaseThreads: () => {
        const threads = this.bulkThreads;
        this.bulkThreads = null;
        if (threads !== null) this.stoppingThreads.push(threads.terminate());
      },
      deleteFile: (name) => { this.deleteLater(name); },
      register: (segments, ids) => this.registerBuilt(segments, ids),
    }, options);
  }

  /**
   * Publishes the segments of a finished bulk load: older copies of their ids are deleted from the
   * index's segments, and among them the copy from the latest line wins (`bulk-ids.ts`; `ids` has
   * each of `built` added, in order).
   */
  private async registerBuilt(built: readonly BuiltSegment[], ids: BuiltIdResolver): Promise<void> {
    this.checkOpen();
    await this.mutex.run(async () => {
      this.checkOpen();
      // Whatever the buffer holds was written before the load: it goes first.
      await this.refreshLocked();
      const live = ids.resolve(built);
      if (this.registry.all.some((s) => s.liveDocs.liveCount > 0)) await this.registry.deleteIds(liveBuiltIds(built, live), new TimeSlicer());
      const added: LiveSegment[] = [];
      try {
        for (const [i, { info, reader: opened }] of built.entries()) {
          const reader = await (opened ?? SegmentReader.open(this.dir, info, undefined, this.options.segmentLoad));
          added.push({ info, reader, liveDocs: live[i], liveDirty: live[i].deletedCount > 0, durable: false, delGen: 0, merging: false });
        }
      } catch (e) {
        throw this.fail(e, 'opening a segment');
      }
      for (const segment of added) this.registry.add(segment);
      this.registry.dropFullyDeleted();
      this.registry.republish();
      this.dirty = true;
      this.refreshesMade++;
    });
    this.merges.maybeMerge();
  }

  /** Logs, durably, that every batch of the source `file` has been written (see {@link write}). */
  async endFile(file: string): Promise<void> {
    this.checkOpen();
    const end = await this.mutex.run(async () => {
      this.checkOpen();
      try {
        return await this.wal.appendFileEnd(file);
      } catch (e) {
        throw this.fail(e, 'appending to the write-ahead log');
      }
    });
    try {
      await this.wal.syncTo(end);
    } catch (e) {
      throw this.fail(e, 'syncing the write-ahead log');
    }
  }

  /** Applies an upsert to the buffer without logging it (WAL replay). */
  applyUpsert(doc: ValidDocument, id: string, storedJson: string = JSON.stringify(doc.stored)): void {
    this.buffer.add(doc, id, storedJson);
    this.pendingIds.add(id);
    this.dirty = true;
  }

  /** Applies a delete without logging it (WAL replay). */
  applyDelete(id: string): void {
    this.buffer.delete(id);
    this.pendingIds.add(id);
    this.dirty = true;
  }

  /** Records a source position to store with the next commit (e.g. Kafka offsets). */
  setCheckpoint(source: string, position: unknown): void {
    this.checkpoints[source] = position;
    this.checkpointVersion++;
    this.dirty = true;
  }

  /** Makes buffered documents and deletes searchable. */
  async refresh(): Promise<void> {
    this.checkOpen();
    await this.mutex.run(() => this.refreshLocked());
    this.merges.maybeMerge();
  }

  /** Durably commits everything written so far; returns the commit's seq and files. */
  async commit(): Promise<CommitResult> {
    this.checkOpen();
    const result = await this.mutex.run(() => this.commitLocked());
    this.merges.maybeMerge();
    return result;
  }

  /**
   * Makes everything written searchable, then merges until at most `maxSegments` segments remain,
   * none with deleted docs (also with background merges turned off). The result is durable at the
   * next commit.
   */
  async forceMerge(maxSegments: number): Promise<void> {
    this.checkOpen();
    await this.refresh();
    await this.merges.forceMerge(maxSegments);
  }

  /**
   * Discards every write since the last commit: buffered documents, segments flushed or merged
   * since, deletes, and their write-ahead log. Durable once resolved: a new manifest with the last
   * commit's segments (and a new seq) makes the discarded log generations irrelevant.
   */
  async rollback(): Promise<CommitResult> {
    this.checkOpen();
    await this.merges.idle();
    return this.mutex.run(async () => {
      // Nothing written, deleted, merged or checkpointed since the commit: nothing to undo.
      if (!this.dirty) return { seq: this.committed.seq, files: manifestFiles(this.committed) };
      const known = this.registry.readersByName();
      const restored: LiveSegment[] = [];
      for (const info of this.committed.segments) {
        restored.push(await openCommittedSegment(this.dir, info, this.options.segmentLoad, known.get(info.name)));
      }
      this.registry.reset(restored);
      this.buffer = this.newBuffer();
      this.pendingIds = new Set();
      this.checkpoints = { ...this.committed.checkpoints };
      this.registry.republish();
      this.dirty = true;
      this.log.info(`rolled back to the segments of commit seq=${this.committed.seq}`);
      return this.commitLocked();
    });
  }

  /** Waits for running merges, commits, and releases the lock. */
  async close(): Promise<void> {
    if (this.closed || this.closing) return;
    // No merge may start from here on: its segment id and files would outlive this writer.
    this.closing = true;
    try {
      await this.merges.idle();
      if (this.failure === null) await this.mutex.run(() => this.commitLocked());
    } finally {
      this.closed = true;
      // The bulk-load threads do no I/O: they stop while the log closes and the lock is released.
      const stopping = Promise.allSettled([...this.stoppingThreads, this.bulkThreads?.terminate()]);
      await this.thread?.terminate();
      await this.wal.close().catch((e: unknown) => { this.log.warn(`closing the write-ahead log failed: ${(e as Error).message}`); });
      this.registry.release();
      await Promise.allSettled([...this.deletions, ...this.syncsAhead]);
      await this.lock.release();
      await stopping;
    }
  }

  private async refreshLocked(): Promise<boolean> {
    if (this.pendingIds.size === 0 && this.buffer.maxDoc === 0) return false;
    // Write and open the new segment before changing any state: if that fails, the buffer and the
    // pending deletes are still here, and the writer stops (the WAL still holds every batch).
    let added: LiveSegment | null = null;
    if (this.buffer.maxDoc > 0) {
      try {
        const flushed = await this.buffer.flush(segmentName(this.nextSegmentId++));
        // Written on the inversion thread (at its idle priority) or here; fsynced by the commit.
        if (flushed.written === true) this.wroteOnThread(flushed.files);
        else await this.writeFiles(flushed.files);
        const reader = await SegmentReader.open(this.dir, flushed.info, flushed.files, this.options.segmentLoad);
        if (flushed.idFilter !== undefined) this.registry.useIdFilter(reader, flushed.idFilter);
        const liveDocs = LiveDocs.allLive(flushed.info.maxDoc);
        for (const d of flushed.deletedDocs) liveDocs.delete(d);
        added = { info: flushed.info, reader, liveDocs, liveDirty: flushed.deletedDocs.length > 0, durable: false, delGen: 0, merging: false };
      } catch (e) {
        throw this.fail(e, 'writing a segment');
      }
    }
    // Delete older copies of every touched id from the existing segments (copy-on-write).
    await this.registry.deleteIds(this.pendingIds, new TimeSlicer());
    this.pendingIds = new Set();
    if (added !== null) {
      this.registry.add(added);
      this.buffer = this.newBuffer();
    }
    if (this.registry.dropFullyDeleted()) this.dirty = true;
    this.registry.republish();
    this.refreshesMade++;
    return true;
  }

  private async commitLocked(): Promise<CommitResult> {
    await this.refreshLocked();
    // Never two syncs of one file at once (a store may upload it on sync: S3).
    if (this.syncsAhead.size > 0) await Promise.all([...this.syncsAhead]);
    if (!this.dirty && this.committed.seq > 0) {
      return { seq: this.committed.seq, files: manifestFiles(this.committed) };
    }
    try {
      const checkpointVersion = this.checkpointVersion;
      const manifest = await publishCommit(this.dir, this.wal, this.registry, {
        previous: this.committed,
        mapping: this.mapping,
        nextSegmentId: this.nextSegmentId,
        checkpoints: this.checkpoints,
      }, this.log);
      const files = manifestFiles(manifest);
      this.refs.incRef(files);
      this.refs.decRef(manifestFiles(this.committed));
      this.committed = manifest;
      this.commitsMade++;
      // A checkpoint set while this commit was being written is not in it: stay dirty.
      this.dirty = this.checkpointVersion !== checkpointVersion;
      for (const name of await coveredLogFiles(this.dir, manifest)) this.deleteLater(name);
      return { seq: manifest.seq, files };
    } catch (e) {
      throw this.fail(e, 'committing');
    }
  }

  /**
   * Hands a failed writer's place over to a reopened one (`writer-reopener.ts`): stops merges,
   * closes the log, deletes no file from now on (recovery decides what is garbage) and returns the
   * write lock without releasing it. The snapshots it published stay readable until released.
   */
  async abandon(): Promise<Lock> {
    if (this.closed) return this.lock;
    this.closing = true;
    await this.merges.idle();
    this.closed = true;
    this.abandoned = true;
    await Promise.allSettled([...this.stoppingThreads, this.bulkThreads?.terminate()]);
    await this.wal.close().catch(() => undefined);
    return this.lock;
  }

  /** Readers of the last commit's segments, for a reopen to reuse (segment files never change). */
  committedReaders(): Map<string, SegmentReader> {
    const committed = new Set(this.committed.segments.map((s) => s.name));
    return new Map([...this.registry.readersByName()].filter(([name]) => committed.has(name)));
  }

  private newBuffer(): WriteBuffer {
    return this.thread === null ? new SegmentBuffer(this.mapping, this.analyzer) : new ThreadedSegmentBuffer(this.thread);
  }

  private async writeFiles(files: ReadonlyMap<string, Uint8Array>): Promise<void> {
    for (const [name, bytes] of files) await this.dir.writeFile(name, bytes);
  }

  /** A background thread wrote `files` to the directory (see `ThreadFilesDirectory`). */
  private wroteOnThread(files: ReadonlyMap<string, Uint8Array>): void {
    if (hasThreadFiles(this.dir)) this.dir.wroteOnThread([...files.keys()]);
  }

  private deleteLater(name: string): void {
    if (this.abandoned) return;
    const task = this.dir.delete(name).catch((e: unknown) => {
      this.log.warn(`could not delete ${name}: ${(e as Error).message}`);
    });
    this.deletions.add(task);
    void task.finally(() => this.deletions.delete(task));
  }

  private checkOpen(): void {
    if (this.failure !== null) throw this.failure;
    if (this.closed) throw new Error('index writer is closed');
  }

  /**
   * An I/O failure in the write path leaves memory and disk out of step: stop accepting writes and
   * answer each with `index_unavailable` until the writer is reopened (`writer-reopener.ts`).
   */
  private fail(e: unknown, during: string): YarrowError {
    if (this.failure !== null) return this.failure;
    const failure = writerFailure(e, during);
    this.failure = failure;
    this.log.error(`index writer failed while ${during}, writes are refused until it reopens: ${e instanceof Error ? e.message : String(e)}`);
    this.signalFailure(failure);
    return failure;
  }
}
