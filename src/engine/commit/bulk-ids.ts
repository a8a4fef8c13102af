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
  /** Its ids' hashes, when computed ahead of {@link resolveBuiltIds} (else it computes them). */
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
  const live = segments.map((s) => {
    const docs = LiveDocs.allLive(s.info.maxDoc);
    for (const d of s.deletedDocs) docs.delete(d);
    return docs;
  });
  if (segments.length < 2) return live;
  // Only ids whose hash repeats can repeat: the map of strings below sees those alone.
  const hashed = segments.map((segment) => segment.idHashes ?? hashBuiltIds(segment));
  const hashes = hashed.map((h) => h.hashes);
  const repeated = repeatedValues(hashed.map((h) => h.sorted));
  if (repeated.size === 0) return live;
  // Segment and doc of each id's surviving copy so far, packed as segment * 2^32 + doc.
  const winner = new Map<string, number>();
  const TWO_32 = 2 ** 32;
  segments.forEach((segment, s) => {
    for (let doc = 0; doc < segment.info.maxDoc; doc++) {
      if (!repeated.has(hashes[s][doc]) || !live[s].isLive(doc)) continue;
      const id = builtId(segment, doc);
      const previous = winner.get(id);
      if (previous === undefined) {
        winner.set(id, s * TWO_32 + doc);
        continue;
      }
      const ps = Math.floor(previous / TWO_32);
      const pd = previous % TWO_32;
      if (segments[ps].lines[pd] > segment.lines[doc]) {
        live[s].delete(doc);
      } else {
        live[ps].delete(pd);
        winner.set(id, s * TWO_32 + doc);
      }
    }
  });
  return live;
}

/** A segment's id hashes, by doc and sorted: what {@link resolveBuiltIds} compares across segments. */
export interface BuiltIdHashes {
  /** FNV-1a of each doc's id. */
  readonly hashes: Uint32Array;
  /** The same, sorted. */
  readonly sorted: Uint32Array;
}

/**
 * The id hashes of `segment`. A bulk load has them ahead: each thread hashes its ids as it buffers
 * them ({@link hashId} in `BulkBuffer`) and sends them sorted with the segment, so that resolving
 * the ids at the end costs only a merge (issue 17: on npm's 227k ids, hashing and sorting them all
 * at the end was ~40 ms of the load's tail); this computes the same from the ids.
 */
export function hashBuiltIds(segment: Pick<BuiltIds, 'idText' | 'idEnds'>): BuiltIdHashes {
  const { idText, idEnds } = segment;
  const hashes = new Uint32Array(idEnds.length);
  let start = 0;
  for (let d = 0; d < idEnds.length; d++) {
    hashes[d] = hashId(idText, start, idEnds[d]);
    start = idEnds[d];
  }
  return { hashes, sorted: hashes.slice().sort() };
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

/** The values that occur more than once across `sorted` (each array sorted). */
function repeatedValues(sorted: readonly Uint32Array[]): Set<number> {
  // Merged pairwise, as in a merge sort: n log(segments) steps.
  let runs = [...sorted];
  while (runs.length > 1) {
    const next: Uint32Array[] = [];
    for (let i = 0; i + 1 < runs.length; i += 2) next.push(mergeSorted(runs[i], runs[i + 1]));
    if (runs.length % 2 === 1) next.push(runs[runs.length - 1]);
    runs = next;
  }
  const all = runs[0] ?? new Uint32Array(0);
  const repeated = new Set<number>();
  for (let i = 1; i < all.length; i++) if (all[i] === all[i - 1]) repeated.add(all[i]);
  return repeated;
}

/** The values of sorted `a` and `b`, sorted. */
function mergeSorted(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
  while (i < a.length) out[k++] = a[i++];
  while (j < b.length) out[k++] = b[j++];
  return out;
}

/** Every live id of `segments`. */
export function* liveBuiltIds(segments: readonly BuiltIds[], live: readonly LiveDocs[]): Generator<string> {
  for (const [s, segment] of segments.entries()) {
    for (let doc = 0; doc < segment.info.maxDoc; doc++) if (live[s].isLive(doc)) yield builtId(segment, doc);
  }
}
