/**
 * The inversion thread's entry point (a `worker_threads` worker): it owns one segment buffer,
 * applies batches in their write-ahead log form, and encodes the buffer into a segment's files on
 * request. The main thread logs every batch before handing it over and fsyncs and commits the
 * files this thread returns, so durability is the main thread's alone. Given the directory's
 * files (`workerData.files`, a local directory), this thread writes a flushed segment's files
 * itself, at its own idle priority, before it replies; otherwise the main thread writes them.
 *
 * Protocol (`threaded-segment-buffer.ts` is the other side): every request gets exactly one reply,
 * in request order.
 * - `{ type: 'ops', record }`: a WAL record (frame + payload), usually transferred once the writer
 *   has appended it to the log; reply `{ ok, estimatedBytes }`.
 * - `{ type: 'flush', name }`: reply `{ ok, flushed, idFilter, written }`, the segment's files and
 *   the bits of its id filter (`IdFilterBuilder`) transferred, not copied, `written` when this
 *   thread wrote the files to the directory; the thread starts an empty buffer.
 * - `{ type: 'reset' }`: drop the buffer (a rollback); reply `{ ok }`.
 * - `{ type: 'parse', batch, bytes }`: the next chunk of an `_index` body (`body-batch.ts`): split,
 *   parsed, validated and serialised here, kept under `batch`; reply `{ ok, docs }` (docs so far),
 *   or `{ ok, invalid }` naming the first invalid document, after which the batch is forgotten.
 * - `{ type: 'seal', batch }`: the body ended; reply `{ ok, docs, recordLength, ids }`: the length
 *   of the batch's write-ahead log record, which stays here, and its ids; the documents stay too.
 * - `{ type: 'log', batch, file }`: the writer's turn to log the batch: given the name of the log's
 *   file and this thread's files, this thread appends the record to that file (`ThreadFileAccess
 *   .append`; the writer's appender waits for the reply in its queue, and fsyncs) and replies
 *   `{ ok, logged: true }`; otherwise (`file` null, no files) it replies `{ ok, record }`, the record
 *   transferred, for the writer to append.
 * - `{ type: 'apply', batch, spent? }`: the writer logged the record: the batch's documents go into
 *   the buffer; reply `{ ok, estimatedBytes }`. `spent` is a record the writer appended itself,
 *   handed back, whose buffer the next body's record is built in (see `applyParsed`,
 *   `WalRecordBytes`). `{ type: 'drop', batch }` forgets a batch instead.
 * A failure replies `{ ok: false, message }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { getAnalyzer } from '../analysis/analyzers.js';
import { WAL_VERSION } from '../index-files.js';
import { mappingFromJson } from '../schema/mapping.js';
import { SegmentBuffer } from '../segment/segment-buffer.js';
import type { FlushedBuffer } from '../segment/segment-buffer.js';
import { BodyBatch } from './body-batch.js';
import { IdFilterBuilder } from './id-filter.js';
import type { InvalidBatch } from './body-batch.js';
import { becomeBackgroundThread, handleRequestsInOrder, loadThreadFiles, threadFailure, transferableFiles } from './engine-worker.js';
import { backgroundPauser } from './foreground-gate.js';
import type { BackgroundThreadData, ThreadFailure } from './engine-worker.js';
import { decodeWalPayload } from './wal-replay.js';
import { RECORD_FRAME } from './write-ahead-log.js';

/** A request from the writer. */
export type InversionRequest =
  | { readonly type: 'ops'; readonly record: Uint8Array }
  | { readonly type: 'flush'; readonly name: string }
  | { readonly type: 'reset' }
  | { readonly type: 'parse'; readonly batch: number; readonly bytes: Uint8Array }
  | { readonly type: 'seal' | 'drop'; readonly batch: number }
  | { readonly type: 'log'; readonly batch: number; readonly file: string | null }
  | { readonly type: 'apply'; readonly batch: number; readonly spent?: Uint8Array };

/** The reply to one request. */
export type InversionReply =
  | {
    readonly ok: true;
    readonly estimatedBytes?: number;
    readonly flushed?: FlushedBuffer;
    /** The flushed segment's id filter (`IdFilter.bits`), built from the ids as the buffer took them. */
    readonly idFilter?: Uint32Array;
    /** Whether this thread wrote the flushed segment's files to the directory (`flush`). */
    readonly written?: boolean;
    /** Documents of the batch so far (`parse`, `seal`). */
    readonly docs?: number;
    /** The first invalid document of the batch (`parse`, `seal`): the batch is forgotten. */
    readonly invalid?: InvalidBatch;
    /** The batch's write-ahead log record, for the writer to append (`log`). */
    readonly record?: Uint8Array;
    /** Whether this thread appended the record to the log's file (`log`). */
    readonly logged?: boolean;
    /** The byte length of the batch's write-ahead log record, and its ids (`seal`). */
    readonly recordLength?: number;
    readonly ids?: readonly string[];
  }
  | ({ readonly ok: false } & ThreadFailure);

/** What the thread is started with. */
export interface InversionWorkerData extends BackgroundThreadData {
  /** The index's mapping, as `mappingToJson` writes it. */
  readonly mapping: unknown;
}

