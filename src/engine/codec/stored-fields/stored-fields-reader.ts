import { inflateRawSync } from 'node:zlib';
import type { RandomAccessFile } from '../../directory.js';
import { ByteReader } from '../bytes/byte-reader.js';
import { checkHeader, FOOTER_LENGTH, HEADER_LENGTH, verifyChecksum } from '../file-format.js';
import { ErrorCode, YarrowError } from '../../errors.js';
import { type DecodedBlock, type DecodedBlockCache, reserveBlockKeys, sharedDecodedBlocks } from './decoded-block-cache.js';
import { decompressLz4Block } from './lz4-block.js';
import { STORED_FIELDS_MAGIC, STORED_FIELDS_VERSION, STORED_FIELDS_VERSION_DEFLATE } from './stored-fields-writer.js';

const decoder = new TextDecoder();

/**
 * Bytes of a block decoded before its header is parsed: the doc count and lengths of a block of
 * short docs (1-2 bytes each), so the header usually needs one decoder call.
 */
const HEADER_GUESS_PER_DOC = 2;

/** Where a reader's compressed blocks come from: the whole file in memory, or the file itself. */
type Source = { readonly bytes: Uint8Array } | { readonly file: RandomAccessFile };

/**
 * Random access to the documents of a `.fdt` file, version 2 (LZ4-class blocks) or 1 (zlib).
 *
 * A version-2 block is decoded only up to the document asked for, and resumed when a later one is
 * asked for. Decoded blocks live in the thread's {@link sharedDecodedBlocks} pool (hits of later
 * searches), except when the file is read in order (a merge copies every document once): a block
 * entered from the end of the previous one is kept only as the reader's current block.
 *
 * The file is either in memory ({@link StoredFieldsReader.open}) or read by position
 * ({@link StoredFieldsReader.openFile}): then only the block index stays in memory, and a block
 * that is not in the pool costs one positional read of its compressed bytes (a few KiB), so a
 * server's memory does not grow with its stored documents.
 */
export class StoredFieldsReader {
  /** The block of the last read. */
  private current: DecodedBlock | null = null;
  /** The cache key of block 0 (block b is keyBase + b). */
  private readonly keyBase: number;

  private constructor(
    private readonly source: Source,
    private readonly fileName: string,
    private readonly version: number,
    /** firstDocId of each block, plus the total doc count. */
    private readonly blockFirstDoc: Uint32Array,
    /** Byte offset of each block in the file, plus the index offset. */
    private readonly blockOffset: Float64Array,
    /** Decoded byte length of each block (version 2; zeros for version 1). */
    private readonly blockRawLength: Float64Array,
    private readonly cache: DecodedBlockCache,
  ) {
    this.keyBase = reserveBlockKeys(blockFirstDoc.length - 1);
  }

  /** Verifies the checksum and reads the block index. `cache`: the pool of decoded blocks (tests pass their own). */
  static open(bytes: Uint8Array, fileName: string, cache: DecodedBlockCache = sharedDecodedBlocks): StoredFieldsReader {
    verifyChecksum(bytes, fileName);
    const version = StoredFieldsReader.version(bytes, fileName);
    const bodyEnd = bytes.length - FOOTER_LENGTH;
    const indexOffset = StoredFieldsReader.indexOffset(new ByteReader(bytes, bodyEnd - 8).readFloat64(), bodyEnd, fileName);
    return StoredFieldsReader.withIndex({ bytes }, fileName, version, bytes.subarray(indexOffset, bodyEnd), indexOffset, cache);
  }

  /**
   * Opens a file kept on storage: reads its header and block index, and later each block by
   * position. The caller has verified the file's checksum (segment-reader.ts streams the whole
   * file through the CRC at open); `file` must stay open as long as the reader is used.
   */
  static openFile(file: RandomAccessFile, fileName: string, cache: DecodedBlockCache = sharedDecodedBlocks): StoredFieldsReader {
    if (file.size < HEADER_LENGTH + FOOTER_LENGTH + 8) throw corrupt(fileName, `${file.size} bytes is too short for a stored-fields file (truncated?)`);
    const version = StoredFieldsReader.version(readAt(file, 0, HEADER_LENGTH, fileName), fileName);
    const bodyEnd = file.size - FOOTER_LENGTH;
    const indexOffset = StoredFieldsReader.indexOffset(new ByteReader(readAt(file, bodyEnd - 8, 8, fileName), 0).readFloat64(), bodyEnd, fileName);
    const index = readAt(file, indexOffset, bodyEnd - indexOffset, fileName);
    return StoredFieldsReader.withIndex({ file }, fileName, version, index, indexOffset, cache);
  }

