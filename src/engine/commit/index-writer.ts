/**
 * The write path of one index: buffers validated documents, logs every batch to the write-ahead
 * log before acknowledging it, turns the buffer into segments on refresh, publishes snapshots for
 * searches, commits (segments + live docs + manifest, fsync'd, atomic rename) and merges segments
 * in the background under the merge policy.
 *
 * All state changes run under one mutex; WAL fsyncs happen outside it so concurrent batches share
 * one fsync (group commit).
 */
import type { Analyzer } from '../analysis/analyzer.js';
import { LiveDocs } from '../codec/live-docs/live-docs.js';
import { footerChecksum } from '../codec/file-format.js';
import type { Directory, Lock } from '../directory.js';
import type { Logger } from '../logger.js';
import type { Mapping } from '../schema/mapping.js';
import { mappingToJson } from '../schema/mapping.js';
import type { ValidDocument } from '../schema/document.js';
import { segmentName } from '../segment/segment-component.js';
import { liveDocsFile, liveDocsGenerationOf } from '../index-files.js';
import type { SegmentInfo } from '../segment/segment-info.js';
import { segmentBytes } from '../segment/segment-info.js';
import { SegmentBuffer } from '../segment/segment-buffer.js';
import { mergeSegments } from '../segment/segment-merger.js';
import type { MergeSource } from '../segment/segment-merger.js';
import { SegmentLoad, SegmentReader } from '../segment/segment-reader.js';
import { Snapshot } from '../segment/snapshot.js';
import { FileRefs } from './file-refs.js';
import { FORMAT_VERSION, MANIFEST_FILE, MANIFEST_TEMP_FILE, encodeManifest, manifestFiles } from './manifest.js';
import type { Manifest } from './manifest.js';
import { planMerges } from './merge-policy.js';
import type { MergePolicyOptions } from './merge-policy.js';
import { Mutex } from './mutex.js';
import { TimeSlicer, yieldToEventLoop } from '../event-loop.js';
import { WriteAheadLog, walFile, walGenerationOf } from './write-ahead-log.js';
import type { WalEntry } from './write-ahead-log.js';

/** A segment as the writer tracks it. */
interface LiveSegment {
  info: SegmentInfo;
  readonly reader: SegmentReader;
  liveDocs: LiveDocs;
  /** Deletes not yet written to a live docs file. */
  liveDirty: boolean;
  /** Files fsync'd (a segment flushed by a refresh is not until the next commit). */
  durable: boolean;
  /** Deletion generation of its live docs file. */
  delGen: number;
  merging: boolean;
}

/** Tuning of the write path. */
export interface WriterOptions {
  /** Flush the buffer to a segment when its estimated heap use exceeds this. */
  readonly maxBufferBytes: number;
  /** Commit on its own when the WAL grows past this many bytes. */
  readonly maxWalBytes: number;
  /** Merge segments in the background. */
  readonly merges: boolean;
  readonly mergePolicy: Partial<MergePolicyOptions>;
  /**
   * What the writer's segment readers load: `full` for an index that is also searched, `ids` for a
   * write-only process (memory stays at a few bytes per id; a merge loads its sources phase by phase).
   */
  readonly segmentLoad: SegmentLoad;
}

export const defaultWriterOptions: WriterOptions = {
  maxBufferBytes: 64 * 1024 * 1024,
  maxWalBytes: 256 * 1024 * 1024,
  merges: true,
  mergePolicy: {},
  segmentLoad: SegmentLoad.full,
};

/** A validated document ready for the writer, serialised once for both the WAL and stored fields. */
export interface PreparedDocument {
  readonly doc: ValidDocument;
  readonly id: string;
  /** JSON of the stored fields (with `_id`). */
  readonly storedJson: string;
  /** The upsert as the WAL logs it: its validated form (see `walUpsertJson`). */
  readonly walJson: string;
}

/** What a commit produced. */
export interface CommitResult {
  readonly seq: number;
  readonly files: readonly string[];
}