const port = parentPort as MessagePort;
const data = workerData as InversionWorkerData;
becomeBackgroundThread(data);
const pauser = backgroundPauser();
/**
 * The directory's files, when this thread writes its segments itself. Should the module fail to
 * load, the thread says it wrote nothing and the main thread writes the files, as without it.
 */
const threadFiles = loadThreadFiles(data.files).catch(() => null);
const mapping = mappingFromJson(data.mapping);
let buffer = new SegmentBuffer(mapping, getAnalyzer);
/** The ids `buffer` took, for its segment's id filter. */
const ids = new IdFilterBuilder();
/** `_index` bodies being parsed or waiting for the writer to log them, by batch number. */
const batches = new Map<number, BodyBatch>();
/** Their records once sealed, until logged (`log`) or dropped. */
const records = new Map<number, Uint8Array>();
/**
 * Buffers of records the writer logged and handed back (`apply`'s `spent`), for the next bodies'
 * records (see `WalRecordBytes`). One is kept: a stream of bodies then cycles through two buffers
 * (one being logged while the next body is parsed into the other), and an idle server holds one
 * (a record is about twice its body: ~20 MB for an 8 MB body).
 */
const spares: ArrayBuffer[] = [];
const MAX_SPARES = 1;
const takeSpare = (): ArrayBuffer | undefined => spares.pop();
const keepSpare = (record: Uint8Array): void => {
  if (spares.length < MAX_SPARES) spares.push(record.buffer as ArrayBuffer);
};
handleRequestsInOrder(port, handle);

async function handle(request: InversionRequest): Promise<void> {
  try {
    switch (request.type) {
      case 'ops': {
        const payload = request.record.subarray(RECORD_FRAME);
        for (const op of decodeWalPayload(payload, WAL_VERSION, 'inversion batch', 0).ops) {
          pauser?.point();
          if (op.kind === 'upsert') {
            buffer.add(op.doc, op.id, op.storedJson);
            ids.add(op.id);
          } else if (op.kind === 'delete') buffer.delete(op.id);
        }
        port.postMessage({ ok: true, estimatedBytes: buffer.estimatedBytes } satisfies InversionReply);
        return;
      }
      case 'flush': {
        const flushed = await buffer.flush(request.name);
        buffer = new SegmentBuffer(mapping, getAnalyzer);
        const idFilter = ids.build(flushed.info.maxDoc).bits;
        const files = await threadFiles;
        files?.write(flushed.files);
        port.postMessage({ ok: true, flushed, idFilter, written: files !== null } satisfies InversionReply, [...transferableFiles(flushed.files), idFilter.buffer as ArrayBuffer]);
        return;
      }
      case 'reset':
        buffer = new SegmentBuffer(mapping, getAnalyzer);
        ids.clear();
        port.postMessage({ ok: true } satisfies InversionReply);
        return;
      case 'parse':
      case 'seal': {
        let batch = batches.get(request.batch);
        if (batch === undefined && request.type === 'parse') batches.set(request.batch, (batch = new BodyBatch(mapping, takeSpare)));
        // A batch found invalid was forgotten: the writer stops at that reply, later chunks are moot.
        if (batch === undefined) {
          port.postMessage({ ok: true, docs: 0 } satisfies InversionReply);
          return;
        }
        const invalid = request.type === 'parse' ? batch.push(request.bytes) : batch.end();
        if (invalid !== null) {
          batches.delete(request.batch);
          port.postMessage({ ok: true, invalid } satisfies InversionReply);
        } else if (request.type === 'parse') {
          port.postMessage({ ok: true, docs: batch.docs } satisfies InversionReply);
        } else {
          const { record, ids } = batch.seal();
          records.set(request.batch, record);
          port.postMessage({ ok: true, docs: batch.docs, recordLength: record.length, ids } satisfies InversionReply);
        }
        return;
      }
      case 'log': {
        const record = records.get(request.batch);
        if (record === undefined) throw new Error(`batch ${request.batch} has no record to log`);
        records.delete(request.batch);
        const files = request.file === null ? null : await threadFiles;
        if (files === null || request.file === null) {
          port.postMessage({ ok: true, record } satisfies InversionReply, [record.buffer as ArrayBuffer]);
          return;
        }
        files.append(request.file, record);
        keepSpare(record);
        port.postMessage({ ok: true, logged: true } satisfies InversionReply);
        return;
      }
      case 'apply':
      case 'drop': {
        const batch = batches.get(request.batch);
        batches.delete(request.batch);
        const unlogged = records.get(request.batch);
        records.delete(request.batch);
        if (unlogged !== undefined) keepSpare(unlogged);
        if (request.type === 'apply' && batch !== undefined) batch.applyTo(buffer, ids);
        if (request.type === 'apply' && request.spent !== undefined) keepSpare(request.spent);
        port.postMessage({ ok: true, estimatedBytes: buffer.estimatedBytes } satisfies InversionReply);
        return;
      }
    }
  } catch (e) {
    port.postMessage({ ok: false, ...threadFailure(e) } satisfies InversionReply);
  }
}
