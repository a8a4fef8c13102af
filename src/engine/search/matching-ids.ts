/**
 * The ids of the live documents of a snapshot that pass a filter: what a delete by filter
 * (`POST /v1/index/<index>/delete`) deletes. Filters read doc values, which a write-only index's
 * id-only segment readers do not hold: such a segment is opened in full for the evaluation only.
 */
import type { SegmentReader } from '../segment/segment-reader.js';
import type { Snapshot } from '../segment/snapshot.js';
import { evaluateFilter } from './filter.js';
import type { Filter } from './filter.js';

/** Opens a segment with everything a filter reads (for readers that are not searchable). */
export type OpenFullReader = (reader: SegmentReader) => Promise<SegmentReader>;

/** Ids of the live docs of `snapshot` that `filter` accepts, in segment order. */
export async function matchingIds(snapshot: Snapshot, filter: Filter, openFull: OpenFullReader): Promise<string[]> {
  const ids: string[] = [];
  for (const view of snapshot.segments) {
    const reader = view.reader.searchable ? view.reader : await openFull(view.reader);
    const bits = evaluateFilter(filter, reader).bits;
    for (let d = 0; d < reader.maxDoc; d++) if (bits[d] === 1 && view.liveDocs.isLive(d)) ids.push(view.reader.idOf(d));
  }
  return ids;
}
