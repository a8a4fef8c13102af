/**
 * Raw tokens to ids, interned from the analyzed text's characters: an open-addressing hash
 * table over typed arrays. The tokenizer hashes each span while it scans, so a token seen before
 * costs one probe and a compare, with no string made and nothing allocated; only a new token is
 * sliced into a string (for the analyzer's filters).
 *
 * Most tokens are short and ASCII, so a key of up to {@link INLINE_UNITS} ASCII code units is held
 * in its slot, packed a byte a unit: the probe that finds the slot has the key in the same cache
 * line, and a hit reads no key arena (a second cache miss per token on a large vocabulary). Longer
 * ASCII keys live in a byte arena, keys with a code unit past ASCII in a UTF-16 arena. A key's
 * form depends on its code units only, so a span finds its entry whichever way it is read
 * (a string's code units or, for {@link RawTokenTable.findBytes}, ASCII bytes).
 */

/** Ints per slot: the key's hash, its id, and the key (packed, or where it is and how long). */
const SLOT = 4;
const HASH = 0;
const ID = 1;
/**
 * A short ASCII key: its first four units, the first in the low byte (never 0: no token holds
 * NUL, so an empty slot is told by K0 === 0). A key in an arena: -(offset + 1).
 */
const K0 = 2;
/**
 * A short ASCII key: units 5 to 8, zero-padded (>= 0: ASCII bytes leave the sign bit clear). A
 * key in the byte arena: its length (> {@link INLINE_UNITS}); in the UTF-16 arena: -(its length).
 */
const K1 = 3;

/** ASCII keys up to this many code units are held in their slot. */
export const INLINE_UNITS = 8;

/** What {@link RawTokenTable.find} returns for a span the table does not hold (ids are >= -1). */
export const ABSENT = -2;

/** Maps token spans (optionally ASCII-lowercased as they are read) to ids. */
export class RawTokenTable {
  /** Keys of more than {@link INLINE_UNITS} ASCII code units, back to back. */
  private asciiKeys: Uint8Array;
  private asciiUsed = 0;
  /** Keys with a code unit past ASCII, back to back. */
  private wideKeys = new Uint16Array(0);
  private wideUsed = 0;
  /**
   * Open addressing, linear probing, each slot a whole entry: a lookup reads one cache line for
   * the hash, key and id instead of one per parallel array.
   */
  private slots: Int32Array;
  private count = 0;
  /** The empty slot where the span of the last {@link find} that missed belongs. */
  private freeSlot = 0;

  /** @param capacity entries to make room for up front (the table grows past it as needed). */
  constructor(capacity = 1024) {
    let slots = 8;
    while (slots < capacity * 2) slots *= 2;
    this.slots = new Int32Array(slots * SLOT);
    // 16 KB, or less for a table made small on purpose (a warm-up's, which is to grow).
    this.asciiKeys = new Uint8Array(Math.min(1 << 14, capacity * 16));
  }

  /** Bytes held by the table's arrays. */
  get bytes(): number {
    return this.asciiKeys.byteLength + this.wideKeys.byteLength + this.slots.byteLength;
  }

  /** Number of spans held. */
  get size(): number {
    return this.count;
  }

  /** Code units held by the key arenas (short keys, held in their slots, are not counted). */
  get keyChars(): number {
    return this.asciiUsed + this.wideUsed;
  }

  /**
   * The id of `text[start, end)` (A-Z read as a-z when `lowerAscii`), or, for a span not seen
   * before, `resolve(start, end)`'s, which is recorded for it. `hash` is the span's `hashSpan`
   * (analysis/span-hash.ts), which the tokenizer computes while scanning.
   */
  lookup(text: string, start: number, end: number, lowerAscii: boolean, hash: number, resolve: (start: number, end: number) => number): number {
    const found = this.find(text, start, end, lowerAscii, hash);
    if (found !== ABSENT) return found;
    const id = resolve(start, end);
    this.add(text, start, end, lowerAscii, hash, id);
    return id;
  }

