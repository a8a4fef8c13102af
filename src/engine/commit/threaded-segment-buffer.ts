/**
 * A segment buffer on an inversion thread (`inversion-worker.ts`), so that tokenizing, inverting
 * and encoding segments run on a second core while this thread parses, validates and logs the
 * next batch.
 *
 * Durability is unchanged: a batch is in the write-ahead log, fsynced by the writer, before the
 * thread applies it; the writer appends a batch it encoded itself and hands the thread the very
 * bytes it logged, and has the thread append the record of an `_index` body it parsed (to a local
 * log; elsewhere the thread hands it over) in the log's order (`logParsed`). An acknowledged batch
 * is in the log whatever the thread does, and a crash replays it. The thread receives batches in their log form, so whatever the log
 * carries per document (vectors, suggestion candidates, source markers) reaches the thread with
 * no change to the protocol: the thread decodes it with the replay's decoder.
 *
 * Memory stays bounded: at most one batch waits while the thread inverts another, and the
 * buffer's size (the thread's estimate plus the bytes of batches not yet applied) triggers a flush
 * as the in-process buffer's does.
 */
import type { ValidDocument } from '../schema/document.js';
import { mappingToJson } from '../schema/mapping.js';
import type { Mapping } from '../schema/mapping.js';
import type { FlushedBuffer } from '../segment/segment-buffer.js';
import { handedOverBuffer, startEngineWorker, threadFailureError, transferableBuffer, wholeBuffer, WorkerChannel } from './engine-worker.js';
import type { ThreadFilesSpec } from './engine-worker.js';
import { invalidBatchError } from './body-batch.js';
import { foregroundGate } from './foreground-gate.js';
import { IdFilter } from './id-filter.js';
import type { InversionReply, InversionRequest, InversionWorkerData } from './inversion-worker.js';
import type { WalEntry } from './write-ahead-log.js';
import { encodeWalRecord, walUpsertJson } from './write-ahead-log.js';
import type { WriteBuffer } from './write-buffer.js';

type OkReply = Extract<InversionReply, { ok: true }>;

/** Entries gathered doc by doc (a WAL replay) before they go to the thread as one batch. */
const QUEUED_BATCH = 1000;

/** Body chunks sent to the thread and not yet parsed: more wait in the socket (backpressure). */
const CHUNKS_IN_FLIGHT = 4;

/** A body parsed on the thread, waiting there to be logged and applied (see `body-batch.ts`). */
export interface ParsedBody {
  readonly batch: number;
  readonly docs: number;
  /** Bytes of the body. */
  readonly bytes: number;
  /** Bytes of the write-ahead log record of its documents, which the thread holds (see {@link InversionThread.logParsed}). */
  readonly recordLength: number;
  readonly ids: readonly string[];
}

/**
 * A chunk of a request body as bytes this thread can hand over to another. A socket's body chunk
 * is usually a buffer of its own (node copies each parsed piece of a body out of the socket's read
 * buffer), which is transferred as it is: no copy, and once handed over it no longer counts
 * against this thread's heap limit (V8 counts array buffers allocated since the last full
 * collection, and an 8 MB body's chunks plus their copies brought on full collections while
 * searches waited; issue 17). A view into a larger or pooled buffer is copied first: transferring
 * it would hand over bytes that are not its own, or fail.
 */
export function ownBytes(chunk: Uint8Array): { bytes: Uint8Array; buffer: ArrayBuffer } {
  const whole = transferableBuffer(chunk);
  if (whole !== null) return { bytes: chunk, buffer: whole };
  const copy = new Uint8Array(chunk);
  return { bytes: copy, buffer: copy.buffer };
}

/** One inversion thread, serving the writer's successive buffers. */
export class InversionThread {
  private readonly channel: WorkerChannel<InversionRequest, InversionReply>;
  private nextBatch = 0;

