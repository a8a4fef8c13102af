/**
 * One `_index` body on the inversion thread (issue 17: search latency while indexing). Splitting a
 * body into documents, parsing, validating and serialising them for the write-ahead log took most
 * of the event loop's time while `api` indexed at full speed, and the objects it made most of its
 * garbage collection; here they run on the thread that inverts the documents anyway. The writer's
 * thread only forwards the body's bytes, logs the record this batch encodes (the log stays the
 * writer's: nothing is acknowledged before it is durable there), and then tells the thread to apply
 * the batch. The documents are kept here in between, so the thread never decodes its own record.
 *
 * The batch is all or nothing, as on the writer's thread: the first invalid document fails it (the
 * error names it as `JsonValueSplitter` and `validateDocument` do), and nothing of it is logged.
 */
import { YarrowError } from '../errors.js';
import type { ErrorCode, ErrorDetails } from '../errors.js';
import { JsonValueSplitter } from '../schema/json-value-stream.js';
import type { ParsedValue } from '../schema/json-value-stream.js';
import { validateDocument } from '../schema/document.js';
import type { Mapping } from '../schema/mapping.js';
import type { SegmentBuffer } from '../segment/segment-buffer.js';
import { backgroundPauser } from './foreground-gate.js';
import type { IdFilterBuilder } from './id-filter.js';
import { prepare } from './prepared-document.js';
import { encodeWalRecord } from './write-ahead-log.js';
import type { WalEntry } from './write-ahead-log.js';
import type { PreparedDocument } from './writer-options.js';

/** Why a batch was refused, as it crosses to the writer's thread. */
export interface InvalidBatch {
  readonly message: string;
  readonly code?: ErrorCode;
  readonly details?: ErrorDetails;
}

/** The error an {@link InvalidBatch} stands for. */
export function invalidBatchError(invalid: InvalidBatch): Error {
  return invalid.code === undefined ? new Error(invalid.message) : new YarrowError(invalid.code, invalid.message, invalid.details);
}

/** The documents of one body, from its first chunk until the writer has logged them. */
export class BodyBatch {
  private readonly splitter = new JsonValueSplitter();
  private readonly prepared: PreparedDocument[] = [];

  constructor(private readonly mapping: Mapping) {}

  /** Documents so far. */
  get docs(): number {
    return this.prepared.length;
  }

  /** Takes the next chunk of the body; returns why the batch is refused, or null. */
  push(bytes: Uint8Array): InvalidBatch | null {
    return this.take(() => this.splitter.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
  }

  /** Ends the body; returns why the batch is refused (a truncated last document), or null. */
  end(): InvalidBatch | null {
    return this.take(() => this.splitter.end());
  }

  /** The batch's write-ahead log record (one record: all or nothing) and its ids. */
  seal(): { record: Uint8Array; ids: string[] } {
    const entries: WalEntry[] = [];
    const ids: string[] = [];
    for (const d of this.prepared) {
      entries.push({ uJson: d.walJson });
      ids.push(d.id);
    }
    return { record: encodeWalRecord(entries), ids };
  }

  /** Adds the batch's documents to `buffer` (once the writer has logged them), each id to `ids`. */
  applyTo(buffer: SegmentBuffer, ids: IdFilterBuilder): void {
    const pauser = backgroundPauser();
    for (const d of this.prepared) {
      // A safe point per document: while a search runs, this thread waits (foreground-gate.ts).
      pauser?.point();
      buffer.add(d.doc, d.id, d.storedJson);
      ids.add(d.id);
    }
    this.prepared.length = 0;
  }

  private take(split: () => ParsedValue[]): InvalidBatch | null {
    try {
      const pauser = backgroundPauser();
      for (const { value, location } of split()) {
        pauser?.point();
        this.prepared.push(prepare(validateDocument(this.mapping, value, location)));
      }
      return null;
    } catch (e) {
      if (e instanceof YarrowError) return { message: e.message, code: e.code, details: e.details };
      // Not the input's fault: the writer fails the request as an internal error.
      return { message: e instanceof Error ? e.message : String(e) };
    }
  }
}
