import { inflateRawSync } from 'node:zlib';
import { ByteReader } from '../bytes/byte-reader.js';
import { HEADER_LENGTH, openChecked } from '../file-format.js';
import { ErrorCode, YarrowError } from '../../errors.js';
import { STORED_FIELDS_MAGIC, STORED_FIELDS_VERSION } from './stored-fields-writer.js';

const decoder = new TextDecoder();

/**
 * Random access to the documents of a `.fdt` file. Keeps the last decompressed block, because
 * callers (result pages, merges) read docs in runs.
 */
export class StoredFieldsReader {
  private cachedBlock = -1;
  private cachedData: Uint8Array = new Uint8Array(0);
  /** Byte offset of each doc of the cached block in `cachedData`, plus the end. */
  private cachedStarts = new Uint32Array(1);

  private constructor(
    private readonly bytes: Uint8Array,
    private readonly fileName: string,
    /** firstDocId of each block, plus the total doc count. */
    private readonly blockFirstDoc: Uint32Array,
    /** Byte offset of each block in the file, plus the index offset. */
    private readonly blockOffset: Float64Array,
  ) {}

  /** Verifies the checksum and reads the block index. */
  static open(bytes: Uint8Array, fileName: string): StoredFieldsReader {
    const { bodyEnd } = openChecked(bytes, fileName, STORED_FIELDS_MAGIC, STORED_FIELDS_VERSION);
    const indexOffset = new ByteReader(bytes, bodyEnd - 8).readFloat64();
    if (!Number.isInteger(indexOffset) || indexOffset < HEADER_LENGTH || indexOffset > bodyEnd - 8) throw corrupt(fileName, `bad index offset ${indexOffset}`);
    const r = new ByteReader(bytes, indexOffset);
    const blocks = r.readVarint();
    const firstDoc = new Uint32Array(blocks + 1);
    const offset = new Float64Array(blocks + 1);
    offset[0] = HEADER_LENGTH;
    for (let b = 0; b < blocks; b++) {
      firstDoc[b + 1] = firstDoc[b] + r.readVarint();
      offset[b + 1] = offset[b] + r.readVarint();
    }
    if (r.pos !== bodyEnd - 8 || offset[blocks] !== indexOffset) throw corrupt(fileName, 'block index does not match the blocks');
    return new StoredFieldsReader(bytes, fileName, firstDoc, offset);
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
    let block = this.cachedBlock;
    if (block < 0 || docId < first[block] || docId >= first[block + 1]) {
      let lo = 0;
      let hi = first.length - 2;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (first[mid] <= docId) lo = mid;
        else hi = mid - 1;
      }
      block = lo;
      this.load(block);
    }
    const i = docId - first[block];
    return decoder.decode(this.cachedData.subarray(this.cachedStarts[i], this.cachedStarts[i + 1]));
  }

  private load(block: number): void {
    const compressed = this.bytes.subarray(this.blockOffset[block], this.blockOffset[block + 1]);
    let data: Uint8Array;
    try {
      data = inflateRawSync(compressed);
    } catch (err) {
      throw corrupt(this.fileName, `block ${block} does not decompress`, err);
    }
    const r = new ByteReader(data);
    const docs = r.readVarint();
    if (docs !== this.blockFirstDoc[block + 1] - this.blockFirstDoc[block]) throw corrupt(this.fileName, `block ${block} holds ${docs} docs, index says otherwise`);
    const starts = new Uint32Array(docs + 1);
    for (let i = 0; i < docs; i++) starts[i + 1] = starts[i] + r.readVarint();
    if (r.pos + starts[docs] !== data.length) throw corrupt(this.fileName, `block ${block} has inconsistent doc lengths`);
    this.cachedData = data.subarray(r.pos);
    this.cachedStarts = starts;
    this.cachedBlock = block;
  }
}

function corrupt(fileName: string, what: string, cause?: unknown): YarrowError {
  return new YarrowError(ErrorCode.corruptIndex, `${fileName}: ${what}`, { source: fileName }, cause === undefined ? undefined : { cause });
}
