import { ErrorCode, YarrowError } from '../../errors.js';

const decoder = new TextDecoder();

/**
 * Reads the primitive encodings of {@link ByteWriter} from a byte array. Files are checksummed
 * before they are read, so reads trust the bytes; a read that runs past the end still fails with
 * `corrupt_index` rather than returning garbage.
 */
export class ByteReader {
  /** Offset of the next byte to read; callers seek by assigning it. */
  pos: number;
  private dataView: DataView | null = null;

  /**
   * @param bytes the data; never copied.
   * @param offset where reading starts.
   */
  constructor(
    readonly bytes: Uint8Array,
    offset = 0,
  ) {
    this.pos = offset;
  }

  /** Reads one byte. */
  readByte(): number {
    if (this.pos >= this.bytes.length) throw pastEnd(this.pos);
    return this.bytes[this.pos++];
  }

  /** Returns the next `n` bytes as a subarray (no copy). */
  readBytes(n: number): Uint8Array {
    const end = this.pos + n;
    if (n < 0 || end > this.bytes.length) throw pastEnd(end);
    const out = this.bytes.subarray(this.pos, end);
    this.pos = end;
    return out;
  }

  /** Reads a 4-byte little-endian unsigned integer. */
  readUint32(): number {
    const p = this.pos;
    if (p + 4 > this.bytes.length) throw pastEnd(p + 4);
    const b = this.bytes;
    this.pos = p + 4;
    return (b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24)) >>> 0;
  }

  /** Reads an 8-byte little-endian IEEE 754 double. */
  readFloat64(): number {
    const p = this.pos;
    if (p + 8 > this.bytes.length) throw pastEnd(p + 8);
    this.dataView ??= new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    this.pos = p + 8;
    return this.dataView.getFloat64(p, true);
  }

  /** Reads an unsigned LEB128 varint (at most 8 bytes, value below 2^56). */
  readVarint(): number {
    const b = this.bytes;
    let p = this.pos;
    let byte = b[p++];
    if (byte < 0x80) {
      if (p > b.length) throw pastEnd(p);
      this.pos = p;
      return byte;
    }
    // Up to 28 bits stay in int32 range, so bit operations are exact there.
    let v = byte & 0x7f;
    let shift = 7;
    do {
      byte = b[p++]!;
      v |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte >= 0x80 && shift < 28);
    if (byte >= 0x80) {
      let scale = 0x1000_0000;
      do {
        if (scale > 0x80_0000_0000_0000) throw new YarrowError(ErrorCode.corruptIndex, `varint longer than 8 bytes at offset ${this.pos}`);
        byte = b[p++]!;
        v += (byte & 0x7f) * scale;
        scale *= 0x80;
      } while (byte >= 0x80);
    }
    // An out-of-range index reads undefined, which the bit operations above turn into 0.
    if (p > b.length) throw pastEnd(p);
    this.pos = p;
    return v;
  }

  /** Reads a zigzag-encoded signed integer (see {@link ByteWriter.writeZigzag}). */
  readZigzag(): number {
    const first = this.readByte();
    let m = (first >>> 1) & 0x3f;
    if (first >= 0x80) m += this.readVarint() * 64;
    return (first & 1) === 1 ? -m - 1 : m;
  }

  /** Reads a varint byte length followed by that many UTF-8 bytes. */
  readString(): string {
    const n = this.readVarint();
    const b = this.bytes;
    const start = this.pos;
    const end = start + n;
    if (end > b.length) throw pastEnd(end);
    this.pos = end;
    if (n <= 24) {
      // Short ASCII strings (terms, keywords) decode faster by hand than through TextDecoder.
      let s = '';
      let i = start;
      for (; i < end; i++) {
        const c = b[i];
        if (c >= 0x80) break;
        s += String.fromCharCode(c);
      }
      if (i === end) return s;
    }
    return decoder.decode(b.subarray(start, end));
  }

  /** True when every byte has been read. */
  eof(): boolean {
    return this.pos >= this.bytes.length;
  }
}

function pastEnd(offset: number): YarrowError {
  return new YarrowError(ErrorCode.corruptIndex, `read past the end of the data (offset ${offset})`, { offset });
}
