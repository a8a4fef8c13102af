/**
 * Bulk loading of one input (a file of `index file`) on worker threads, with no write-ahead log:
 * the main thread cuts the input into chunks of whole lines and transfers them to the threads
 * (`bulk-load-worker.ts`), each of which parses, validates and inverts its chunks into a segment
 * buffer of its own; full buffers come back as segment files, which this thread writes. Nothing
 * is published before {@link BulkLoad.finish} registers the segments with the writer, and the
 * caller's commit makes them durable: a crash before that commit leaves only files no commit
 * references, which the next open deletes, and the last commit intact. So an input is loaded
 * whole or not at all without logging a byte of it, and its text is held once, not twice.
 *
 * Chunks go to the least busy thread, so the copies of one id may sit in several segments in any
 * order: each doc carries its input line, and the copy from the latest line wins
 * (`bulk-ids.ts`). Memory is bounded by bytes: at most two chunks wait per thread, and each
 * thread's buffer flushes at 1.5 times the writer's buffer size ({@link BULK_BUFFER_SCALE}):
 * fewer, larger segments cost less to build and to search (half the writer's size doubled the
 * segments and the merges, and cost more CPU and peak RSS on the npm corpus).
 */
import { YarrowError } from '../errors.js';
import type { Mapping } from '../schema/mapping.js';
import { mappingToJson } from '../schema/mapping.js';
import type { SegmentInfo } from '../segment/segment-info.js';
import type { SegmentReader } from '../segment/segment-reader.js';
import type { Worker } from 'node:worker_threads';
import { BuiltIdResolver } from './bulk-ids.js';
import type { BuiltIds } from './bulk-ids.js';
import type { BulkError, BulkInit, BulkReply, BulkRequest, BulkWorkerData } from './bulk-load-worker.js';
import { startEngineWorker, wholeBuffer, WorkerChannel } from './engine-worker.js';

/** A segment a bulk load built and wrote (its files are on disk, not yet committed). */
export interface BuiltSegment extends BuiltIds {
  readonly info: SegmentInfo;
  /** Its reader, opened from its files in memory once they are written (see {@link BulkLoadHost.openReader}). */
  reader?: Promise<SegmentReader>;
}

/** What a bulk load needs of the writer. */
export interface BulkLoadHost {
  allocateSegmentName(): string;
  /** Writes a segment's files (a failure stops the writer). */
  writeFiles(files: ReadonlyMap<string, Uint8Array>): Promise<void>;
  /**
   * Opens the reader of a segment just written, from its files in memory; {@link register} takes
   * it. Opened as each segment is written, not all at the end, it is off the load's tail.
   */
  openReader(info: SegmentInfo, files: ReadonlyMap<string, Uint8Array>): Promise<SegmentReader>;
  /**
   * Starts making written files durable ahead of the commit, which still syncs every file it
   * publishes: by then the data of all but the last segments is on disk, and the commit's sync of
   * them finds nothing to write. Failures are left to that sync.
   */
  syncAhead(names: readonly string[]): void;
  /** Stops the threads once the last load is done with them (see {@link BulkLoadOptions.last}). */
  releaseThreads(): void;
  /** Deletes a file no commit references, when nothing uses it. */
  deleteFile(name: string): void;
  /**
   * Publishes the segments of a finished load (the next commit makes them durable); `ids` has had
   * each of them added, in their order, as it was built.
   */
  register(segments: readonly BuiltSegment[], ids: BuiltIdResolver): Promise<void>;
}

/** One input of a bulk load. */
export interface BulkLoadOptions {
  /** Names the input in errors. */
  readonly source: string;
  /** Prefix of the ids derived for documents without `_id`, unique per input (see `line-document-id.ts`). */
  readonly idPrefix: string;
  /** Told as chunks are indexed: documents and input bytes. */
  readonly onProgress?: (docs: number, bytes: number) => void;
  /**
   * No load follows this one: its threads stop as soon as its last segments are built, while the
   * main thread registers and commits them, rather than when the writer closes (issue 17: ~25-40
   * ms of `index file`'s tail). A later load would start threads of its own.
   */
  readonly last?: boolean;
}

/** Chunks waiting or being indexed per thread. */
const CHUNKS_PER_THREAD = 2;

/**
 * A bulk-load thread's buffer flushes at this multiple of the writer's buffer size. Its buffer
 * holds only what the segment needs (no log, no reader over it), and fewer, larger segments make
 * both the load and the queries after it cheaper: on the Debian corpus 4 segments instead of 6
 * (a probe with 3 gave query p50 -24%), at the same peak RSS on npm and Debian.
 */
const BULK_BUFFER_SCALE = 1.5;

/** How a bulk-load thread is started: the entry {@link startEngineWorker} would pick, or another (e.g. a bundle of it). */
export type BulkWorkerStarter = () => Worker;