/** The single writer of an index; created by `Index.open`. */
export class IndexWriter {
  private readonly mutex = new Mutex();
  private readonly refs: FileRefs;
  private buffer: SegmentBuffer;
  /** Ids upserted or deleted since the last refresh: older copies in segments must be deleted. */
  private pendingIds = new Set<string>();
  private current: Snapshot;
  private generation = 0;
  private committed: Manifest;
  /** Segment names are never reused, even for merges that run while a commit is written. */
  private nextSegmentId: number;
  private checkpoints: Record<string, unknown>;
  private dirty = false;
  /** The merge running now, if any (one at a time, see maybeMerge); it never rejects. */
  private runningMerge: Promise<boolean> | null = null;
  private readonly deletions = new Set<Promise<void>>();
  private failure: Error | null = null;
  private closing = false;
  private closed = false;
  private commitsMade = 0;
  private refreshesMade = 0;
  /** Bumped by every setCheckpoint, so a commit knows whether one arrived while it was writing. */
  private checkpointVersion = 0;

  constructor(
    private readonly dir: Directory,
    private readonly mapping: Mapping,
    private readonly analyzer: (name: string) => Analyzer,
    private readonly lock: Lock,
    private readonly log: Logger,
    private readonly options: WriterOptions,
    private segments: LiveSegment[],
    manifest: Manifest,
    private wal: WriteAheadLog,
  ) {
    this.refs = new FileRefs((name) => { this.deleteLater(name); });
    this.committed = manifest;
    this.nextSegmentId = manifest.nextSegmentId;
    this.checkpoints = { ...manifest.checkpoints };
    this.refs.incRef(manifestFiles(manifest));
    this.buffer = new SegmentBuffer(mapping, analyzer);
    this.current = this.publish();
  }

