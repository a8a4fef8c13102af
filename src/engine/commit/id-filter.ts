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

/** An id's UTF-16 units: a string, or a term's units in the dictionary's buffer. */
interface Units {
  readonly length: number;
}

/**
 * Two independent 32-bit hashes (FNV-1a and a multiply-xorshift) of `length` UTF-16 units read by
 * `unit`, stored at `out[2i]` and `out[2i + 1]`: computed once per id, then probed against every
 * segment's filter (double hashing). Strings and dictionary terms hash alike unit by unit.
 */
function hashInto<T extends Units>(source: T, length: number, unit: (source: T, k: number) => number, out: Uint32Array, i: number): void {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let k = 0; k < length; k++) {
    const u = unit(source, k);
    h1 = Math.imul(h1 ^ u, 0x01000193);
    h2 = Math.imul(h2 ^ u, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  h2 = Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  out[2 * i] = h1 ^ (h1 >>> 16);
  // Odd, so that the probe sequence visits distinct bits.
  out[2 * i + 1] = (h2 ^ (h2 >>> 16)) | 1;
}

const stringUnit = (s: string, k: number): number => s.charCodeAt(k);
const arrayUnit = (a: Uint16Array, k: number): number => a[k];

/** The hashes of `ids`, two per id (see `hashInto`), for {@link IdFilter.mightContain}. */
export function hashIds(ids: readonly string[]): Uint32Array {
  const out = new Uint32Array(ids.length * 2);
  hashIdsInto(ids, 0, ids.length, out);
  return out;
}

/** Writes the hashes of `ids[from..to)` where {@link hashIds} puts them in `out`: the same hashes, in parts. */
export function hashIdsInto(ids: readonly string[], from: number, to: number, out: Uint32Array): void {
  for (let i = from; i < to; i++) hashInto(ids[i], ids[i].length, stringUnit, out, i);
}

/** What a filter is built from: a segment's ids, block by block (`SegmentReader`). */
export interface IdSource {
  readonly idBlocks: number;
  visitIdUnits(block: number, visit: (units: Uint16Array, length: number) => void): void;
}

/** A Bloom filter over a set of ids; see the module comment. */
export class IdFilter {
  private readonly words: Uint32Array;
  private readonly mask: number;

  /** An empty filter sized for `count` ids, or the filter whose bits are `words` ({@link IdFilter.words}). */
  constructor(count: number, words?: Uint32Array) {
    let bits = 64;
    if (words !== undefined) bits = words.length * 32;
    else while (bits < count * BITS_PER_ID) bits *= 2;
    if ((bits & (bits - 1)) !== 0 || bits < 64) throw new Error(`an id filter has a power of two of at least 64 bits, not ${bits}`);
    this.words = words ?? new Uint32Array(bits >>> 5);
    this.mask = bits - 1;
  }

  /** The filter's bits, to hand to another thread (`new IdFilter(0, words)` there). */
  get bits(): Uint32Array {
    return this.words;
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
   * The filter of every id of `source` (`count` of them at most), read straight from its term
   * dictionary without a string per id, in blocks between which `slicer` may yield.
   */
  static async build(source: IdSource, count: number, slicer: TimeSlicer): Promise<IdFilter> {
    const filter = new IdFilter(count);
    const hash = new Uint32Array(2);
    const add = (units: Uint16Array, length: number): void => {
      hashInto(units, length, arrayUnit, hash, 0);
      filter.add(hash, 0);
    };
    const blocks = source.idBlocks;
    for (let b = 0; b < blocks; b++) {
      source.visitIdUnits(b, add);
      if (slicer.due()) await slicer.yield();
    }
    return filter;
  }
}

/**
 * Collects the hashes of the ids a segment buffer takes, as it takes them, and builds the filter
 * of the segment it flushes into: the inversion thread sends it with the segment's files, so the
 * writer's event loop does not walk the new segment's ids to build it (issue 17: 20-40 ms of it at
 * each refresh of an `_index` at full speed). Sized as `IdFilter.build` sizes the segment's, it
 * holds every id that filter holds, and the ids of docs deleted within the buffer besides (extra
 * bits only cost a lookup now and then; a missing one would keep an old copy alive).
 */
export class IdFilterBuilder {
  private hashes = new Uint32Array(2 * 1024);
  private count = 0;

  /** Ids added since the last {@link build}. */
  get size(): number {
    return this.count;
  }

  /** Adds an id (every id a doc of the buffer has). */
  add(id: string): void {
    if (2 * this.count + 2 > this.hashes.length) {
      const grown = new Uint32Array(this.hashes.length * 2);
      grown.set(this.hashes);
      this.hashes = grown;
    }
    hashInto(id, id.length, stringUnit, this.hashes, this.count++);
  }

  /** Forgets the ids added so far (the buffer was dropped). */
  clear(): void {
    this.count = 0;
  }

  /** The filter of the ids added so far, sized for `count` ids; starts over empty. */
  build(count: number = this.count): IdFilter {
    const filter = new IdFilter(count);
    for (let i = 0; i < this.count; i++) filter.add(this.hashes, i);
    this.count = 0;
    return filter;
  }
}
