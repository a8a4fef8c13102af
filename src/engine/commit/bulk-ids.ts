/**
 * Which copy of an id survives among the segments of one bulk load: chunks go to whichever thread
 * is free, so the copies of an id may sit in several segments in any order; the copy from the
 * latest input line wins, as it would had the lines been upserted one by one.
 */
import { LiveDocs } from '../codec/live-docs/live-docs.js';
import type { BuiltSegment } from './bulk-load.js';

/** The id of doc `doc` of `segment`. */
export function builtId(segment: BuiltSegment, doc: number): string {
  return segment.idText.slice(doc === 0 ? 0 : segment.idEnds[doc - 1], segment.idEnds[doc]);
}

/**
 * The live docs of each of `segments` (in their order): a doc is deleted when replaced inside its
 * segment or when another segment holds its id from a later line.
 */
export function resolveBuiltIds(segments: readonly BuiltSegment[]): LiveDocs[] {
  const live = segments.map((s) => {
    const docs = LiveDocs.allLive(s.info.maxDoc);
    for (const d of s.deletedDocs) docs.delete(d);
    return docs;
  });
  if (segments.length < 2) return live;
  // Only ids whose hash repeats can repeat: the map of strings below sees those alone.
  const hashes = segments.map((segment) => idHashes(segment));
  const repeated = repeatedValues(hashes);
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

/** FNV-1a of each doc's id. */
function idHashes(segment: BuiltSegment): Uint32Array {
  const { idText, idEnds } = segment;
  const out = new Uint32Array(idEnds.length);
  let start = 0;
  for (let d = 0; d < idEnds.length; d++) {
    let h = 0x811c9dc5;
    for (let i = start; i < idEnds[d]; i++) h = Math.imul(h ^ idText.charCodeAt(i), 0x01000193);
    out[d] = h >>> 0;
    start = idEnds[d];
  }
  return out;
}

/** The values that occur more than once across `arrays`. */
function repeatedValues(arrays: readonly Uint32Array[]): Set<number> {
  const all = new Uint32Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    all.set(a, at);
    at += a.length;
  }
  all.sort();
  const repeated = new Set<number>();
  for (let i = 1; i < all.length; i++) if (all[i] === all[i - 1]) repeated.add(all[i]);
  return repeated;
}

/** Every live id of `segments`. */
export function* liveBuiltIds(segments: readonly BuiltSegment[], live: readonly LiveDocs[]): Generator<string> {
  for (const [s, segment] of segments.entries()) {
    for (let doc = 0; doc < segment.info.maxDoc; doc++) if (live[s].isLive(doc)) yield builtId(segment, doc);
  }
}
