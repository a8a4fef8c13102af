/**
 * What the index writer needs of its in-memory buffer, so that the buffer can live on this thread
 * ({@link SegmentBuffer}) or on an inversion thread (`threaded-segment-buffer.ts`) alike.
 */
import type { ValidDocument } from '../schema/document.js';
import type { FlushedBuffer } from '../segment/segment-buffer.js';
import type { IdFilter } from './id-filter.js';

/** The documents accepted since the last flush, on their way to becoming a segment. */
export interface WriteBuffer {
  /** Docs buffered, replaced ones included. */
  readonly maxDoc: number;
  /** Heap the buffer holds (an estimate), to decide when to flush. */
  readonly estimatedBytes: number;
  /** Adds a document (a buffered doc with the same id is replaced). */
  add(doc: ValidDocument, id: string, storedJson: string): void;
  /** Deletes the buffered doc with this id, if any. */
  delete(id: string): void;
  /**
   * When present, takes a whole batch in its write-ahead log form instead of doc by doc (`record`
   * as `encodeWalRecord` made it, holding `upserts` upserts; its buffer may be transferred to
   * another thread, so the caller must not read it after); resolves when the buffer can take the
   * next batch.
   */
  applyLogged?(record: Uint8Array, upserts: number): Promise<void>;
  /**
   * Encodes the buffer as segment `name`; with the segment's id filter when the buffer built one
   * as it took the docs (an inversion thread does: see `IdFilterBuilder`), and `written` when the
   * buffer's thread wrote the segment's files to the directory itself (not yet fsynced).
   */
  flush(name: string): Promise<FlushedBuffer & { readonly idFilter?: IdFilter; readonly written?: boolean }>;
}
