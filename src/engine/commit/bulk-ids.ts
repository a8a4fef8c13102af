/**
 * Which copy of an id survives among the segments of one bulk load: chunks go to whichever thread
 * is free, so the copies of an id may sit in several segments in any order; the copy from the
 * latest input line wins, as it would had the lines been upserted one by one.
 */
import { LiveDocs } from '../codec/live-docs/live-docs.js';

/** What resolving ids needs of a segment a bulk load built (`BuiltSegment` of bulk-load.ts). */
export interface BuiltIds {
  readonly info: { readonly maxDoc: number };
  /** Docs replaced inside the segment by a later line of the same id. */
  readonly deletedDocs: readonly number[];
  /** The input line of each doc. */
  readonly lines: Int32Array;
  /** Every doc's id, concatenated; doc `d`'s id ends at `idEnds[d]`. */
  readonly idText: string;
  readonly idEnds: Uint32Array;
  /** Its ids' hashes, when computed ahead of {@link BuiltIdResolver.add} (else it computes them). */
  readonly idHashes?: BuiltIdHashes;
}

/** The id of doc `doc` of `segment`. */
export function builtId(segment: BuiltIds, doc: number): string {
  return segment.idText.slice(doc === 0 ? 0 : segment.idEnds[doc - 1], segment.idEnds[doc]);
}

/**
 * The live docs of each of `segments` (in their order): a doc is deleted when replaced inside its
 * segment or when another segment holds its id from a later line.
 */
export function resolveBuiltIds(segments: readonly BuiltIds[]): LiveDocs[] {
  const ids = new BuiltIdResolver();
  for (const segment of segments) ids.add(segment);
  return ids.resolve(segments);
}

/** Fibonacci hashing's multiplier (2^32 / the golden ratio): spreads an id hash over a table's slots by its high bits. */
const SPREAD = 0x9e3779b1;

/** The fill of {@link BuiltIdResolver}'s table above which it grows. */
const MAX_LOAD = 0.75;

/**
 * {@link resolveBuiltIds} as a bulk load's segments arrive: {@link add} files each segment's id
 * hashes in a table of every hash seen so far and notes the docs whose hash was seen before, so
 * that {@link resolve} only compares the ids of those. A bulk load's main thread adds each segment
 * as it is flushed, while the threads still index (it is ~80% idle then), and the tail after the
 * last flush files only the last segments' hashes and resolves the few repeats (issue 17: merging
 * every segment's sorted hashes after the last flush was ~45 ms of `index file`'s tail on npm).
 *
 * Docs are numbered across segments in the order they were added (an ordinal); the table holds
 * each distinct hash once, with the ordinal of its first doc.
 */
export class BuiltIdResolver {
  private readonly segments: BuiltIds[] = [];
  /** The ordinal of each segment's first doc. */
  private readonly bases: number[] = [];
  private docs = 0;
  /** log2 of the table's size (0: no table yet). */
  private bits = 0;
  /** Each slot's hash. */
  private slotHash = new Uint32Array(0);
  /** Each slot's first doc, as 1 + its ordinal; 0: an empty slot. */
  private slotDoc = new Uint32Array(0);
  /** Distinct hashes in the table. */
  private used = 0;
  /** Every hash seen more than once -> the ordinals of all its docs, in the order added. */
  private readonly repeats = new Map<number, number[]>();

  /**
   * Adds `segment`, the next segment of the load, and files its id hashes (computed here when it
   * has none). A first segment's are filed only when a second comes: the copies of an id inside
   * one segment are resolved by its `deletedDocs`, so a load of one segment files nothing.
   */
  add(segment: BuiltIds): void {
    this.segments.push(segment);
    this.bases.push(this.docs);
    this.docs += segment.info.maxDoc;
    if (this.segments.length === 2) this.file(0);
    if (this.segments.length >= 2) this.file(this.segments.length - 1);
  }

  /** Files the id hashes of segment `s`. */
  private file(s: number): void {
    const segment = this.segments[s];
    const { hashes } = segment.idHashes ?? hashBuiltIds(segment);
    const base = this.bases[s];
    // Room for two more segments of this size too: the threads' last flushes arrive together, and
    // a table that grew then would rehash every hash on the load's tail.
    this.reserve(this.used + 3 * hashes.length);
    for (let d = 0; d < hashes.length; d++) this.insert(hashes[d], base + d);
  }

