/**
 * The suggestions phase of a merge: the sources' candidates are merged key by key, their docs
 * renumbered by the merge's doc maps, deleted docs dropped, and a candidate left with no live doc
 * dropped, so a merged segment suggests only what its live documents hold.
 */
import { decodeSuggestions } from '../codec/suggestions/suggestions-reader.js';
import type { SuggestionField, SuggestionFields } from '../codec/suggestions/suggestions-reader.js';
import { compareCodePoints, SuggestionsWriter } from '../codec/suggestions/suggestions-writer.js';
import type { TimeSlicer } from '../event-loop.js';
import { OptionalSegmentComponent } from '../segment/segment-component.js';
import type { SegmentReader } from '../segment/segment-reader.js';

/** The decoded suggestions of a segment, or undefined when it has none (read lazily, then kept). */
export function segmentSuggestions(reader: SegmentReader): Promise<SuggestionFields | undefined> {
  return reader.optional(OptionalSegmentComponent.suggestions, decodeSuggestions);
}

/**
 * Merges the suggestions of `sources` (in merge order; `docMaps[i][d]` is the new id of doc `d`
 * of source `i`, -1 when dropped). Returns the `.sgt` file, or null when no candidate survives.
 */
export async function mergeSuggestions(
  sources: readonly SegmentReader[],
  docMaps: readonly Int32Array[],
  slicer: TimeSlicer,
): Promise<Uint8Array | null> {
  const decoded = await Promise.all(sources.map(segmentSuggestions));
  const names = new Set<string>();
  for (const d of decoded) if (d !== undefined) for (const name of d.keys()) names.add(name);
  if (names.size === 0) return null;
  const writer = new SuggestionsWriter();
  const docs: number[] = [];
  for (const name of [...names].sort()) {
    writer.startField(name);
    const fields: (SuggestionField | undefined)[] = decoded.map((d) => d?.get(name));
    const heads = fields.map(() => 0);
    // The key at each source's head (undefined once the source is done).
    const headKeys = fields.map((f) => (f !== undefined && f.size > 0 ? f.key(0) : undefined));
    while (true) {
      if (slicer.due()) await slicer.yield();
      let key: string | undefined;
      for (const k of headKeys) if (k !== undefined && (key === undefined || compareCodePoints(k, key) < 0)) key = k;
      if (key === undefined) break;
      docs.length = 0;
      let display: string | undefined;
      for (let s = 0; s < fields.length; s++) {
        const f = fields[s];
        if (f === undefined || headKeys[s] !== key) continue;
        const i = heads[s]++;
        headKeys[s] = heads[s] < f.size ? f.key(heads[s]) : undefined;
        const map = docMaps[s];
        // Sources are renumbered in order, so appending source by source keeps docs ascending.
        for (const d of f.docs(i)) {
          const nd = map[d];
          if (nd < 0) continue;
          docs.push(nd);
          display ??= f.display(i);
        }
      }
      if (display !== undefined) writer.add(key, display, docs);
    }
  }
  return writer.size === 0 ? null : writer.finish();
}