  /**
   * The id of `text[start, end)` as in {@link lookup}, or {@link ABSENT}; then {@link add} records
   * the span (before any other call on the table).
   */
  find(text: string, start: number, end: number, lowerAscii: boolean, hash: number): number {
    const length = end - start;
    let wide = false;
    let k0 = 0;
    let k1 = 0;
    if (length <= INLINE_UNITS) {
      for (let i = 0; i < length; i++) {
        let c = text.charCodeAt(start + i);
        if (c >= 0x80) {
          wide = true;
          break;
        }
        if (lowerAscii && c >= 0x41 && c <= 0x5a) c |= 0x20;
        if (i < 4) k0 |= c << (i << 3);
        else k1 |= c << ((i - 4) << 3);
      }
    } else {
      for (let i = start; i < end; i++) {
        if (text.charCodeAt(i) >= 0x80) {
          wide = true;
          break;
        }
      }
    }
    const slots = this.slots;
    const wrap = slots.length - 1;
    let slot = (hash << 2) & wrap;
    for (let s0 = slots[slot + K0]; s0 !== 0; s0 = slots[slot + K0]) {
      if (slots[slot + HASH] === hash) {
        const s1 = slots[slot + K1];
        if (wide) {
          if (s1 === -length && this.matchesWide(-s0 - 1, text, start, length, lowerAscii)) return slots[slot + ID];
        } else if (length <= INLINE_UNITS) {
          if (s0 === k0 && s1 === k1) return slots[slot + ID];
        } else if (s1 === length && s0 < 0 && this.matchesAscii(-s0 - 1, text, start, length, lowerAscii)) {
          return slots[slot + ID];
        }
      }
      slot = (slot + SLOT) & wrap;
    }
    this.freeSlot = slot;
    return ABSENT;
  }

  /**
   * {@link find} for a span of ASCII bytes (`bytes[start, end)`, A-Z read as a-z; the bytes are
   * letters, digits and apostrophes, as the standard tokenizer's byte scan reports them): an
   * ASCII byte is the UTF-16 code unit it decodes to, so a span finds the entry its string would.
   * A miss is recorded with {@link add} as for {@link find}, from the span's lowercased string.
   */
  findBytes(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const length = end - start;
    const slots = this.slots;
    const wrap = slots.length - 1;
    let slot = (hash << 2) & wrap;
    if (length <= INLINE_UNITS) {
      const k0 = shortKey(bytes, start, length);
      const k1 = length > 4 ? shortKey(bytes, start + 4, length - 4) : 0;
      for (let s0 = slots[slot + K0]; s0 !== 0; s0 = slots[slot + K0]) {
        if (s0 === k0 && slots[slot + K1] === k1) return slots[slot + ID];
        slot = (slot + SLOT) & wrap;
      }
    } else {
      for (let s0 = slots[slot + K0]; s0 !== 0; s0 = slots[slot + K0]) {
        if (slots[slot + HASH] === hash && slots[slot + K1] === length && s0 < 0 && this.matchesBytes(-s0 - 1, bytes, start, length)) return slots[slot + ID];
        slot = (slot + SLOT) & wrap;
      }
    }
    this.freeSlot = slot;
    return ABSENT;
  }

  private matchesBytes(at: number, bytes: Uint8Array, start: number, length: number): boolean {
    const keys = this.asciiKeys;
    for (let i = 0; i < length; i++) if (keys[at + i] !== (bytes[start + i] | 0x20)) return false;
    return true;
  }

  private matchesAscii(at: number, text: string, start: number, length: number, lowerAscii: boolean): boolean {
    const keys = this.asciiKeys;
    for (let i = 0; i < length; i++) {
      let c = text.charCodeAt(start + i);
      if (lowerAscii && c >= 0x41 && c <= 0x5a) c |= 0x20;
      if (keys[at + i] !== c) return false;
    }
    return true;
  }

  private matchesWide(at: number, text: string, start: number, length: number, lowerAscii: boolean): boolean {
    const keys = this.wideKeys;
    for (let i = 0; i < length; i++) {
      let c = text.charCodeAt(start + i);
      if (lowerAscii && c >= 0x41 && c <= 0x5a) c |= 0x20;
      if (keys[at + i] !== c) return false;
    }
    return true;
  }

  /**
   * {@link add} for the span of ASCII bytes the last {@link findBytes} did not find (A-Z read as
   * a-z), from its bytes: the entry its lowercased string would get, with no string read.
   */
  addBytes(bytes: Uint8Array, start: number, end: number, hash: number, id: number): void {
    const length = end - start;
    let k0 = 0;
    let k1 = 0;
    if (length <= INLINE_UNITS) {
      k0 = shortKey(bytes, start, length);
      k1 = length > 4 ? shortKey(bytes, start + 4, length - 4) : 0;
    } else {
      const at = this.reserveAscii(length);
      const keys = this.asciiKeys;
      for (let i = 0; i < length; i++) keys[at + i] = bytes[start + i] | 0x20;
      k0 = -(at + 1);
      k1 = length;
    }
    this.put(hash, id, k0, k1);
  }

