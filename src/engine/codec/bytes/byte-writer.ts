/**
 * A growable little-endian byte buffer, the sink of every codec writer.
 *
 * Primitive encodings (shared with {@link ByteReader}):
 * - uint32: 4 bytes little-endian.
 * - float64: 8 bytes IEEE 754 little-endian.
 * - varint: unsigned LEB128, 7 bits per byte, low groups first, high bit = "more follows";
 *   at most 8 bytes because values stay below 2^53.
 * - zigzag: a signed integer v mapped to 2v (v >= 0) or -2v-1 (v < 0), then written as a varint.
 * - string: varint UTF-8 byte length, then the UTF-8 bytes.
 */

const TWO_POW_32 = 0x1_0000_0000;

/** Accumulates bytes in a doubling buffer; `view()` exposes them without copying. */
export class ByteWriter {
  private buf: Uint8Array;
  private len = 0;
  private dataView: DataView | null = null;

  /** @param initialCapacity bytes to reserve up front; the buffer doubles as needed. */
  constructor(initialCapacity = 256) {
    this.buf = new Uint8Array(Math.max(16, initialCapacity));
  }

  /** Number of bytes written so far. */
  get length(): number {
    return this.len;
  }

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    const need = this.len + n;
    if (need <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.dataView = null;
  }

  /**
   * Makes room for `n` more bytes and returns the buffer, for a caller that writes a run of values
   * straight into it from {@link length} on (with {@link putVarint}, {@link putStringFrom}) and
   * then calls {@link advance}: one check for room per run instead of one per value. The buffer
   * is valid until the next write.
   */
  reserve(n: number): Uint8Array {
    if (this.len + n > this.buf.length) this.ensure(n);
    return this.buf;
  }

  /** Sets the length to `end`, after writing bytes up to it into the buffer {@link reserve} returned. */
  advance(end: number): void {
    this.len = end;
  }

  /** Appends one byte (the low 8 bits of `b`). */
  writeByte(b: number): void {
    if (this.len === this.buf.length) this.ensure(1);
    this.buf[this.len++] = b;
  }

  /** Appends a copy of `b`. */
  writeBytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  /** Appends a copy of `b[0..count)` (no subarray made: most callers copy a few bytes). */
  writeBytesOf(b: Uint8Array, count: number): void {
    this.ensure(count);
    const buf = this.buf;
    let p = this.len;
    if (count > 32) {
      buf.set(b.subarray(0, count), p);
    } else {
      for (let i = 0; i < count; i++) buf[p++] = b[i];
    }
    this.len += count;
  }

  /**
   * Appends `values[from..from+count)`, each as the varint of its difference from the one before
   * (the first as is): a doc's positions. Values ascend and are below 2^32.
   */
  writeVarintDeltas(values: ArrayLike<number>, from: number, count: number): void {
    this.ensure(5 * count);
    this.len = putVarintDeltas(this.buf, this.len, values, from, from + count);
  }

  /**
   * {@link writeVarintDeltas} for `runCount` runs in a row: run `k` is the next `runs[runFrom + k]`
   * values from `values[from]` on, each run's deltas starting again from 0 (the positions of a
   * term's docs, one run per doc); `total` is the sum of those run lengths. The same bytes as one
   * call per run, with one check for room.
   */
  writeVarintDeltaRuns(values: ArrayLike<number>, from: number, runs: ArrayLike<number>, runFrom: number, runCount: number, total: number): void {
    this.ensure(5 * total);
    const buf = this.buf;
    let p = this.len;
    let i = from;
    for (let k = runFrom; k < runFrom + runCount; k++) {
      const end = i + runs[k];
      p = putVarintDeltas(buf, p, values, i, end);
      i = end;
    }
    this.len = p;
  }

  /** Appends `v` (an unsigned 32-bit integer) as 4 little-endian bytes. */
  writeUint32(v: number): void {
    this.ensure(4);
    const buf = this.buf;
    let p = this.len;
    buf[p++] = v;
    buf[p++] = v >>> 8;
    buf[p++] = v >>> 16;
    buf[p++] = v >>> 24;
    this.len = p;
  }

  /** Appends `v` as an IEEE 754 double, little-endian. */
  writeFloat64(v: number): void {
    this.ensure(8);
    this.dataView ??= new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    this.dataView.setFloat64(this.len, v, true);
    this.len += 8;
  }

  /** Appends `v`, an integer in [0, 2^53), as an unsigned LEB128 varint. */
  writeVarint(v: number): void {
    this.ensure(8);
    this.len = putVarint(this.buf, this.len, v);
  }

  /**
   * Appends a signed safe integer in zigzag form. Computed without forming 2|v| (which can exceed
   * 2^53 and lose its low bit): the first byte carries the sign and 6 magnitude bits, the rest is
   * an ordinary varint of the magnitude divided by 64; the bytes equal LEB128(zigzag(v)).
   */
  writeZigzag(v: number): void {
    if (!Number.isSafeInteger(v)) throw new RangeError(`zigzag out of range: ${v}`);
    const negative = v < 0;
    const m = negative ? -v - 1 : v;
    const low = ((m % 64) << 1) | (negative ? 1 : 0);
    if (m < 64) {
      this.writeByte(low);
      return;
    }
    this.writeByte(low | 0x80);
    this.writeVarint(Math.floor(m / 64));
  }

  /** Appends `s` as a varint UTF-8 byte length followed by its UTF-8 bytes. */
  writeString(s: string): void {
    this.writeStringFrom(s, 0);
  }

