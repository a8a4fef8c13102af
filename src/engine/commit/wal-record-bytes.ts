/**
 * A write-ahead log record built as bytes, entry by entry, in one growing buffer (the layout is
 * `write-ahead-log.ts`'s, version 3, without vectors). `encodeWalRecord` takes each upsert as a
 * JS string and encodes it into a small array of its own; the inversion thread builds the record
 * of an `_index` body here instead, straight from the body's bytes (`body-batch.ts`), so that a
 * body of ten thousand documents leaves neither ten thousand strings nor ten thousand small
 * buffers behind it (issue 17: memory and collections while `api` indexes).
 */
import { crc32 } from '../codec/file-format.js';
import { RECORD_FRAME } from './write-ahead-log.js';

/** One record being written: `{"ops":[` entries `]}`, framed by {@link finish}. */
export class WalRecordBytes {
  private bytes: Buffer;
  private end = RECORD_FRAME;
  private entries = 0;

  /**
   * `spare`, when given, is the buffer of a record this thread built before and got back once it
   * was logged (`ThreadedSegmentBuffer.applyParsed`): written over rather than a new one
   * allocated. A body's record grew through ~50 MB of buffers and was then copied to its exact
   * size; array buffers allocated count towards a heap's next full collection, and this thread ran
   * one every ~2 bodies (issue 17: collections while `api` indexes).
   */
  constructor(initialBytes = 1 << 20, spare?: ArrayBuffer) {
    // Not from node's pool: the finished record's buffer is handed to another thread whole.
    this.bytes = spare !== undefined && spare.byteLength >= 64 ? Buffer.from(spare) : Buffer.allocUnsafeSlow(Math.max(initialBytes, 64));
    this.ascii('{"ops":[');
  }

  /** Entries so far. */
  get count(): number {
    return this.entries;
  }

  /** Starts the next entry (writes the comma between entries). */
  nextEntry(): void {
    if (this.entries++ > 0) this.ascii(',');
  }

  /** Appends ASCII text. */
  ascii(text: string): void {
    this.reserve(text.length);
    this.end += this.bytes.write(text, this.end, 'latin1');
  }

  /** Appends any text as UTF-8. */
  text(text: string): void {
    this.reserve(text.length * 3);
    this.end += this.bytes.write(text, this.end, 'utf8');
  }

  /** Appends `from[start, end)`. */
  copy(from: Uint8Array, start: number, end: number): void {
    this.reserve(end - start);
    this.bytes.set(from.subarray(start, end), this.end);
    this.end += end - start;
  }

  /**
   * Closes the record and frames it (length, CRC-32, trailing JSON length). The result is a view
   * from the start of a buffer of its own, which may be longer: hand the whole buffer over (its
   * spare room included). The writer must not be used after.
   */
  finish(): Uint8Array<ArrayBuffer> {
    this.ascii(']}');
    const jsonLength = this.end - RECORD_FRAME;
    this.reserve(4);
    const record = new Uint8Array(this.bytes.buffer as ArrayBuffer, this.bytes.byteOffset, this.end + 4);
    const view = new DataView(record.buffer, record.byteOffset);
    view.setUint32(this.end, jsonLength, true);
    view.setUint32(0, jsonLength + 4, true);
    view.setUint32(4, crc32(record.subarray(RECORD_FRAME)), true);
    this.bytes = Buffer.alloc(0);
    return record;
  }

  private reserve(n: number): void {
    if (this.end + n <= this.bytes.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.end + n, Math.ceil(this.bytes.length * 1.5)));
    this.bytes.copy(grown, 0, 0, this.end);
    this.bytes = grown;
  }
}
