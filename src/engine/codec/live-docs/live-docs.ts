/**
 * Live docs: which docs of a segment are not deleted. A segment never changes, so deletions live
 * in a `.liv` file of their own, rewritten (under a new generation) on each commit that deletes.
 *
 * Byte layout (after the header `Yliv`, version 1; footer from file-format.ts):
 *   varint  maxDoc
 *   varint  deleted count
 *   byte    encoding: 0 = bitset: ceil(maxDoc/32) uint32 LE words, bit set = live
 *                     1 = sparse: deleted docIds as ascending varint gaps (first gap from -1)
 *   The writer picks whichever is smaller; deletions are usually few.
 */
import { ByteWriter } from '../bytes/byte-writer.js';
import { openChecked, writeFooter, writeHeader } from '../file-format.js';
import { ErrorCode, YarrowError } from '../../errors.js';

export const LIVE_DOCS_MAGIC = 'Yliv';
export const LIVE_DOCS_VERSION = 1;
export const LiveDocsEncoding = { bitset: 0, sparse: 1 } as const;

/** A bitset of maxDoc bits; bit set = live. */
export class LiveDocs {
  private constructor(
    readonly maxDoc: number,
    private readonly words: Uint32Array,
    private live: number,
  ) {}

  /** Every doc of a segment of `maxDoc` docs live. */
  static allLive(maxDoc: number): LiveDocs {
    const words = new Uint32Array((maxDoc + 31) >>> 5).fill(0xffff_ffff);
    // Bits past maxDoc stay clear so popcounts and encodings see only real docs.
    if ((maxDoc & 31) !== 0) words[words.length - 1] = (1 << (maxDoc & 31)) - 1;
    return new LiveDocs(maxDoc, words, maxDoc);
  }

  /** Number of live docs. */
  get liveCount(): number {
    return this.live;
  }

  /** Number of deleted docs. */
  get deletedCount(): number {
    return this.maxDoc - this.live;
  }

  /** True when `docId` is in range and not deleted. */
  isLive(docId: number): boolean {
    if (!(docId >= 0 && docId < this.maxDoc)) return false;
    return ((this.words[docId >>> 5] >>> (docId & 31)) & 1) === 1;
  }

  /** An independent copy: snapshots keep theirs while the writer deletes in its own. */
  clone(): LiveDocs {
    return new LiveDocs(this.maxDoc, this.words.slice(), this.live);
  }

  /** Marks `docId` deleted; true if it was live. */
  delete(docId: number): boolean {
    if (!Number.isInteger(docId) || docId < 0 || docId >= this.maxDoc) throw new RangeError(`docId ${docId} out of range [0, ${this.maxDoc})`);
    const i = docId >>> 5;
    const bit = 1 << (docId & 31);
    const word = this.words[i];
    if ((word & bit) === 0) return false;
    this.words[i] = word & ~bit;
    this.live--;
    return true;
  }

  /** The `.liv` file, header to footer. */
  encode(): Uint8Array {
    const deleted = this.maxDoc - this.live;
    const bitsetBytes = this.words.length * 4;
    const w = new ByteWriter(32 + Math.min(bitsetBytes, deleted * 5));
    writeHeader(w, LIVE_DOCS_MAGIC, LIVE_DOCS_VERSION);
    w.writeVarint(this.maxDoc);
    w.writeVarint(deleted);
    // A gap costs at least 1 byte, at most ~3 for realistic segments; estimate before encoding.
    if (deleted * 2 < bitsetBytes) {
      w.writeByte(LiveDocsEncoding.sparse);
      let prev = -1;
      for (let d = 0; d < this.maxDoc; d++) {
        if (!this.isLive(d)) {
          w.writeVarint(d - prev - 1);
          prev = d;
        }
      }
    } else {
      w.writeByte(LiveDocsEncoding.bitset);
      for (const word of this.words) w.writeUint32(word);
    }
    writeFooter(w);
    return w.toBytes();
  }

  /** Reads a `.liv` file written by {@link encode}, verifying its checksum. */
  static decode(bytes: Uint8Array, fileName: string): LiveDocs {
    const { reader, bodyEnd } = openChecked(bytes, fileName, LIVE_DOCS_MAGIC, LIVE_DOCS_VERSION);
    const maxDoc = reader.readVarint();
    const deleted = reader.readVarint();
    const encoding = reader.readByte();
    if (deleted > maxDoc) throw corrupt(fileName, `${deleted} deletions in ${maxDoc} docs`);
    let docs: LiveDocs;
    if (encoding === LiveDocsEncoding.sparse) {
      docs = LiveDocs.allLive(maxDoc);
      let d = -1;
      for (let i = 0; i < deleted; i++) {
        d += reader.readVarint() + 1;
        if (d >= maxDoc) throw corrupt(fileName, `deleted docId ${d} out of range`);
        docs.delete(d);
      }
    } else if (encoding === LiveDocsEncoding.bitset) {
      const words = new Uint32Array((maxDoc + 31) >>> 5);
      for (let i = 0; i < words.length; i++) words[i] = reader.readUint32();
      let live = 0;
      for (const word of words) live += popcount(word);
      if ((maxDoc & 31) !== 0 && words[words.length - 1] >>> (maxDoc & 31) !== 0) throw corrupt(fileName, 'bits set past maxDoc');
      docs = new LiveDocs(maxDoc, words, live);
    } else {
      throw corrupt(fileName, `unknown encoding ${encoding}`);
    }
    if (docs.deletedCount !== deleted) throw corrupt(fileName, `header says ${deleted} deletions, found ${docs.deletedCount}`);
    if (reader.pos !== bodyEnd) throw corrupt(fileName, 'trailing bytes');
    return docs;
  }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x5555_5555;
  x = (x & 0x3333_3333) + ((x >>> 2) & 0x3333_3333);
  x = (x + (x >>> 4)) & 0x0f0f_0f0f;
  return Math.imul(x, 0x0101_0101) >>> 24;
}

function corrupt(fileName: string, what: string): YarrowError {
  return new YarrowError(ErrorCode.corruptIndex, `${fileName}: ${what}`, { source: fileName });
}
