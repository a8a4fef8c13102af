/**
 * A bulk-load thread's entry point (a `worker_threads` worker; `bulk-load.ts` is the other side):
 * it takes raw JSON Lines bytes, parses, validates and inverts them into a segment buffer of its
 * own, and encodes that buffer into a segment's files when asked. It does no I/O: the main thread
 * reads the input, writes the files this thread returns and commits.
 *
 * Protocol: every request gets exactly one reply, in request order. A thread started without
 * workerData (prestarted) first gets a {@link BulkInit} message, unanswered.
 * - `chunk`: whole lines (the bytes transferred, not copied) starting at line `firstLine`; reply
 *   `{ ok, docs, lastLine, full }` (`lastLine`: the line of its last document, 0 if none) (`full`: the buffer has reached its flush size), or `{ ok: false, error }`
 *   for the first line that is not a valid document (the buffer then holds part of the chunk and
 *   must be reset).
 * - `flush`: reply `{ ok, segment }`, the buffer as segment `name` with each doc's line and id
 *   (null when the buffer is empty); the thread starts an empty buffer.
 * - `reset`: drop the buffer; reply `{ ok }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { getAnalyzer } from '../analysis/analyzers.js';
import { YarrowError } from '../errors.js';
import type { ErrorCode, ErrorDetails } from '../errors.js';
import { mappingFromJson } from '../schema/mapping.js';
import type { Mapping } from '../schema/mapping.js';
import { BulkBuffer } from './bulk-chunk.js';
import type { FlushedBulkBuffer } from './bulk-chunk.js';
import { handleRequestsInOrder, transferableFiles } from './engine-worker.js';

/** A request from the main thread. */
export type BulkRequest =
  | {
      readonly type: 'chunk';
      readonly bytes: Uint8Array;
      /** Line number of the chunk's first line (1-based). */
      readonly firstLine: number;
      /** Names the input in errors. */
      readonly source: string;
      /** Prefix of the ids derived for documents without `_id` (see {@link lineDocumentId}). */
      readonly idPrefix: string;
    }
  | { readonly type: 'flush'; readonly name: string }
  | { readonly type: 'reset' };

/** A flushed buffer with what the main thread needs to resolve ids across segments. */
export type BulkSegment = FlushedBulkBuffer;

/** An error as it crosses threads. */
export interface BulkError {
  readonly message: string;
  readonly code?: ErrorCode;
  readonly details?: ErrorDetails;
}

/** The reply to one request. */
export type BulkReply =
  | { readonly ok: true; readonly docs?: number; readonly lastLine?: number; readonly full?: boolean; readonly segment?: BulkSegment | null }
  | { readonly ok: false; readonly error: BulkError };

/** What the thread is started with. */
export interface BulkWorkerData {
  /** The index's mapping, as `mappingToJson` writes it. */
  readonly mapping: unknown;
  /** The buffer's estimated size at which a `chunk` reply says `full`. */
  readonly flushBytes: number;
}

/**
 * The message that gives a thread started without {@link BulkWorkerData} (prestarted, see
 * `prestartBulkThreads`) its data; it comes before any request and gets no reply.
 */
export interface BulkInit {
  readonly type: 'init';
  readonly data: BulkWorkerData;
}

const port = parentPort as MessagePort;
let data: BulkWorkerData;
let mapping: Mapping;
let buffered: BulkBuffer;

function init(d: BulkWorkerData): void {
  data = d;
  mapping = mappingFromJson(d.mapping);
  buffered = new BulkBuffer(mapping, getAnalyzer);
}

if (workerData == null || !('mapping' in (workerData as object))) {
  // Prestarted (no data, or the bundled CLI's BulkThreadStart): the first message is the data, then requests.
  port.once('message', (message: BulkInit) => {
    init(message.data);
    handleRequestsInOrder(port, handle);
  });
} else {
  init(workerData as BulkWorkerData);
  handleRequestsInOrder(port, handle);
}

async function handle(request: BulkRequest): Promise<void> {
  try {
    switch (request.type) {
      case 'chunk': {
        const { docs, lastLine } = buffered.addChunk(request.bytes, request.firstLine, request.source, request.idPrefix);
        reply({ ok: true, docs, lastLine, full: buffered.buffer.estimatedBytes >= data.flushBytes });
        return;
      }
      case 'flush': {
        const done = buffered;
        buffered = new BulkBuffer(mapping, getAnalyzer);
        if (done.maxDoc === 0) {
          reply({ ok: true, segment: null });
          return;
        }
        const segment: BulkSegment = await done.flush(request.name);
        const { lines, idEnds, idHashes } = segment;
        reply({ ok: true, segment }, [...transferableFiles(segment.flushed.files), lines.buffer, idEnds.buffer, idHashes.hashes.buffer]);
        return;
      }
      case 'reset':
        buffered = new BulkBuffer(mapping, getAnalyzer);
        reply({ ok: true });
        return;
    }
  } catch (e) {
    const error: BulkError = e instanceof YarrowError
      ? { message: e.message, code: e.code, details: e.details }
      : { message: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    reply({ ok: false, error });
  }
}

function reply(message: BulkReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}