  /** The latest published snapshot, acquired for the caller (release it when done). */
  acquireSnapshot(): Snapshot {
    return this.current.acquire();
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
    for (const d of docs) ops.push({ uJson: d.walJson });
    for (const id of deletes) ops.push({ d: id });
    const durable = await this.mutex.run(async () => {
      this.checkOpen();
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
    this.maybeMerge();
  }

  /** Durably commits everything written so far; returns the commit's seq and files. */
  async commit(): Promise<CommitResult> {
    this.checkOpen();
    const result = await this.mutex.run(() => this.commitLocked());
    this.maybeMerge();
    return result;
  }

  /**
   * Discards every write since the last commit: buffered documents, segments flushed or merged
   * since, deletes, and their write-ahead log. Durable once resolved: a new manifest with the last
   * commit's segments (and a new seq) makes the discarded log generations irrelevant.
   */
  async rollback(): Promise<CommitResult> {
    this.checkOpen();
    while (this.runningMerge !== null) await this.runningMerge;
    return this.mutex.run(async () => {
      // Nothing written, deleted, merged or checkpointed since the commit: nothing to undo.
      if (!this.dirty) return { seq: this.committed.seq, files: manifestFiles(this.committed) };
      const known = new Map<string, SegmentReader>();
      for (const view of this.current.segments) known.set(view.reader.name, view.reader);
      const restored: LiveSegment[] = [];
      for (const info of this.committed.segments) {
        const reader = known.get(info.name) ?? (await SegmentReader.open(this.dir, info, undefined, this.options.segmentLoad));
        restored.push({
          info,
          reader,
          liveDocs: await reader.readLiveDocs(this.dir, info),
          liveDirty: false,
          durable: true,
          delGen: liveDocsGeneration(info),
          merging: false,
        });
      }
      this.segments = restored;
      this.buffer = new SegmentBuffer(this.mapping, this.analyzer);
      this.pendingIds = new Set();
      this.checkpoints = { ...this.committed.checkpoints };
      this.replaceSnapshot();
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
      while (this.runningMerge !== null) await this.runningMerge;
      if (this.failure === null) await this.mutex.run(() => this.commitLocked());
    } finally {
      this.closed = true;
      await this.wal.close().catch((e: unknown) => { this.log.warn(`closing the write-ahead log failed: ${(e as Error).message}`); });
      this.current.release();
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
        const flushed = await this.buffer.flush(segmentName(this.allocateSegmentId()));
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
    for (const seg of this.segments) {
      let cloned = false;
      for (const id of this.pendingIds) {
        for (const doc of seg.reader.docsWithId(id)) {
          if (!seg.liveDocs.isLive(doc)) continue;
          if (!cloned) {
            seg.liveDocs = seg.liveDocs.clone();
            cloned = true;
          }
          seg.liveDocs.delete(doc);
          seg.liveDirty = true;
        }
      }
    }
    this.pendingIds = new Set();
    if (added !== null) {
      this.segments.push(added);
      this.buffer = new SegmentBuffer(this.mapping, this.analyzer);
    }
    this.dropFullyDeleted();
    this.replaceSnapshot();
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
      const nextGeneration = this.wal.generation + 1;
      await this.wal.rotate(nextGeneration);
      const toSync: string[] = [];
      for (const seg of this.segments) {
        if (!seg.durable) toSync.push(...seg.info.files.map((f) => f.name));
        if (seg.liveDirty) {
          seg.delGen++;
          const bytes = seg.liveDocs.encode();
          const name = liveDocsFile(seg.info.name, seg.delGen);
          await this.dir.writeFile(name, bytes);
          toSync.push(name);
          seg.info = { ...seg.info, liveDocs: { name, size: bytes.length, crc32: footerChecksum(bytes, name) }, deletedCount: seg.info.maxDoc - seg.liveDocs.liveCount };
        }
      }
      await this.dir.sync(toSync);
      const manifest: Manifest = {
        formatVersion: FORMAT_VERSION,
        name: this.committed.name,
        mapping: mappingToJson(this.mapping),
        seq: this.committed.seq + 1,
        committedAt: new Date().toISOString(),
        segments: this.segments.map((s) => s.info),
        nextSegmentId: this.nextSegmentId,
        walGeneration: nextGeneration,
        checkpoints: { ...this.checkpoints },
      };
      await writeManifest(this.dir, manifest);
      for (const seg of this.segments) {
        seg.durable = true;
        seg.liveDirty = false;
      }
      const files = manifestFiles(manifest);
      this.log.info(`commit seq=${manifest.seq} files=[${files.join(',')}]`, { seq: manifest.seq, files, docs: this.current.liveCount });
      this.refs.incRef(files);
      this.refs.decRef(manifestFiles(this.committed));
      this.committed = manifest;
      this.commitsMade++;
      // A checkpoint set while this commit was being written is not in it: stay dirty.
      this.dirty = this.checkpointVersion !== checkpointVersion;
      for (const name of await this.dir.list()) {
        const gen = walGenerationOf(name);
        if (gen !== undefined && gen < nextGeneration) this.deleteLater(name);
      }
      return { seq: manifest.seq, files };
    } catch (e) {
      throw this.fail(e);
    }
  }

  private allocateSegmentId(): number {
    return this.nextSegmentId++;
  }

  /** Segments whose docs are all deleted are dropped instead of being kept or merged. */
  private dropFullyDeleted(): void {
    const keep = this.segments.filter((s) => s.liveDocs.liveCount > 0 || s.merging);
    if (keep.length !== this.segments.length) {
      this.segments = keep;
      this.dirty = true;
    }
  }

  /** Publishes the current segments; the new snapshot takes its file references before the old one drops its own. */
  private replaceSnapshot(): void {
    const previous = this.current;
    this.current = this.publish();
    previous.release();
  }

  private publish(): Snapshot {
    const segments = this.segments.map((s) => ({ reader: s.reader, liveDocs: s.liveDocs }));
    const files = this.segments.flatMap((s) => s.info.files.map((f) => f.name));
    this.refs.incRef(files);
    return new Snapshot(++this.generation, segments, () => { this.refs.decRef(files); });
  }

  private async writeFiles(files: ReadonlyMap<string, Uint8Array>): Promise<void> {
    for (const [name, bytes] of files) await this.dir.writeFile(name, bytes);
  }

  /**
   * Starts the next merge the policy wants, if none is running. One merge at a time: JavaScript
   * runs them on one thread anyway, so running several at once would only add up their memory.
   * Each finished merge plans the next.
   */
  private maybeMerge(): void {
    if (!this.options.merges || this.closing || this.closed || this.failure !== null || this.runningMerge !== null) return;
    const eligible = this.segments.filter((s) => !s.merging);
    const plans = planMerges(
      eligible.map((s) => ({ name: s.info.name, maxDoc: s.info.maxDoc, liveDocs: s.liveDocs.liveCount, sizeBytes: segmentBytes(s.info) })),
      this.options.mergePolicy,
    );
    if (plans.length === 0) return;
    const plan = plans[0];
    const sources = plan.segments.map((n) => this.segments.find((s) => s.info.name === n)!);
    for (const s of sources) s.merging = true;
    const task = this.runMerge(sources).then(
      () => true,
      (e: unknown) => {
        this.log.error(`merge of ${plan.segments.join(',')} failed: ${(e as Error).message}`);
        for (const s of sources) s.merging = false;
        return false;
      },
    );
    this.runningMerge = task;
    void task.then((succeeded) => {
      this.runningMerge = null;
      // After a failure the next refresh or commit plans again, rather than retrying in a loop.
      if (succeeded) this.maybeMerge();
    });
  }

  private async runMerge(sources: LiveSegment[]): Promise<void> {
    // Let the caller's turn finish before the CPU-heavy part.
    await yieldToEventLoop();
    // A merge planned before close() began still runs: close() waits for it before its last commit.
    if (this.closed || this.failure !== null) {
      for (const s of sources) s.merging = false;
      return;
    }
    const startLive = sources.map((s) => s.liveDocs);
    const name = segmentName(this.allocateSegmentId());
    const { reader, info, docMaps } = await this.writeMerged(name, sources, startLive);
    await this.mutex.run(() => {
      if (this.closed || this.failure !== null || !sources.every((s) => this.segments.includes(s))) {
        // A rollback (or close) replaced the sources meanwhile: the merge result is obsolete.
        for (const file of info.files) this.deleteLater(file.name);
        return;
      }
      // Carry over deletes that happened while merging.
      const liveDocs = LiveDocs.allLive(info.maxDoc);
      sources.forEach((s, i) => {
        const map = docMaps[i];
        for (let d = 0; d < map.length; d++) if (map[d] >= 0 && !s.liveDocs.isLive(d)) liveDocs.delete(map[d]);
      });
      const position = this.segments.indexOf(sources[0]);
      this.segments = this.segments.filter((s) => !sources.includes(s));
      this.segments.splice(Math.min(position, this.segments.length), 0, {
        info,
        reader,
        liveDocs,
        liveDirty: liveDocs.liveCount < info.maxDoc,
        durable: false,
        delGen: 0,
        merging: false,
      });
      this.dirty = true;
      this.log.debug(`merged ${sources.map((s) => s.info.name).join(',')} into ${name}`, { docs: info.maxDoc });
      this.replaceSnapshot();
    });
  }

  /**
   * Merges and writes the merged segment, returning only what outlives the merge: the source
   * readers opened for it and the merged files' bytes are garbage once this returns. A source held
   * by an id-only reader is opened phase by phase (verifying checksums) and dropped after.
   */
  private async writeMerged(
    name: string,
    segments: readonly LiveSegment[],
    liveDocs: readonly LiveDocs[],
  ): Promise<{ reader: SegmentReader; info: SegmentInfo; docMaps: readonly Int32Array[] }> {
    const sources: MergeSource[] = segments.map((s, i) => ({
      maxDoc: s.info.maxDoc,
      liveDocs: liveDocs[i],
      open: async (load) => (s.reader.searchable ? s.reader : SegmentReader.open(this.dir, s.info, undefined, load)),
    }));
    const written: string[] = [];
    try {
      const { info, docMaps } = await mergeSegments(name, sources, async (files) => {
        written.push(...files.keys());
        await this.writeFiles(files);
      });
      const reader = await SegmentReader.open(this.dir, info, undefined, this.options.segmentLoad);
      return { reader, info, docMaps };
    } catch (e) {
      for (const file of written) this.deleteLater(file);
      throw e;
    }
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

/** The deletion generation of a segment's live docs file (0 when it has none). */
export function liveDocsGeneration(info: SegmentInfo): number {
  return info.liveDocs === null ? 0 : liveDocsGenerationOf(info.liveDocs.name);
}

/** Writes a manifest durably: temp file, fsync, atomic rename. */
export async function writeManifest(dir: Directory, manifest: Manifest): Promise<void> {
  await dir.writeFile(MANIFEST_TEMP_FILE, encodeManifest(manifest));
  await dir.sync([MANIFEST_TEMP_FILE]);
  await dir.rename(MANIFEST_TEMP_FILE, MANIFEST_FILE);
}

export { walFile };