  /**
   * Appends `s.slice(from)` as {@link writeString} does, without making the slice in the common
   * case (a term's suffix after the prefix it shares with the previous term).
   */
  writeStringFrom(s: string, from: number): void {
    this.ensure(stringRoom(s.length - from));
    this.len = putStringFrom(this.buf, this.len, s, from);
  }

  /** Appends the UTF-8 bytes of `s` with no length prefix; returns how many were written. */
  writeUtf8(s: string): number {
    const n = s.length;
    this.ensure(n * 3);
    const buf = this.buf;
    const start = this.len;
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      buf[start + i] = c;
    }
    const written = i === n ? n : encodeUtf8(s, i, buf, start + i) - start;
    this.len += written;
    return written;
  }

  /** Bytes written so far (a view, valid until the next write). */
  view(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }

  /** A copy of the bytes written so far. */
  toBytes(): Uint8Array {
    return this.buf.slice(0, this.len);
  }

  /** Forgets the written bytes but keeps the buffer, so it can be refilled without allocating. */
  reset(): void {
    this.len = 0;
  }
}

/**
 * Writes `v`, an integer in [0, 2^53), as an unsigned LEB128 varint at `buf[p]` (room for 8
 * bytes); returns the position after it.
 */
export function putVarint(buf: Uint8Array, p: number, v: number): number {
  if (v >>> 0 === v) {
    // Fast path: bit operations are exact for uint32.
    while (v >= 0x80) {
      buf[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[p++] = v;
    return p;
  }
  if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`varint out of range: ${v}`);
  while (v >= 0x80) {
    buf[p++] = (v % 0x80) | 0x80;
    v = Math.floor(v / 0x80);
  }
  buf[p++] = v;
  return p;
}

/** Bytes {@link putStringFrom} may need for a string of `units` UTF-16 code units. */
export function stringRoom(units: number): number {
  // UTF-8 needs at most 3 bytes per UTF-16 code unit, plus the widest length prefix.
  return 3 * units + 8;
}

/**
 * Writes `s.slice(from)` as a varint UTF-8 byte length followed by its UTF-8 bytes at `buf[p]`
 * (room for {@link stringRoom} of its length), without making the slice; returns the position
 * after it.
 */
export function putStringFrom(buf: Uint8Array, p: number, s: string, from: number): number {
  const n = s.length - from;
  // Short ASCII strings are the common case (terms, keywords): their length is their one-byte
  // prefix, and the tightest loop copies them.
  if (n < 0x80) {
    let q = p + 1;
    let i = from;
    for (; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      buf[q++] = c;
    }
    if (i === s.length) {
      buf[p] = n;
      return q;
    }
  }
  // Else reserve the widest length prefix, encode, and move the bytes back if the prefix is shorter.
  const prefix = varintSize(n * 3);
  const start = p + prefix;
  const written = encodeUtf8(s, from, buf, start) - start;
  const actualPrefix = varintSize(written);
  if (actualPrefix < prefix) buf.copyWithin(p + actualPrefix, start, start + written);
  return putVarint(buf, p, written) + written;
}

/**
 * Writes the UTF-8 of `s` from code unit `from` on at `buf[p]` (room for 3 bytes per unit);
 * returns the position after it. By hand: a TextEncoder.encodeInto call costs ~2-4 us on Node 20,
 * more than a whole term's write-out, and long ids and non-ASCII terms are common enough to show
 * in a flush. The same bytes as the encoder: a lone surrogate becomes U+FFFD.
 */
function encodeUtf8(s: string, from: number, buf: Uint8Array, p: number): number {
  for (let i = from; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      buf[p++] = c;
      continue;
    }
    if (c < 0x800) {
      buf[p++] = 0xc0 | (c >>> 6);
      buf[p++] = 0x80 | (c & 0x3f);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = c <= 0xdbff && i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        buf[p++] = 0xf0 | (cp >>> 18);
        buf[p++] = 0x80 | ((cp >>> 12) & 0x3f);
        buf[p++] = 0x80 | ((cp >>> 6) & 0x3f);
        buf[p++] = 0x80 | (cp & 0x3f);
        i++;
        continue;
      }
      c = 0xfffd;
    }
    buf[p++] = 0xe0 | (c >>> 12);
    buf[p++] = 0x80 | ((c >>> 6) & 0x3f);
    buf[p++] = 0x80 | (c & 0x3f);
  }
  return p;
}

/** Number of bytes `writeVarint(v)` emits. */
export function varintSize(v: number): number {
  if (v < 0x80) return 1;
  if (v < 0x4000) return 2;
  if (v < 0x20_0000) return 3;
  if (v < 0x1000_0000) return 4;
  if (v < 0x8_0000_0000) return 5;
  if (v < 0x400_0000_0000) return 6;
  if (v < 0x2_0000_0000_0000) return 7;
  return v < TWO_POW_32 * 0x100_0000 ? 8 : 9; // 2^56
}

/**
 * Writes `values[from..end)` into `buf` at `p` as varints of their differences from the value
 * before (the first from 0), with room already ensured; returns the position after them.
 */
function putVarintDeltas(buf: Uint8Array, p: number, values: ArrayLike<number>, from: number, end: number): number {
  let prev = 0;
  for (let i = from; i < end; i++) {
    const value = values[i];
    let v = value - prev;
    prev = value;
    while (v >= 0x80) {
      buf[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[p++] = v;
  }
  return p;
}