/** A thread started ahead of its first load, loading its code while the caller opens the rest (see {@link prestartBulkThreads}). */
interface Prestarted {
  readonly worker: Worker;
  /** Set when it died before a load took it. */
  failed: boolean;
}

const prestarted: Prestarted[] = [];

/**
 * Starts `count` bulk-load threads now, before the index is open, so that their start-up (a
 * worker's isolate and the ~170 modules it loads: 100 ms or more on a busy machine) overlaps the
 * caller's reading of its config, opening of the store and of the input (issue 17: the threads
 * started 190 ms into `index file` and indexed their first chunk 130 ms later). They wait for
 * the mapping, which the first {@link BulkLoadThreads} hands them; {@link stopPrestartedBulkThreads}
 * stops those no load took. `start` starts one thread (default: the built entry next to this module).
 */
export function prestartBulkThreads(count: number, start: BulkWorkerStarter = () => startEngineWorker('bulk-load-worker', null)): void {
  for (let i = prestarted.length; i < count; i++) {
    const p: Prestarted = { worker: start(), failed: false };
    // Idle, it must not keep the process alive; a failure before a load takes it only drops it.
    p.worker.unref();
    p.worker.on('error', () => { p.failed = true; });
    p.worker.on('exit', () => { p.failed = true; });
    prestarted.push(p);
  }
}

/** Stops the threads {@link prestartBulkThreads} started that no load took (a mapping that cannot bulk load, an error before the load). */
export async function stopPrestartedBulkThreads(): Promise<void> {
  await Promise.allSettled(prestarted.splice(0).map((p) => p.worker.terminate()));
}

/** A thread for `data`: a prestarted one told its mapping, else a new one started with it. */
function takeWorker(data: BulkWorkerData): Worker {
  for (let p = prestarted.shift(); p !== undefined; p = prestarted.shift()) {
    if (p.failed) continue;
    p.worker.postMessage({ type: 'init', data } satisfies BulkInit);
    return p.worker;
  }
  return startEngineWorker('bulk-load-worker', data);
}

/** One bulk-load thread and the chunks it has not answered yet. */
class BulkThread {
  readonly channel: WorkerChannel<BulkRequest, BulkReply>;
  /** Bytes of the chunks it has not answered yet. */
  inflightBytes = 0;
  /** Chunks sent since the last flush request. */
  unflushed = 0;
  /** The last flush requested, until it is written. */
  flushing: Promise<void> | null = null;

  constructor(data: BulkWorkerData) {
    this.channel = new WorkerChannel(takeWorker(data), 'bulk-load thread');
  }
}

/** The bulk-load threads of a writer, started at its first bulk load and reused by the next ones. */
export class BulkLoadThreads {
  readonly threads: readonly BulkThread[];

  /** Starts `count` threads; each flushes its buffer at {@link BULK_BUFFER_SCALE} times `bufferBytes` (the writer's buffer size, estimated heap). */
  constructor(mapping: Mapping, count: number, bufferBytes: number) {
    const data: BulkWorkerData = { mapping: mappingToJson(mapping), flushBytes: Math.round(bufferBytes * BULK_BUFFER_SCALE) };
    this.threads = Array.from({ length: Math.max(1, count) }, () => new BulkThread(data));
  }

  /** Stops the threads. */
  async terminate(): Promise<void> {
    await Promise.allSettled(this.threads.map((t) => t.channel.terminate()));
  }
}

/** Whether documents of `mapping` can be bulk loaded: embedding models run on the main thread, before the log. */
export function canBulkLoad(mapping: Mapping): boolean {
  return mapping.fields.every((f) => f.semantic == null);
}

/** The load of one input; see the module comment. */
export class BulkLoad {
  private nextSeq = 0;
  private docs = 0;
  private lastLine = 0;
  private readonly chunks = new Set<Promise<void>>();
  private readonly flushes = new Set<Promise<void>>();
  /** Failures by the chunk they came from (-1: not a chunk's, e.g. writing a segment). */
  private readonly failures: { seq: number; error: Error }[] = [];
  private readonly segments: BuiltSegment[] = [];
  /** Each segment's ids, filed as it arrives, while the threads still index (`bulk-ids.ts`). */
  private readonly ids = new BuiltIdResolver();
  private done = false;
  /** The last flushes are asked for: a chunk's `full` no longer asks for one. */
  private finishing = false;

  constructor(
    private readonly threads: readonly BulkThread[],
    private readonly host: BulkLoadHost,
    private readonly options: BulkLoadOptions,
  ) {}

