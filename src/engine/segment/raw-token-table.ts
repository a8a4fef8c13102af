/**
 * Raw tokens to term ids, interned from the analyzed text's characters: an open-addressing hash
 * table over typed arrays whose keys are copies of the tokens' UTF-16 code units. The tokenizer
 * hashes each span while it scans, so a token seen before costs one pass to compare it, with no
 * string made and nothing allocated; only a new token is sliced into a string (for the analyzer's
 * filters).
 */

/** Maps token spans (optionally ASCII-lowercased as they are read) to ids. */
export class RawTokenTable {
  /** Every key's code units, back to back. */
  private chars = new Uint16Array(1 << 15);
  private charsUsed = 0;
  /** Per entry: where its code units start, how many, its hash and its id. */
  private starts = new Int32Array(1024);
  private lengths = new Int32Array(1024);
  private hashes = new Int32Array(1024);
  private ids = new Int32Array(1024);
  private count = 0;
  /** Open addressing, linear probing: entry index + 1, 0 for an empty slot. */
  private slots = new Int32Array(2048);

  /** Bytes held by the table's arrays. */
  get bytes(): number {
    return this.chars.byteLength + this.starts.length * 16 + this.slots.byteLength;
  }

  /**
   * The id of `text[start, end)` (A-Z read as a-z when `lowerAscii`), or, for a span not seen
   * before, `resolve(start, end)`'s, which is recorded for it. `hash` is the span's `hashSpan`
   * (analysis/span-hash.ts), which the tokenizer computes while scanning.
   */
  lookup(text: string, start: number, end: number, lowerAscii: boolean, hash: number, resolve: (start: number, end: number) => number): number {
    const length = end - start;
    const mask = this.slots.length - 1;
    const chars = this.chars;
    let slot = hash & mask;
    for (let entry = this.slots[slot]; entry !== 0; entry = this.slots[slot]) {
      const e = entry - 1;
      if (this.hashes[e] === hash && this.lengths[e] === length && this.matches(chars, this.starts[e], text, start, length, lowerAscii)) return this.ids[e];
      slot = (slot + 1) & mask;
    }
    const id = resolve(start, end);
    this.insert(text, start, length, lowerAscii, hash, id, slot);
    return id;
  }

  private matches(chars: Uint16Array, at: number, text: string, start: number, length: number, lowerAscii: boolean): boolean {
    for (let i = 0; i < length; i++) {
      let c = text.charCodeAt(start + i);
      if (lowerAscii && c >= 0x41 && c <= 0x5a) c |= 0x20;
      if (chars[at + i] !== c) return false;
    }
    return true;
  }

  private insert(text: string, start: number, length: number, lowerAscii: boolean, hash: number, id: number, slot: number): void {
    const e = this.count++;
    if (e >= this.ids.length) {
      const n = this.ids.length * 2;
      this.starts = grown(this.starts, n);
      this.lengths = grown(this.lengths, n);
      this.hashes = grown(this.hashes, n);
      this.ids = grown(this.ids, n);
    }
    if (this.charsUsed + length > this.chars.length) {
      const chars = new Uint16Array(Math.max(this.chars.length * 2, this.charsUsed + length));
      chars.set(this.chars);
      this.chars = chars;
    }
    const at = this.charsUsed;
    for (let i = 0; i < length; i++) {
      let c = text.charCodeAt(start + i);
      if (lowerAscii && c >= 0x41 && c <= 0x5a) c |= 0x20;
      this.chars[at + i] = c;
    }
    this.charsUsed += length;
    this.starts[e] = at;
    this.lengths[e] = length;
    this.hashes[e] = hash;
    this.ids[e] = id;
    this.slots[slot] = e + 1;
    // At most half full, so probe runs stay short.
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
  }

  private rehash(size: number): void {
    const slots = new Int32Array(size);
    const mask = size - 1;
    for (let e = 0; e < this.count; e++) {
      let slot = this.hashes[e] & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = e + 1;
    }
    this.slots = slots;
  }
}

function grown(a: Int32Array, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}
