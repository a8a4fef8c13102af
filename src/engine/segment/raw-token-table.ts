/**
 * Raw tokens to ids, interned from the analyzed text's characters: an open-addressing hash
 * table over typed arrays whose keys are copies of the tokens' UTF-16 code units. The tokenizer
 * hashes each span while it scans, so a token seen before costs one pass to compare it, with no
 * string made and nothing allocated; only a new token is sliced into a string (for the analyzer's
 * filters).
 */

/** Ints per slot: the key's hash, where its code units start, how many (0: empty slot), its id. */
const SLOT = 4;
const HASH = 0;
const START = 1;
const LENGTH = 2;
const ID = 3;

/** What {@link RawTokenTable.find} returns for a span the table does not hold (ids are >= -1). */
export const ABSENT = -2;

/** Maps token spans (optionally ASCII-lowercased as they are read) to ids. */
export class RawTokenTable {
  /** Every key's code units, back to back. */
  private chars = new Uint16Array(1 << 15);
  private charsUsed = 0;
  /**
   * Open addressing, linear probing, each slot a whole entry: a lookup reads one cache line for
   * the hash, span and id instead of one per parallel array.
   */
  private slots: Int32Array;
  private count = 0;
  /** The empty slot where the span of the last {@link find} that missed belongs. */
  private freeSlot = 0;

  /** @param capacity entries to make room for up front (the table grows past it as needed). */
  constructor(capacity = 1024) {
    let slots = 2048;
    while (slots < capacity * 2) slots *= 2;
    this.slots = new Int32Array(slots * SLOT);
  }

  /** Bytes held by the table's arrays. */
  get bytes(): number {
    return this.chars.byteLength + this.slots.byteLength;
  }

  /** Number of spans held. */
  get size(): number {
    return this.count;
  }

  /** Code units held by the keys. */
  get keyChars(): number {
    return this.charsUsed;
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
    const slots = this.slots;
    const wrap = slots.length - 1;
    let slot = (hash << 2) & wrap;
    for (let n = slots[slot + LENGTH]; n !== 0; n = slots[slot + LENGTH]) {
      if (slots[slot + HASH] === hash && n === length && this.matches(slots[slot + START], text, start, length, lowerAscii)) return slots[slot + ID];
      slot = (slot + SLOT) & wrap;
    }
    this.freeSlot = slot;
    return ABSENT;
  }

  /**
   * {@link find} for a span of ASCII bytes (`bytes[start, end)`, A-Z read as a-z): an ASCII byte
   * is the UTF-16 code unit it decodes to, so a span finds the entry its string would. A miss is
   * recorded with {@link add} as for {@link find}, from the span's lowercased string.
   */
  findBytes(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const length = end - start;
    const slots = this.slots;
    const wrap = slots.length - 1;
    let slot = (hash << 2) & wrap;
    for (let n = slots[slot + LENGTH]; n !== 0; n = slots[slot + LENGTH]) {
      if (slots[slot + HASH] === hash && n === length && this.matchesBytes(slots[slot + START], bytes, start, length)) return slots[slot + ID];
      slot = (slot + SLOT) & wrap;
    }
    this.freeSlot = slot;
    return ABSENT;
  }

  private matchesBytes(at: number, bytes: Uint8Array, start: number, length: number): boolean {
    const chars = this.chars;
    for (let i = 0; i < length; i++) {
      let c = bytes[start + i];
      // Keys are lowercase: for a byte that is a word character or apostrophe, OR 0x20 lowercases A-Z
      // and changes nothing else (a-z, 0-9 and ' have the bit set).
      c |= 0x20;
      if (chars[at + i] !== c) return false;
    }
    return true;
  }

  private matches(at: number, text: string, start: number, length: number, lowerAscii: boolean): boolean {
    const chars = this.chars;
    for (let i = 0; i < length; i++) {
      let c = text.charCodeAt(start + i);
      if (lowerAscii && c >= 0x41 && c <= 0x5a) c |= 0x20;
      if (chars[at + i] !== c) return false;
    }
    return true;
  }

  /** Records `id` for the span the last {@link find} did not find (same arguments). */
  add(text: string, start: number, end: number, lowerAscii: boolean, hash: number, id: number): void {
    const length = end - start;
    if (this.charsUsed + length > this.chars.length) {
      const chars = new Uint16Array(Math.max(this.chars.length * 2, this.charsUsed + length));
      chars.set(this.chars);
      this.chars = chars;
    }
    const at = this.charsUsed;
    const chars = this.chars;
    for (let i = 0; i < length; i++) {
      let c = text.charCodeAt(start + i);
      if (lowerAscii && c >= 0x41 && c <= 0x5a) c |= 0x20;
      chars[at + i] = c;
    }
    this.charsUsed += length;
    const slots = this.slots;
    const slot = this.freeSlot;
    slots[slot + HASH] = hash;
    slots[slot + START] = at;
    slots[slot + LENGTH] = length;
    slots[slot + ID] = id;
    // At most half full, so probe runs stay short.
    if (++this.count * 2 * SLOT > slots.length) this.rehash(slots.length * 2);
  }

  private rehash(size: number): void {
    const old = this.slots;
    const slots = new Int32Array(size);
    const wrap = size - 1;
    for (let from = 0; from < old.length; from += SLOT) {
      if (old[from + LENGTH] === 0) continue;
      let slot = (old[from + HASH] << 2) & wrap;
      while (slots[slot + LENGTH] !== 0) slot = (slot + SLOT) & wrap;
      slots[slot + HASH] = old[from + HASH];
      slots[slot + START] = old[from + START];
      slots[slot + LENGTH] = old[from + LENGTH];
      slots[slot + ID] = old[from + ID];
    }
    this.slots = slots;
  }
}