  /**
   * Starts the thread; `nice` lowers its scheduling priority (see `lowerThreadPriority`); given
   * `files`, the thread writes each flushed segment's files to the directory itself.
   */
  constructor(mapping: Mapping, nice = 0, files?: ThreadFilesSpec) {
    const data: InversionWorkerData = { mapping: mappingToJson(mapping), nice, gate: foregroundGate().shared, ...(files === undefined ? {} : { files }) };
    this.channel = new WorkerChannel(startEngineWorker('inversion-worker', data), 'inversion thread');
  }

  /** Sends a request (transferring `transfer`); resolves with its reply. */
  async request(request: InversionRequest, transfer: readonly ArrayBuffer[] = []): Promise<OkReply> {
    const reply = await this.channel.request(request, transfer);
    if (reply.ok) return reply;
    // The buffer is in an unknown state: every later request fails too.
    this.channel.fail(threadFailureError('inversion thread failed', reply));
    throw this.channel.failed!;
  }

  /**
   * Streams `body` to the thread, which splits, parses, validates and serialises its documents
   * (`body-batch.ts`); resolves with the record to log, or rejects naming the first invalid
   * document (nothing kept). At most {@link CHUNKS_IN_FLIGHT} chunks wait for the thread, so a
   * client sending faster than the thread parses waits in its socket. `onChunk` sees the bytes
   * and documents so far.
   */
  async parseBody(body: AsyncIterable<Uint8Array>, onChunk?: (docs: number, bytes: number) => void): Promise<ParsedBody> {
    const batch = this.nextBatch++;
    // Written by the replies as they come in.
    const seen: { invalid: Error | null; docs: number } = { invalid: null, docs: 0 };
    let bytes = 0;
    const inflight = new Set<Promise<void>>();
    try {
      for await (const chunk of body) {
        if (chunk.length === 0) continue;
        bytes += chunk.length;
        const own = ownBytes(chunk);
        const parsed = this.request({ type: 'parse', batch, bytes: own.bytes }, [own.buffer]).then((reply) => {
          if (reply.invalid !== undefined) seen.invalid ??= invalidBatchError(reply.invalid);
          else seen.docs = Math.max(seen.docs, reply.docs ?? 0);
        });
        inflight.add(parsed);
        void parsed.finally(() => inflight.delete(parsed)).catch(() => undefined);
        while (inflight.size >= CHUNKS_IN_FLIGHT && seen.invalid === null) await Promise.race(inflight);
        if (seen.invalid !== null) break;
        onChunk?.(seen.docs, bytes);
      }
      await Promise.all(inflight);
      if (seen.invalid !== null) throw seen.invalid;
      const sealed = await this.request({ type: 'seal', batch });
      if (sealed.invalid !== undefined) throw invalidBatchError(sealed.invalid);
      return { batch, docs: sealed.docs ?? 0, bytes, recordLength: sealed.recordLength ?? 0, ids: sealed.ids ?? [] };
    } catch (e) {
      // The body failed to arrive or holds an invalid document: the thread forgets the batch.
      this.drop(batch);
      throw e;
    }
  }

  /**
   * The writer's turn to log a parsed body: given the log's current `file` (a local file the
   * thread can append to), the thread appends the record itself, at its own idle priority, and
   * this resolves null; otherwise (`file` null, or the thread has no files) it resolves with the
   * record, transferred, for the caller to append and then hand back (`applyParsed`). Call it
   * in the log's append order (`WriteAheadLog.appendFrom`).
   */
  async logParsed(batch: number, file: string | null): Promise<Uint8Array | null> {
    const reply = await this.request({ type: 'log', batch, file });
    if (reply.logged === true) return null;
    if (reply.record === undefined) throw new Error('the inversion thread neither logged nor returned a record');
    return reply.record;
  }

  /** Forgets a parsed batch that will not be logged. */
  drop(batch: number): void {
    this.request({ type: 'drop', batch }).catch(() => undefined);
  }

  /** Stops the thread (what it buffers is in the write-ahead log). */
  terminate(): Promise<void> {
    return this.channel.terminate();
  }
}

