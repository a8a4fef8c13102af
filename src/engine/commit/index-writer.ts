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
import { FileRefs } from './file-refs.js';
import { manifestFiles } from './manifest.js';
import type { Manifest } from './manifest.js';
import { MergeScheduler } from './merge-scheduler.js';
import { Mutex } from './mutex.js';
import { SegmentRegistry, openCommittedSegment } from './segment-registry.js';
import type { LiveSegment } from './segment-registry.js';
import type { WriteAheadLog } from './write-ahead-log.js';
import type { WalEntry } from './write-ahead-log.js';
import type { CommitResult, PreparedDocument, WriterOptions } from './writer-options.js';
import { VectorDimensions } from './vector-check.js';

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
  private buffer: SegmentBuffer;
  /** Ids upserted or deleted since the last refresh: older copies in segments must be deleted. */
  private pendingIds = new Set<string>();
  private committed: Manifest;
  /** Segment names are never reused, even for merges that run while a commit is written. */
  private nextSegmentId: number;
  private checkpoints: Record<string, unknown>;
  private dirty = false;
  private readonly deletions = new Set<Promise<void>>();
  private failure: Error | null = null;
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
    this.refs = new FileRefs((name) => { this.deleteLater(name); });
    this.committed = manifest;
    this.nextSegmentId = manifest.nextSegmentId;
    this.checkpoints = { ...manifest.checkpoints };
    this.refs.incRef(manifestFiles(manifest));
    this.buffer = new SegmentBuffer(mapping, analyzer);
    this.registry = new SegmentRegistry(segments, this.refs);
    this.vectorDims = new VectorDimensions(mapping, segments.map((s) => s.info));
    this.merges = new MergeScheduler({
      dir,
      log,
      mutex: this.mutex,
      registry: this.registry,
      policy: options.mergePolicy,
      segmentLoad: options.segmentLoad,
      canMerge: () => options.merges && !this.closing && !this.closed && this.failure === null,
      isLive: () => !this.closed && this.failure === null,
      allocateSegmentId: () => this.nextSegmentId++,
      deleteLater: (name) => { this.deleteLater(name); },
      merged: () => {
        this.dirty = true;
        this.registry.republish();
      },
      writeFiles: (files) => this.writeFiles(files),
    });
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
   * durable in the WAL; it becomes searchable at the next refresh.
   */
  async write(docs: readonly PreparedDocument[], deletes: readonly string[] = []): Promise<void> {
    this.checkOpen();
    const ops: WalEntry[] = [];
    for (const d of docs) ops.push(d.doc.vectors.size === 0 ? { uJson: d.walJson } : { uJson: d.walJson, vectors: d.doc.vectors });
    for (const id of deletes) ops.push({ d: id });
    const durable = await this.mutex.run(async () => {
      this.checkOpen();
      this.vectorDims.check(docs);
      let synced: Promise<void>;
      try {
        const end = await this.wal.append(ops);
        // The fsync runs on libuv's thread pool while this thread inverts the batch.
        synced = this.wal.syncTo(end);
      } catch (e) {
        throw this.fail(e);
      }
      // Handled below; marked now so a rejection never counts as unhandled while the batch inverts.
      synced.catch(() => undefined);
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
    try {
      await durable.synced;
    } catch (e) {
      throw this.fail(e);
    }
    if (this.buffer.estimatedBytes > this.options.maxBufferBytes) await this.refresh();
    if (this.wal.size > this.options.maxWalBytes) await this.commit();
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
      this.buffer = new SegmentBuffer(this.mapping, this.analyzer);
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
      await this.wal.close().catch((e: unknown) => { this.log.warn(`closing the write-ahead log failed: ${(e as Error).message}`); });
      this.registry.release();
      await Promise.allSettled([...this.deletions]);
      await this.lock.release();
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
        await this.writeFiles(flushed.files);
        const reader = await SegmentReader.open(this.dir, flushed.info, flushed.files, this.options.segmentLoad);
        const liveDocs = LiveDocs.allLive(flushed.info.maxDoc);
        for (const d of flushed.deletedDocs) liveDocs.delete(d);
        added = { info: flushed.info, reader, liveDocs, liveDirty: flushed.deletedDocs.length > 0, durable: false, delGen: 0, merging: false };
      } catch (e) {
        throw this.fail(e);
      }
    }
    // Delete older copies of every touched id from the existing segments (copy-on-write).
    this.registry.deleteIds(this.pendingIds);
    this.pendingIds = new Set();
    if (added !== null) {
      this.registry.add(added);
      this.buffer = new SegmentBuffer(this.mapping, this.analyzer);
    }
    if (this.registry.dropFullyDeleted()) this.dirty = true;
    this.registry.republish();
    this.refreshesMade++;
    return true;
  }

  private async commitLocked(): Promise<CommitResult> {
    await this.refreshLocked();
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
      throw this.fail(e);
    }
  }

  private async writeFiles(files: ReadonlyMap<string, Uint8Array>): Promise<void> {
    for (const [name, bytes] of files) await this.dir.writeFile(name, bytes);
  }

  private deleteLater(name: string): void {
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

  /** An I/O failure in the write path leaves memory and disk out of step: stop accepting writes. */
  private fail(e: unknown): Error {
    const error = e instanceof Error ? e : new Error(String(e));
    this.failure ??= error;
    this.log.error(`index writer failed, writes are refused until reopen: ${error.message}`);
    return error;
  }
}