  /** Records `id` for the span the last {@link find} or {@link findBytes} did not find (same span). */
  add(text: string, start: number, end: number, lowerAscii: boolean, hash: number, id: number): void {
    const length = end - start;
    let wide = false;
    for (let i = start; i < end; i++) {
      if (text.charCodeAt(i) >= 0x80) {
        wide = true;
        break;
      }
    }
    let k0 = 0;
    let k1 = 0;
    if (wide) {
      if (this.wideUsed + length > this.wideKeys.length) this.wideKeys = grown(this.wideKeys, this.wideUsed + length);
      const at = this.wideUsed;
      const keys = this.wideKeys;
      for (let i = 0; i < length; i++) keys[at + i] = lowered(text.charCodeAt(start + i), lowerAscii);
      this.wideUsed += length;
      k0 = -(at + 1);
      k1 = -length;
    } else if (length <= INLINE_UNITS) {
      for (let i = 0; i < length; i++) {
        const c = lowered(text.charCodeAt(start + i), lowerAscii);
        if (i < 4) k0 |= c << (i << 3);
        else k1 |= c << ((i - 4) << 3);
      }
    } else {
      const at = this.reserveAscii(length);
      const keys = this.asciiKeys;
      for (let i = 0; i < length; i++) keys[at + i] = lowered(text.charCodeAt(start + i), lowerAscii);
      k0 = -(at + 1);
      k1 = length;
    }
    this.put(hash, id, k0, k1);
  }

  /** Room for a long ASCII key of `length` units at the end of {@link asciiKeys}; returns where it starts. */
  private reserveAscii(length: number): number {
    const at = this.asciiUsed;
    if (at + length > this.asciiKeys.length) this.asciiKeys = grown(this.asciiKeys, at + length);
    this.asciiUsed = at + length;
    return at;
  }

  /** Fills {@link freeSlot} with an entry; grows the table when it is half full. */
  private put(hash: number, id: number, k0: number, k1: number): void {
    const slots = this.slots;
    const slot = this.freeSlot;
    slots[slot + HASH] = hash;
    slots[slot + ID] = id;
    slots[slot + K0] = k0;
    slots[slot + K1] = k1;
    // At most half full, so probe runs stay short.
    if (++this.count * 2 * SLOT > slots.length) this.rehash(slots.length * 2);
  }

  private rehash(size: number): void {
    const old = this.slots;
    const slots = new Int32Array(size);
    const wrap = size - 1;
    for (let from = 0; from < old.length; from += SLOT) {
      if (old[from + K0] === 0) continue;
      let slot = (old[from + HASH] << 2) & wrap;
      while (slots[slot + K0] !== 0) slot = (slot + SLOT) & wrap;
      slots[slot + HASH] = old[from + HASH];
      slots[slot + ID] = old[from + ID];
      slots[slot + K0] = old[from + K0];
      slots[slot + K1] = old[from + K1];
    }
    this.slots = slots;
  }
}

/**
 * The packed form of the first `min(length, 4)` bytes at `start` (`length` >= 1), the first in the
 * low byte, A-Z read as a-z: OR 0x20 lowercases A-Z and changes nothing else of a word byte or an
 * apostrophe (a-z, 0-9 and ' have the bit set already). A switch rather than a loop: the loop's
 * exit, taken after a different count from token to token, was a mispredicted branch a lookup.
 */
function shortKey(bytes: Uint8Array, start: number, length: number): number {
  switch (length) {
    case 1:
      return bytes[start] | 0x20;
    case 2:
      return (bytes[start] | (bytes[start + 1] << 8)) | 0x2020;
    case 3:
      return (bytes[start] | (bytes[start + 1] << 8) | (bytes[start + 2] << 16)) | 0x202020;
    default:
      return bytes[start] | (bytes[start + 1] << 8) | (bytes[start + 2] << 16) | (bytes[start + 3] << 24) | 0x20202020;
  }
}

/** `c`, with A-Z read as a-z when `lowerAscii`. */
function lowered(c: number, lowerAscii: boolean): number {
  return lowerAscii && c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}

/** A copy of `a` with room for at least `min` elements (at least double its length). */
function grown<T extends Uint8Array | Uint16Array>(a: T, min: number): T {
  const copy = new (a.constructor as new (n: number) => T)(Math.max(min, a.length * 2, 1024));
  copy.set(a);
  return copy;
}