  /** The format version of a file whose first bytes are `header` (checked against the magic). */
  private static version(header: Uint8Array, fileName: string): number {
    const found = new ByteReader(header, 4).readUint32();
    const version = found === STORED_FIELDS_VERSION_DEFLATE ? found : STORED_FIELDS_VERSION;
    checkHeader(header, fileName, STORED_FIELDS_MAGIC, version);
    return version;
  }

  private static indexOffset(indexOffset: number, bodyEnd: number, fileName: string): number {
    if (!Number.isInteger(indexOffset) || indexOffset < HEADER_LENGTH || indexOffset > bodyEnd - 8) throw corrupt(fileName, `bad index offset ${indexOffset}`);
    return indexOffset;
  }

  /** Parses the block index: `index` holds the file from `indexOffset` to its footer. */
  private static withIndex(source: Source, fileName: string, version: number, index: Uint8Array, indexOffset: number, cache: DecodedBlockCache): StoredFieldsReader {
    const r = new ByteReader(index, 0);
    const blocks = r.readVarint();
    if (blocks > indexOffset - HEADER_LENGTH) throw corrupt(fileName, `${blocks} blocks in ${indexOffset - HEADER_LENGTH} bytes`);
    const firstDoc = new Uint32Array(blocks + 1);
    const offset = new Float64Array(blocks + 1);
    const rawLength = new Float64Array(blocks);
    offset[0] = HEADER_LENGTH;
    for (let b = 0; b < blocks; b++) {
      firstDoc[b + 1] = firstDoc[b] + r.readVarint();
      const compressed = r.readVarint();
      offset[b + 1] = offset[b] + compressed;
      if (version === STORED_FIELDS_VERSION) {
        // An LZ4 sequence expands at most ~255x (a byte of length per 255 bytes of output).
        rawLength[b] = r.readVarint();
        if (rawLength[b] === 0 || rawLength[b] > compressed * 256 + 64) throw corrupt(fileName, `block ${b}: ${rawLength[b]} bytes cannot come from ${compressed}`);
      }
    }
    if (r.pos !== index.length - 8 || offset[blocks] !== indexOffset) throw corrupt(fileName, 'block index does not match the blocks');
    return new StoredFieldsReader(source, fileName, version, firstDoc, offset, rawLength, cache);
  }

  /** Number of stored documents. */
  get count(): number {
    return this.blockFirstDoc[this.blockFirstDoc.length - 1];
  }

  /** The document stored as `docId`. */
  get(docId: number): Record<string, unknown> {
    return JSON.parse(this.getRaw(docId)) as Record<string, unknown>;
  }

  /** The JSON text stored for `docId` (merges copy it without parsing). */
  getRaw(docId: number): string {
    if (!(docId >= 0 && docId < this.count && Number.isInteger(docId))) throw new RangeError(`docId ${docId} out of range [0, ${this.count})`);
    const first = this.blockFirstDoc;
    let block = this.current;
    if (block === null || docId < first[block.block] || docId >= first[block.block + 1]) block = this.enter(this.blockOf(docId), docId);
    const starts = block.starts ?? this.readHeader(block);
    const i = docId - first[block.block];
    const end = starts[i + 1];
    if (block.cursor !== null && block.cursor.out < end) this.decodeTo(block, end);
    return decoder.decode(block.data.subarray(starts[i], end));
  }

  /**
   * The byte range of the compressed block that holds `docId`, or null when reading the doc reads
   * no bytes (its block is the current one): what a reader over a window of the file
   * (segment/windowed-file.ts) loads before {@link getRaw}.
   */
  blockSpan(docId: number): { start: number; length: number } | null {
    const first = this.blockFirstDoc;
    const block = this.current;
    if (block !== null && docId >= first[block.block] && docId < first[block.block + 1]) return null;
    const b = this.blockOf(docId);
    return { start: this.blockOffset[b], length: this.blockOffset[b + 1] - this.blockOffset[b] };
  }