  /**
   * Indexes whole lines of the input (`bytes` is transferred: the caller must not touch it after),
   * the first being line `firstLine`. Resolves when another chunk may be pushed.
   * @throws the first failure in input order (the line that is not a valid document).
   */
  async push(bytes: Uint8Array, firstLine: number): Promise<void> {
    if (this.done) throw new Error('bulk load already finished');
    while (this.chunks.size >= this.threads.length * CHUNKS_PER_THREAD && this.failures.length === 0) await Promise.race(this.chunks);
    if (this.failures.length > 0) await this.throwFailure();
    // The thread with the fewest bytes to index: chunks shrink near the input's end (FileIndexer),
    // and the threads should run out of work together.
    const thread = this.threads.reduce((a, b) => (b.inflightBytes < a.inflightBytes ? b : a));
    const seq = this.nextSeq++;
    const byteLength = bytes.byteLength;
    thread.inflightBytes += byteLength;
    thread.unflushed++;
    const { source, idPrefix } = this.options;
    const whole = wholeBuffer(bytes);
    const transfer = whole === null ? [] : [whole];
    const task = thread.channel.request({ type: 'chunk', bytes, firstLine, source, idPrefix }, transfer).then(
      (reply) => {
        if (!reply.ok) {
          this.failures.push({ seq, error: toError(reply.error) });
          return;
        }
        this.docs += reply.docs ?? 0;
        this.lastLine = Math.max(this.lastLine, reply.lastLine ?? 0);
        this.options.onProgress?.(reply.docs ?? 0, byteLength);
        if (reply.full === true && thread.flushing === null && !this.finishing && this.failures.length === 0) this.flush(thread);
      },
      (e: unknown) => { this.failures.push({ seq, error: e as Error }); },
    ).finally(() => {
      thread.inflightBytes -= byteLength;
      this.chunks.delete(task);
    });
    this.chunks.add(task);
  }

  /**
   * Waits for every chunk, flushes the threads' buffers and registers the segments with the
   * writer; resolves to the number of documents loaded and the line of the last. The caller
   * commits.
   * @throws the first failure in input order.
   */
  async finish(): Promise<{ docs: number; lastLine: number }> {
    if (this.failures.length > 0) await this.throwFailure();
    this.finishing = true;
    // Each thread answers in order, so its last flush is asked for now and runs as soon as its own
    // chunks are indexed, not once every thread's are: the threads' last write-outs overlap
    // (issue 17: one thread idled ~80 ms of each Debian load waiting for the other's chunks).
    for (const t of this.threads) if (t.unflushed > 0) this.flush(t);
    await this.settle();
    if (this.options.last === true && this.failures.length === 0) this.host.releaseThreads();
    if (this.failures.length > 0) await this.throwFailure();
    this.done = true;
    await this.host.register(this.segments, this.ids);
    return { docs: this.docs, lastLine: this.lastLine };
  }

  /** Waits for the chunks sent so far; throws the first failure in input order, if any. */
  async check(): Promise<void> {
    await this.settle();
    if (this.failures.length > 0) await this.throwFailure();
  }

  /** Stops the load: waits for the threads, drops their buffers and deletes the segment files written. */
  async abort(): Promise<void> {
    this.done = true;
    await this.settle();
    await Promise.allSettled(this.threads.map((t) => t.channel.request({ type: 'reset' })));
    for (const s of this.segments) for (const f of s.info.files) this.host.deleteFile(f.name);
  }

  /** Asks `thread` for its buffer as a segment and writes it. */
  private flush(thread: BulkThread): void {
    thread.unflushed = 0;
    const task = (async () => {
      const reply = await thread.channel.request({ type: 'flush', name: this.host.allocateSegmentName() });
      if (!reply.ok) throw toError(reply.error);
      // After a failed chunk the load is aborted: a last flush asked for before it is not written.
      if (reply.segment == null || this.failures.length > 0) return;
      const { flushed, lines, idText, idEnds, idHashes } = reply.segment;
      // Recorded before writing, so that an abort deletes whatever part of it was written.
      const built: BuiltSegment = { info: flushed.info, deletedDocs: flushed.deletedDocs, lines, idText, idEnds, idHashes };
      this.segments.push(built);
      this.ids.add(built);
      await this.host.writeFiles(flushed.files);
      this.host.syncAhead([...flushed.files.keys()]);
      built.reader = this.host.openReader(flushed.info, flushed.files);
      // Taken by register; a failure there (or none, after an abort) must not count as unhandled.
      built.reader.catch(() => undefined);
    })().catch((e: unknown) => { this.failures.push({ seq: -1, error: e as Error }); }).finally(() => {
      if (thread.flushing === task) thread.flushing = null;
      this.flushes.delete(task);
    });
    thread.flushing = task;
    this.flushes.add(task);
  }

  /** Waits until no chunk or flush is under way. */
  private async settle(): Promise<void> {
    while (this.chunks.size > 0 || this.flushes.size > 0) await Promise.all([...this.chunks, ...this.flushes]);
  }

  /** Waits for every chunk sent (an earlier one may fail too), then throws the first failure in input order. */
  private async throwFailure(): Promise<never> {
    await this.settle();
    const first = this.failures.reduce((a, b) => (b.seq < a.seq ? b : a));
    throw first.error;
  }
}

function toError(e: BulkError): Error {
  return e.code === undefined ? new Error(e.message) : new YarrowError(e.code, e.message, e.details);
}

