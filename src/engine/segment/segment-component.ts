/**
 * The one list of per-segment file kinds (tantivy's `segment_component.rs`): every file a segment
 * owns is named `<segment>.<extension>`, except live docs, which are versioned by a generation
 * because deletes rewrite them: `<segment>_<generation>.liv`.
 */
export const SegmentComponent = {
  /** Term dictionary with its sparse block index. */
  terms: 'tdx',
  /** Doc ids and frequencies, block-encoded, with skip data and block maxima. */
  postings: 'pst',
  /** Term positions, for phrase queries. */
  positions: 'pos',
  /** One byte per doc and text field: the quantised field length for BM25. */
  norms: 'nrm',
  /** Compressed blocks of stored documents. */
  storedFields: 'fdt',
  /** Columnar values for filtering, sorting and faceting. */
  docValues: 'dvd',
} as const;
export type SegmentComponent = (typeof SegmentComponent)[keyof typeof SegmentComponent];

/** All component kinds, in the order files are written. */
export const segmentComponents: readonly SegmentComponent[] = Object.values(SegmentComponent);

/** File name of one component of a segment. */
export function componentFile(segment: string, component: SegmentComponent): string {
  return `${segment}.${component}`;
}

/** File name of a segment's live docs at a deletion generation. */
export function liveDocsFile(segment: string, generation: number): string {
  return `${segment}_${generation}.liv`;
}

/** Segment names are `seg-<n>` with n in base 36, so they sort by creation within a width. */
export function segmentName(id: number): string {
  return `seg-${id.toString(36).padStart(6, '0')}`;
}
