/**
 * Per-segment id membership filters (Bloom filters) for the refresh's delete-by-id pass.
 *
 * At each refresh the writer deletes the older copies of every id the new batch touched, which
 * took one term-dictionary lookup per id and older segment: after a large `_index` batch, tens of
 * thousands of lookups per segment, nearly all misses, on the event loop while searches wait
 * (issue 17: runs of 46-119 ms). A filter answers "certainly not here" for all but ~1% of those
 * misses with a few bit tests, so only the likely hits pay a lookup.
 *
 * A filter is built from the segment's own `_id` terms (not from the batch that wrote it), so it
 * holds every id the segment has: it never answers "absent" for a present id, which keeps deletes
 * exact. Segment files never change, so a filter stays valid for the segment's life; building one
 * costs a walk over the segment's ids, once, in the time slices of the job that first needs it.
 */
import type { TimeSlicer } from '../event-loop.js';

/** Bits per id, at least (the size rounds up to a power of two): ~1% false positives with {@link PROBES}. */
const BITS_PER_ID = 10;
/** Bit positions tested per id. */
const PROBES = 7;

/**
 * Two independent 32-bit hashes of each id (FNV-1a and a multiply-xorshift), at `2i` and `2i + 1`:
 * computed once per batch, then probed against every segment's filter (double hashing).
 */
export function hashIds(ids: readonly string[]): Uint32Array {
  const out = new Uint32Array(ids.length * 2);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    let h1 = 0x811c9dc5;
    let h2 = 0x9747b28c;
    for (let c = 0; c < id.length; c++) {
      const unit = id.charCodeAt(c);
      h1 = Math.imul(h1 ^ unit, 0x01000193);
      h2 = Math.imul(h2 ^ unit, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    h2 = Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
    out[2 * i] = h1 ^ (h1 >>> 16);
    // Odd, so that the probe sequence visits distinct bits.
    out[2 * i + 1] = (h2 ^ (h2 >>> 16)) | 1;
  }
  return out;
}

/** A Bloom filter over a set of ids; see the module comment. */
export class IdFilter {
  private readonly words: Uint32Array;
  private readonly mask: number;

  /** An empty filter sized for `count` ids. */
  constructor(count: number) {
    let bits = 64;
    while (bits < count * BITS_PER_ID) bits *= 2;
    this.words = new Uint32Array(bits >>> 5);
    this.mask = bits - 1;
  }

  /** Adds the id whose hashes are at `hashes[2i]`, `hashes[2i + 1]` ({@link hashIds}). */
  add(hashes: Uint32Array, i: number): void {
    const h2 = hashes[2 * i + 1];
    let h = hashes[2 * i];
    for (let p = 0; p < PROBES; p++) {
      const bit = h & this.mask;
      this.words[bit >>> 5] |= 1 << (bit & 31);
      h = (h + h2) >>> 0;
    }
  }

  /** False when the id at `i` of `hashes` is certainly not in the set; true when it may be. */
  mightContain(hashes: Uint32Array, i: number): boolean {
    const h2 = hashes[2 * i + 1];
    let h = hashes[2 * i];
    for (let p = 0; p < PROBES; p++) {
      const bit = h & this.mask;
      if ((this.words[bit >>> 5] & (1 << (bit & 31))) === 0) return false;
      h = (h + h2) >>> 0;
    }
    return true;
  }

  /**
   * The filter of `ids` (all of a segment's, `count` of them at most), hashed in batches between
   * which `slicer` may yield to the event loop.
   */
  static async build(ids: Iterable<string>, count: number, slicer: TimeSlicer): Promise<IdFilter> {
    const filter = new IdFilter(count);
    const batch: string[] = [];
    const addBatch = (): void => {
      const hashes = hashIds(batch);
      for (let i = 0; i < batch.length; i++) filter.add(hashes, i);
      batch.length = 0;
    };
    for (const id of ids) {
      batch.push(id);
      if (batch.length === 256) {
        addBatch();
        if (slicer.due()) await slicer.yield();
      }
    }
    addBatch();
    return filter;
  }
}