  /**
   * The live docs of each segment added, in the order added: of the copies of an id, the one from
   * the latest line. `segments` must be those added, in that order (checked).
   */
  resolve(segments: readonly BuiltIds[]): LiveDocs[] {
    if (segments.length !== this.segments.length || segments.some((s, i) => s !== this.segments[i])) {
      throw new Error('resolving ids of other segments than those added');
    }
    const live = segments.map((s) => {
      const docs = LiveDocs.allLive(s.info.maxDoc);
      for (const d of s.deletedDocs) docs.delete(d);
      return docs;
    });
    // The docs sharing a hash: the latest line wins among those of the same id (different ids may share a hash).
    for (const ordinals of this.repeats.values()) {
      const winner = new Map<string, { s: number; doc: number }>();
      for (const ordinal of ordinals) {
        const s = this.segmentOf(ordinal);
        const doc = ordinal - this.bases[s];
        if (!live[s].isLive(doc)) continue;
        const id = builtId(segments[s], doc);
        const previous = winner.get(id);
        if (previous === undefined) {
          winner.set(id, { s, doc });
        } else if (segments[previous.s].lines[previous.doc] > segments[s].lines[doc]) {
          live[s].delete(doc);
        } else {
          live[previous.s].delete(previous.doc);
          winner.set(id, { s, doc });
        }
      }
    }
    return live;
  }

  /** Files `hash` of the doc `ordinal`: a new slot, or a repeat of the hash's first doc. */
  private insert(hash: number, ordinal: number): void {
    const mask = (1 << this.bits) - 1;
    for (let i = Math.imul(hash, SPREAD) >>> (32 - this.bits); ; i = (i + 1) & mask) {
      const first = this.slotDoc[i];
      if (first === 0) {
        this.slotHash[i] = hash;
        this.slotDoc[i] = ordinal + 1;
        this.used++;
        return;
      }
      if (this.slotHash[i] === hash) {
        const ordinals = this.repeats.get(hash);
        if (ordinals === undefined) this.repeats.set(hash, [first - 1, ordinal]);
        else ordinals.push(ordinal);
        return;
      }
    }
  }

  /** Grows the table, if need be, so that `distinct` hashes fill at most {@link MAX_LOAD} of it. */
  private reserve(distinct: number): void {
    if (this.bits > 0 && distinct <= (1 << this.bits) * MAX_LOAD) return;
    let bits = Math.max(10, this.bits);
    while ((2 ** bits) * MAX_LOAD < distinct) bits++;
    if (bits === this.bits) return;
    const [hashes, docs] = [this.slotHash, this.slotDoc];
    this.bits = bits;
    this.slotHash = new Uint32Array(1 << bits);
    this.slotDoc = new Uint32Array(1 << bits);
    this.used = 0;
    for (let i = 0; i < docs.length; i++) if (docs[i] !== 0) this.insert(hashes[i], docs[i] - 1);
  }

  /** The segment holding doc `ordinal`: the last whose first doc is at or before it. */
  private segmentOf(ordinal: number): number {
    let lo = 0;
    let hi = this.bases.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.bases[mid] <= ordinal) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** A segment's id hashes, by doc: what {@link BuiltIdResolver} files. */
export interface BuiltIdHashes {
  /** FNV-1a of each doc's id. */
  readonly hashes: Uint32Array;
}

/**
 * The id hashes of `segment`. A bulk load has them ahead: each thread hashes its ids as it buffers
 * them ({@link hashId} in `BulkBuffer`) and sends them with the segment, so that the main thread
 * only files them (issue 17: on npm's 227k ids, hashing and sorting them all at the end was ~40 ms
 * of the load's tail; the threads no longer sort them either, ~3-5 ms a flush); this computes the
 * same from the ids.
 */
export function hashBuiltIds(segment: Pick<BuiltIds, 'idText' | 'idEnds'>): BuiltIdHashes {
  const { idText, idEnds } = segment;
  const hashes = new Uint32Array(idEnds.length);
  let start = 0;
  for (let d = 0; d < idEnds.length; d++) {
    hashes[d] = hashId(idText, start, idEnds[d]);
    start = idEnds[d];
  }
  return { hashes };
}

/**
 * The hash {@link BuiltIdHashes} holds of the id `text.slice(start, end)`: FNV-1a of its UTF-16
 * code units. A bulk-load thread hashes each id as it buffers the doc (`BulkBuffer`), so that the
 * main thread neither hashes nor sorts them (issue 17: ~80 ms of its CPU on npm under load, next
 * to the two threads it shares the cores with).
 */
export function hashId(text: string, start = 0, end = text.length): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Every live id of `segments`. */
export function* liveBuiltIds(segments: readonly BuiltIds[], live: readonly LiveDocs[]): Generator<string> {
  for (const [s, segment] of segments.entries()) {
    for (let doc = 0; doc < segment.info.maxDoc; doc++) if (live[s].isLive(doc)) yield builtId(segment, doc);
  }
}
