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
import { ByteWriter } from '../bytes/byte-writer.js';
import { writeFooter, writeHeader } from '../file-format.js';
import { compressLz4Block, hashTable, maxCompressedLength } from './lz4-block.js';

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

/** The compressor's hash table, shared by the writers of a thread (they never run interleaved). */
let sharedTable: Int32Array | null = null;

/** Accumulates stored documents in docId order and produces the `.fdt` file. */
export class StoredFieldsWriter {
  private readonly out = new ByteWriter(1 << 16);
  private readonly pending: ByteWriter;
  private readonly scratch = new ByteWriter(1 << 10);
  private compressed = new Uint8Array(0);
  private pendingLengths: number[] = [];
  private readonly blockDocCounts: number[] = [];
  private readonly blockByteLengths: number[] = [];
  private readonly blockRawLengths: number[] = [];
  private docs = 0;
  private readonly blockBytes: number;
  private readonly maxDocsPerBlock: number;

  constructor(options: StoredFieldsOptions = {}) {
    this.blockBytes = options.blockBytes ?? 16 * 1024;
    this.maxDocsPerBlock = options.maxDocsPerBlock ?? 1024;
    this.pending = new ByteWriter(this.blockBytes + 1024);
    writeHeader(this.out, STORED_FIELDS_MAGIC, STORED_FIELDS_VERSION);
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
    return this.out.length + this.pending.length;
  }

  /** Stores `doc` as JSON; returns its docId. */
  add(doc: Record<string, unknown>): number {
    return this.addRaw(JSON.stringify(doc));
  }

  /** Stores already-serialised JSON text (one object) as is; returns its docId. */
  addRaw(json: string): number {
    this.pendingLengths.push(this.pending.writeUtf8(json));
    if (this.pending.length >= this.blockBytes || this.pendingLengths.length >= this.maxDocsPerBlock) this.flushBlock();
    return this.docs++;
  }

  /** Closes the last block and returns the whole file, header to footer. */
  finish(): Uint8Array {
    this.flushBlock();
    const out = this.out;
    const indexOffset = out.length;
    out.writeVarint(this.blockDocCounts.length);
    for (let b = 0; b < this.blockDocCounts.length; b++) {
      out.writeVarint(this.blockDocCounts[b]);
      out.writeVarint(this.blockByteLengths[b]);
      out.writeVarint(this.blockRawLengths[b]);
    }
    out.writeFloat64(indexOffset);
    writeFooter(out);
    return out.toBytes();
  }

  private flushBlock(): void {
    const lengths = this.pendingLengths;
    if (lengths.length === 0) return;
    const block = this.scratch;
    block.reset();
    block.writeVarint(lengths.length);
    for (const n of lengths) block.writeVarint(n);
    block.writeBytes(this.pending.view());
    const raw = block.view();
    const bound = maxCompressedLength(raw.length);
    if (this.compressed.length < bound) this.compressed = new Uint8Array(Math.max(bound, 2 * this.compressed.length));
    const n = compressLz4Block(raw, this.compressed, (sharedTable ??= hashTable()));
    this.out.writeBytes(this.compressed.subarray(0, n));
    this.blockDocCounts.push(lengths.length);
    this.blockByteLengths.push(n);
    this.blockRawLengths.push(raw.length);
    this.pending.reset();
    this.pendingLengths = [];
  }
}