/** The buffer of one future segment, held by an {@link InversionThread}. */
export class ThreadedSegmentBuffer implements WriteBuffer {
  private docs = 0;
  /** The thread's estimate after the last batch it applied. */
  private reported = 0;
  /** Record bytes sent but not yet applied. */
  private unapplied = 0;
  private queued: WalEntry[] = [];
  /** The reply to the last request sent; replies come in order, so it settles after all others. */
  private latest: Promise<unknown>;

  /** Starts an empty buffer on `thread` (dropping whatever the thread held). */
  constructor(private readonly thread: InversionThread) {
    this.latest = this.track(thread.request({ type: 'reset' }));
  }

  get maxDoc(): number {
    return this.docs;
  }

  get estimatedBytes(): number {
    return this.reported + this.unapplied;
  }

  add(doc: ValidDocument, id: string, storedJson: string): void {
    const uJson = walUpsertJson(doc, id, storedJson);
    this.queued.push(doc.vectors.size === 0 ? { uJson } : { uJson, vectors: doc.vectors });
    this.docs++;
    if (this.queued.length >= QUEUED_BATCH) this.sendQueued();
  }

  delete(id: string): void {
    this.queued.push({ d: id });
    if (this.queued.length >= QUEUED_BATCH) this.sendQueued();
  }

  async applyLogged(record: Uint8Array, upserts: number): Promise<void> {
    this.sendQueued();
    this.docs += upserts;
    const before = this.latest;
    this.send(record);
    // One batch may wait behind the one being inverted; more would grow memory without bound.
    await before;
  }

  /**
   * Applies a body the thread parsed (`parseBody`) and the writer has logged; resolves, as
   * {@link applyLogged} does, when the buffer can take the next batch. `appended` is the record
   * when this thread appended it (`logParsed` returned it), null when the thread did.
   */
  async applyParsed(body: ParsedBody, appended: Uint8Array | null): Promise<void> {
    this.sendQueued();
    this.docs += body.docs;
    const before = this.latest;
    const length = body.recordLength;
    this.unapplied += length;
    // A record this thread appended goes back to the thread that encoded it, which builds a later
    // body's record in it: handed over, it no longer counts against this thread's heap limit,
    // where a body's worth of it per request brought on a full collection (and its pause) about
    // every second batch. The record is a view from the start of a buffer the thread handed over whole.
    const spent = appended === null ? null : handedOverBuffer(appended);
    const request: InversionRequest = spent === null ? { type: 'apply', batch: body.batch } : { type: 'apply', batch: body.batch, spent: appended! };
    this.latest = this.track(
      this.thread.request(request, spent === null ? [] : [spent]).then((reply) => {
        this.unapplied -= length;
        this.reported = reply.estimatedBytes ?? this.reported;
      }),
    );
    await before;
  }

  async flush(name: string): Promise<FlushedBuffer & { readonly idFilter?: IdFilter; readonly written?: boolean }> {
    this.sendQueued();
    const reply = this.thread.request({ type: 'flush', name });
    this.latest = this.track(reply);
    // Replies come in order: every batch before the flush has been applied.
    const { flushed, idFilter, written } = await reply;
    return { ...flushed!, ...(idFilter === undefined ? {} : { idFilter: new IdFilter(0, idFilter) }), written: written === true };
  }

  private sendQueued(): void {
    if (this.queued.length === 0) return;
    const record = encodeWalRecord(this.queued);
    this.queued = [];
    this.send(record);
  }

  /**
   * Sends a record to the thread, handing its buffer over instead of copying it when it fills it
   * whole (the record of an 8 MB body was cloned on this thread, and again on the other), after
   * which the caller must not read it.
   */
  private send(record: Uint8Array): void {
    const length = record.length;
    this.unapplied += length;
    const buffer = wholeBuffer(record);
    this.latest = this.track(
      this.thread.request({ type: 'ops', record }, buffer === null ? [] : [buffer]).then((reply) => {
        this.unapplied -= length;
        this.reported = reply.estimatedBytes ?? this.reported;
      }),
    );
  }

  /** A reply to wait on later: marked handled now (a failure also fails every later request). */
  private track<T>(reply: Promise<T>): Promise<T> {
    reply.catch(() => undefined);
    return reply;
  }
}
