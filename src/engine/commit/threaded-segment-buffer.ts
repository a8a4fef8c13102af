/**
 * A segment buffer on an inversion thread (`inversion-worker.ts`), so that tokenizing, inverting
 * and encoding segments run on a second core while this thread parses, validates and logs the
 * next batch.
 *
 * Durability is unchanged: the writer appends a batch to the write-ahead log first and hands the
 * thread the very bytes it logged; an acknowledged batch is in the log whatever the thread does,
 * and a crash replays it. The thread receives batches in their log form, so whatever the log
 * carries per document (vectors, suggestion candidates, source markers) reaches the thread with
 * no change to the protocol: the thread decodes it with the replay's decoder.
 *
 * Memory stays bounded: at most one batch waits while the thread inverts another, and the
 * buffer's size (the thread's estimate plus the bytes of batches not yet applied) triggers a flush
 * as the in-process buffer's does.
 */
import { Worker } from 'node:worker_threads';
import type { ValidDocument } from '../schema/document.js';
import { mappingToJson } from '../schema/mapping.js';
import type { Mapping } from '../schema/mapping.js';
import type { FlushedBuffer } from '../segment/segment-buffer.js';
import type { InversionReply, InversionRequest, InversionWorkerData } from './inversion-worker.js';
import type { WalEntry } from './write-ahead-log.js';
import { encodeWalRecord, walUpsertJson } from './write-ahead-log.js';
import type { WriteBuffer } from './write-buffer.js';

type OkReply = Extract<InversionReply, { ok: true }>;

/** Entries gathered doc by doc (a WAL replay) before they go to the thread as one batch. */
const QUEUED_BATCH = 1000;

/** One inversion thread, serving the writer's successive buffers. */
export class InversionThread {
  private readonly worker: Worker;
  private readonly pending: { resolve: (reply: OkReply) => void; reject: (e: Error) => void }[] = [];
  private failure: Error | null = null;
  private stopping = false;

  constructor(mapping: Mapping) {
    this.worker = startWorker({ mapping: mappingToJson(mapping) });
    // Idle, the thread must not keep the process alive; `request` holds it while replies are due.
    this.worker.unref();
    this.worker.on('message', (reply: InversionReply) => {
      const waiter = this.pending.shift();
      this.hold();
      if (reply.ok) {
        waiter?.resolve(reply);
      } else {
        // The buffer is in an unknown state: every later request fails too.
        this.failAll(new Error(`inversion thread failed: ${reply.message}`));
        waiter?.reject(this.failure!);
      }
    });
    this.worker.on('error', (e: Error) => { this.failAll(e); });
    this.worker.on('exit', (code) => { this.failAll(new Error(`inversion thread exited (code ${code})`)); });
  }

  /** Sends a request; resolves with its reply. */
  request(request: InversionRequest): Promise<OkReply> {
    if (this.failure !== null) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.hold();
      this.worker.postMessage(request);
    });
  }

  /** Stops the thread (what it buffers is in the write-ahead log). */
  async terminate(): Promise<void> {
    this.failAll(new Error('inversion thread stopped'));
    this.stopping = true;
    this.hold();
    await this.worker.terminate();
  }

  private failAll(e: Error): void {
    this.failure ??= e;
    for (const waiter of this.pending.splice(0)) waiter.reject(this.failure);
    this.hold();
  }

  /**
   * Keeps the process alive while a reply is due or the thread is being stopped (a promise waiting
   * on an unreferenced worker would let the process exit under it), and only then.
   */
  private hold(): void {
    if (this.stopping || this.pending.length > 0) this.worker.ref();
    else this.worker.unref();
  }
}

/**
 * Starts `inversion-worker.js` next to this module. Run from source under tsx (tests, benchmarks),
 * this module is TypeScript and a worker does not inherit tsx's loader: the worker registers it
 * first, then imports the TypeScript entry.
 */
function startWorker(workerData: InversionWorkerData): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./inversion-worker.js', import.meta.url), { workerData });
  const entry = new URL('./inversion-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { eval: true, workerData });
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

  async flush(name: string): Promise<FlushedBuffer> {
    this.sendQueued();
    const reply = this.thread.request({ type: 'flush', name });
    this.latest = this.track(reply);
    // Replies come in order: every batch before the flush has been applied.
    return (await reply).flushed!;
  }

  private sendQueued(): void {
    if (this.queued.length === 0) return;
    const record = encodeWalRecord(this.queued);
    this.queued = [];
    this.send(record);
  }

  private send(record: Uint8Array): void {
    this.unapplied += record.length;
    this.latest = this.track(
      this.thread.request({ type: 'ops', record }).then((reply) => {
        this.unapplied -= record.length;
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
