/**
 * Writes the stored fields (`.fdt`) file: one JSON object per docId, grouped into blocks of about
 * 16 KiB of JSON that are compressed together, so similar documents share their repeats.
 *
 * Byte layout (after the header `Yfdt`, version 2; footer from file-format.ts):
 *   block*     LZ4-class sequences (lz4-block.ts) of: varint docCount, docCount x varint UTF-8
 *              byte length, the JSON texts
 *   index      varint blockCount; per block: varint docCount, varint compressed byte length,
 *              varint decompressed byte length
 *              (a block's firstDocId and byte offset are the prefix sums; block 0 starts at 8)
 *   float64    offset of the index (the last 8 bytes of the body)
 *
 * Version 1 (still read, see stored-fields-reader.ts) compressed each block with zlib deflate-raw
 * level 1 and had no decompressed length in the index. Version 2 trades size for speed, as
 * Lucene's default stored fields do: measured on npm and Debian package metadata in 16 KiB blocks
 * (`bench/stored-fields-codec.bench.ts`), the blocks compress ~1.5x faster and one hit loads ~1.7x
 * faster (a block decodes only up to the document asked for), at ~1.39x the compressed size
 * (39% / 39% of the JSON against 28% / 28%).
 */
import { ByteWriter, varintSize } from '../bytes/byte-writer.js';
import { HEADER_LENGTH, FOOTER_LENGTH, writeFooter, writeHeader } from '../file-format.js';
import { compressLz4Block, maxCompressedLength } from './lz4-block.js';

export const STORED_FIELDS_MAGIC = 'Yfdt';
export const STORED_FIELDS_VERSION = 2;
/** The zlib version, which readers still open (indexes written before version 2). */
export const STORED_FIELDS_VERSION_DEFLATE = 1;

/** Tuning knobs; the defaults are what the format is measured with. */
export interface StoredFieldsOptions {
  /** Uncompressed JSON bytes per block; a block closes once it reaches this. */
  readonly blockBytes?: number;
  /** Upper bound on docs per block, so random access to tiny docs stays cheap. */
  readonly maxDocsPerBlock?: number;
}

/** The first chunk of compressed output; later chunks double up to {@link MAX_CHUNK}. */
const FIRST_CHUNK = 64 * 1024;
const MAX_CHUNK = 1024 * 1024;

/**
 * Accumulates stored documents in docId order and produces the `.fdt` file.
 *
 * The open block is one buffer: room for the block header (doc count and lengths, at most 5 bytes
 * each), then the documents' UTF-8 bytes, encoded straight into it. On close the header is written
 * just before the first document and the block is compressed from there, straight into a chunk of
 * the output; `finish` copies the chunks once into the file. So a document's bytes are copied once
 * (into the block) and a block's compressed bytes once (into the file).
 */
export class StoredFieldsWriter {
  /** The open block: header room in `[0, headerRoom)`, documents in `[headerRoom, blockEnd)`. */
  private block: Uint8Array;
  /** `block` as a Buffer, for its native UTF-8 encoder. */
  private blockBuffer: Buffer;
  private blockEnd: number;
  private readonly headerRoom: number;
  private readonly pendingLengths: number[] = [];
  /** Compressed blocks: full chunks, then `chunk` filled to `chunkEnd`. */
  private readonly chunks: Uint8Array[] = [];
  private chunk = new Uint8Array(0);
  private chunkEnd = 0;
  private bodyBytes = 0;
  private readonly blockDocCounts: number[] = [];
  private readonly blockByteLengths: number[] = [];
  private readonly blockRawLengths: number[] = [];
  private docs = 0;
  private readonly blockBytes: number;
  private readonly maxDocsPerBlock: number;

  constructor(options: StoredFieldsOptions = {}) {
    this.blockBytes = options.blockBytes ?? 16 * 1024;
    this.maxDocsPerBlock = options.maxDocsPerBlock ?? 1024;
    this.headerRoom = 5 * (this.maxDocsPerBlock + 1);
    this.blockEnd = this.headerRoom;
    this.block = new Uint8Array(this.headerRoom + this.blockBytes + 1024);
    this.blockBuffer = Buffer.from(this.block.buffer, this.block.byteOffset, this.block.length);
  }

  /** Number of documents added so far. */
  get count(): number {
    return this.docs;
  }

  /**
   * Bytes the writer holds for the documents added so far: the compressed blocks and the JSON of
   * the block not yet compressed (what a buffer's memory estimate counts, not the JSON whole).
   */
  get heldBytes(): number {
    return this.bodyBytes + (this.blockEnd - this.headerRoom);
  }

  /** Stores `doc` as JSON; returns its docId. */
  add(doc: Record<string, unknown>): number {
    return this.addRaw(JSON.stringify(doc));
  }

  /** Stores already-serialised JSON text (one object) as is; returns its docId. */
  addRaw(json: string): number {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit (a surrogate pair: 4 bytes for 2 units).
    this.reserve(json.length * 3);
    const written = this.blockBuffer.write(json, this.blockEnd);
    return this.close(written);
  }