  private blockOf(docId: number): number {
    const first = this.blockFirstDoc;
    let lo = 0;
    let hi = first.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (first[mid] <= docId) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Makes `b` the current block: from the pool, or decoded (and pooled unless read in order). */
  private enter(b: number, docId: number): DecodedBlock {
    const previous = this.current;
    const inOrder = previous !== null && previous.block === b - 1 && docId === this.blockFirstDoc[b];
    const key = this.keyBase + b;
    let block = inOrder ? undefined : this.cache.get(key);
    if (block === undefined) {
      block = this.version === STORED_FIELDS_VERSION ? this.startLz4(b) : this.inflate(b);
      if (!inOrder) this.cache.set(key, block);
    }
    this.current = block;
    return block;
  }

  private startLz4(b: number): DecodedBlock {
    return { block: b, data: new Uint8Array(this.blockRawLength[b]), starts: null, cursor: { input: this.compressed(b), src: 0, out: 0 } };
  }

  /** The compressed bytes of block `b`: a view of the file in memory, or read by position. */
  private compressed(b: number): Uint8Array {
    const start = this.blockOffset[b];
    const end = this.blockOffset[b + 1];
    return 'bytes' in this.source ? this.source.bytes.subarray(start, end) : readAt(this.source.file, start, end - start, this.fileName);
  }

  private inflate(b: number): DecodedBlock {
    const compressed = this.compressed(b);
    let data: Uint8Array;
    try {
      data = inflateRawSync(compressed);
    } catch (err) {
      throw corrupt(this.fileName, `block ${b} does not decompress`, err);
    }
    return { block: b, data, starts: null, cursor: null };
  }

  /** Decodes `block` up to at least `until` bytes (all of it: checks that the input ends there too). */
  private decodeTo(block: DecodedBlock, until: number): void {
    const cursor = block.cursor;
    if (cursor === null) return;
    const end = cursor.input.length;
    try {
      decompressLz4Block(cursor.input, end, block.data, cursor, until);
    } catch (err) {
      block.cursor = null; // never resume a damaged block
      this.drop(block);
      throw corrupt(this.fileName, `block ${block.block} does not decompress: ${(err as Error).message}`, err);
    }
    if (cursor.out < until || (cursor.out === block.data.length && cursor.src !== end)) {
      this.drop(block);
      throw corrupt(this.fileName, `block ${block.block} decompresses to ${cursor.out} bytes (input used: ${cursor.src} of ${end}), expected ${block.data.length}`);
    }
    if (cursor.out === block.data.length) block.cursor = null;
  }

  /** Forgets a damaged block, so the next read tries again and fails the same way. */
  private drop(block: DecodedBlock): void {
    if (this.current === block) this.current = null;
    this.cache.delete(this.keyBase + block.block);
  }

  /** Parses the doc count and lengths at the start of a block into document offsets. */
  private readHeader(block: DecodedBlock): Uint32Array {
    const b = block.block;
    const docs = this.blockFirstDoc[b + 1] - this.blockFirstDoc[b];
    const data = block.data;
    if (block.cursor !== null) this.decodeTo(block, Math.min(data.length, 8 + docs * HEADER_GUESS_PER_DOC));
    let p = 0;
    const varint = (): number => {
      let v = 0;
      for (let shift = 0; shift < 56; shift += 7) {
        if (p >= data.length) break;
        if (block.cursor !== null && p >= block.cursor.out) this.decodeTo(block, Math.min(data.length, p + 1 + docs * HEADER_GUESS_PER_DOC));
        const x = data[p++];
        v += (x & 0x7f) * 2 ** shift;
        if (x < 0x80) return v;
      }
      throw corrupt(this.fileName, `block ${b} has a bad varint in its header`);
    };
    const count = varint();
    if (count !== docs) throw corrupt(this.fileName, `block ${b} holds ${count} docs, index says ${docs}`);
    const starts = new Uint32Array(docs + 1);
    const lengths = new Float64Array(docs);
    for (let i = 0; i < docs; i++) lengths[i] = varint();
    starts[0] = p;
    for (let i = 0; i < docs; i++) {
      const next = starts[i] + lengths[i];
      if (next > data.length) throw corrupt(this.fileName, `block ${b} has inconsistent doc lengths`);
      starts[i + 1] = next;
    }
    if (starts[docs] !== data.length) throw corrupt(this.fileName, `block ${b} has inconsistent doc lengths`);
    block.starts = starts;
    return starts;
  }
}

/** `length` bytes of `file` at `position`; a short read is a truncated file. */
function readAt(file: RandomAccessFile, position: number, length: number, fileName: string): Uint8Array {
  const bytes = new Uint8Array(length);
  const n = file.read(bytes, position);
  if (n !== length) throw corrupt(fileName, `${length} bytes at ${position} run past the end of the file (${file.size} bytes)`);
  return bytes;
}

function corrupt(fileName: string, what: string, cause?: unknown): YarrowError {
  return new YarrowError(ErrorCode.corruptIndex, `${fileName}: ${what}`, { source: fileName }, cause === undefined ? undefined : { cause });
}
