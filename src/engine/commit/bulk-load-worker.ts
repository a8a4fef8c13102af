/**
 * A bulk-load thread's entry point (a `worker_threads` worker; `bulk-load.ts` is the other side):
 * it takes raw JSON Lines bytes, parses, validates and inverts them into a segment buffer of its
 * own, and encodes that buffer into a segment's files when asked. It does no I/O: the main thread
 * reads the input, writes the files this thread returns and commits.
 *
 * Protocol: every request gets exactly one reply, in request order.
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
import { validateDocument } from '../schema/document.js';
import { isBlankLine, parseJsonLine } from '../schema/json-line.js';
import { mappingFromJson } from '../schema/mapping.js';
import { SegmentBuffer } from '../segment/segment-buffer.js';
import type { FlushedBuffer } from '../segment/segment-buffer.js';
import { handleRequestsInOrder, transferableFiles } from './engine-worker.js';
import { lineDocumentId } from './line-document-id.js';

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
export interface BulkSegment {
  readonly flushed: FlushedBuffer;
  /** The input line of each doc. */
  readonly lines: Int32Array;
  /** Every doc's id, concatenated; doc `d`'s id ends at `idEnds[d]`. */
  readonly idText: string;
  readonly idEnds: Uint32Array;
}

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

const port = parentPort as MessagePort;
const data = workerData as BulkWorkerData;
const mapping = mappingFromJson(data.mapping);

/** One future segment and each of its docs' line and id. */
class Buffered {
  readonly buffer = new SegmentBuffer(mapping, getAnalyzer);
  lines: number[] = [];
  ids: string[] = [];
}

let buffered = new Buffered();
handleRequestsInOrder(port, handle);

async function handle(request: BulkRequest): Promise<void> {
  try {
    switch (request.type) {
      case 'chunk': {
        const { docs, lastLine } = addChunk(request);
        reply({ ok: true, docs, lastLine, full: buffered.buffer.estimatedBytes >= data.flushBytes });
        return;
      }
      case 'flush': {
        const done = buffered;
        buffered = new Buffered();
        if (done.buffer.maxDoc === 0) {
          reply({ ok: true, segment: null });
          return;
        }
        const flushed = await done.buffer.flush(request.name);
        const idEnds = new Uint32Array(done.ids.length);
        let end = 0;
        done.ids.forEach((id, d) => { idEnds[d] = end += id.length; });
        const segment: BulkSegment = { flushed, lines: Int32Array.from(done.lines), idText: done.ids.join(''), idEnds };
        reply({ ok: true, segment }, [...transferableFiles(flushed.files), segment.lines.buffer as ArrayBuffer, idEnds.buffer]);
        return;
      }
      case 'reset':
        buffered = new Buffered();
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

/** Parses, validates and buffers the chunk's documents; returns how many and the line of the last. */
function addChunk(request: Extract<BulkRequest, { type: 'chunk' }>): { docs: number; lastLine: number } {
  const { bytes, source, idPrefix } = request;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const { buffer, lines, ids } = buffered;
  let line = request.firstLine;
  let start = line === 1 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let docs = 0;
  let lastLine = 0;
  for (; start < text.length; line++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (!isBlankLine(text, start, end)) {
      const raw = parseJsonLine(text.slice(start, end), source, line);
      if (typeof raw === 'object' && raw !== null && !Array.isArray(raw) && !('_id' in raw)) {
        (raw as Record<string, unknown>)._id = lineDocumentId(idPrefix, line);
      }
      const doc = validateDocument(mapping, raw, { source, line });
      // Every object has an id by now: its own (validated) or the one derived above.
      const id = doc.id!;
      buffer.add(doc, id, JSON.stringify(doc.stored));
      lines.push(line);
      ids.push(id);
      docs++;
      lastLine = line;
    }
    start = end + 1;
  }
  return { docs, lastLine };
}