  /**
   * Stores the UTF-8 bytes of already-serialised JSON text (one object), `bytes[start, end)`, as
   * is; returns its docId. For callers that hold the document's bytes (a line of the input).
   */
  addRawBytes(bytes: Uint8Array, start = 0, end = bytes.length): number {
    const n = end - start;
    this.reserve(n);
    this.block.set(bytes.subarray(start, end), this.blockEnd);
    return this.close(n);
  }

  /**
   * Where the next document's UTF-8 JSON goes when a caller writes it in place rather than hands
   * it over (the bulk line reader assembles it from pieces of the input line): its bytes go to
   * {@link rawBlock} (or {@link rawBlockBuffer}, the same memory) from this offset, after
   * {@link reserveRaw} has made room, and {@link addWritten} then adds the document. Writing there
   * and not adding the document is harmless: the next document overwrites it. Saves a copy through
   * a staging buffer and two array views per document.
   */
  get rawStart(): number {
    return this.blockEnd;
  }

  /** The open block, which {@link reserveRaw} may replace. */
  get rawBlock(): Uint8Array {
    return this.block;
  }

  /** {@link rawBlock} as a Buffer, for its native UTF-8 encoder. */
  get rawBlockBuffer(): Buffer {
    return this.blockBuffer;
  }

  /**
   * Makes room for `more` bytes after the `written` bytes of the document being written in place
   * (from {@link rawStart}), which are kept.
   */
  reserveRaw(written: number, more: number): void {
    this.reserve(written + more, written);
  }

  /** Adds the document of `n` bytes written in place at {@link rawStart}; returns its docId. */
  addWritten(n: number): number {
    return this.close(n);
  }

  /** Closes the last block and returns the whole file, header to footer. */
  finish(): Uint8Array {
    this.flushBlock();
    const index = new ByteWriter(16 + 3 * 4 * this.blockDocCounts.length);
    index.writeVarint(this.blockDocCounts.length);
    for (let b = 0; b < this.blockDocCounts.length; b++) {
      index.writeVarint(this.blockDocCounts[b]);
      index.writeVarint(this.blockByteLengths[b]);
      index.writeVarint(this.blockRawLengths[b]);
    }
    const indexOffset = HEADER_LENGTH + this.bodyBytes;
    index.writeFloat64(indexOffset);
    // Sized exactly, so the view below is the whole buffer and the file is not copied again.
    const out = new ByteWriter(indexOffset + index.length + FOOTER_LENGTH);
    writeHeader(out, STORED_FIELDS_MAGIC, STORED_FIELDS_VERSION);
    for (const chunk of this.chunks) out.writeBytes(chunk);
    out.writeBytes(this.chunk.subarray(0, this.chunkEnd));
    out.writeBytes(index.view());
    writeFooter(out);
    return out.view();
  }

  /** Makes room in the open block for `n` more bytes, keeping the first `keep` of them (written in place). */
  private reserve(n: number, keep = 0): void {
    if (this.blockEnd + n <= this.block.length) return;
    const next = new Uint8Array(Math.max(2 * this.block.length, this.blockEnd + n));
    next.set(this.block.subarray(0, this.blockEnd + keep));
    this.block = next;
    this.blockBuffer = Buffer.from(next.buffer, next.byteOffset, next.length);
  }

  /** Ends the document of `n` bytes just written to the open block; returns its docId. */
  private close(n: number): number {
    this.blockEnd += n;
    this.pendingLengths.push(n);
    if (this.blockEnd - this.headerRoom >= this.blockBytes || this.pendingLengths.length >= this.maxDocsPerBlock) this.flushBlock();
    return this.docs++;
  }

  private flushBlock(): void {
    const lengths = this.pendingLengths;
    if (lengths.length === 0) return;
    let headerBytes = varintSize(lengths.length);
    for (const n of lengths) headerBytes += varintSize(n);
    const block = this.block;
    const from = this.headerRoom - headerBytes;
    let p = writeVarint(block, from, lengths.length);
    for (const n of lengths) p = writeVarint(block, p, n);
    const raw = block.subarray(from, this.blockEnd);
    const bound = maxCompressedLength(raw.length);
    if (this.chunk.length - this.chunkEnd < bound) this.nextChunk(bound);
    const n = compressLz4Block(raw, this.chunk.subarray(this.chunkEnd));
    this.chunkEnd += n;
    this.bodyBytes += n;
    this.blockDocCounts.push(lengths.length);
    this.blockByteLengths.push(n);
    this.blockRawLengths.push(raw.length);
    this.blockEnd = this.headerRoom;
    lengths.length = 0;
  }

  /** Keeps the filled part of the current output chunk and starts one with room for `bound` bytes. */
  private nextChunk(bound: number): void {
    if (this.chunkEnd > 0) this.chunks.push(this.chunk.subarray(0, this.chunkEnd));
    const size = this.chunk.length === 0 ? FIRST_CHUNK : Math.min(2 * this.chunk.length, MAX_CHUNK);
    this.chunk = new Uint8Array(Math.max(size, bound));
    this.chunkEnd = 0;
  }
}

/** Writes `v` (an unsigned int below 2^32) as a varint at `p`; returns the position after it. */
function writeVarint(out: Uint8Array, p: number, v: number): number {
  while (v >= 0x80) {
    out[p++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  out[p++] = v;
  return p;
}
