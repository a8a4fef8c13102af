/**
 * The one list of per-segment file kinds (tantivy's `segment_component.rs`): every file a segment
 * owns is named `<segment>.<extension>`, except live docs, which are versioned by a generation
 * because deletes rewrite them: `<segment>_<generation>.liv`. Every file kind of an index, these
 * included, is listed in `engine/index-files.ts`.
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

/**
 * The two files of a segment's vector field number `ordinal` (its place in `SegmentInfo.vectorFields`):
 * the vectors (`Yvec`) and the HNSW graph (`Yhnw`). Numbered rather than named after the field,
 * so any field name gives a valid file name.
 */
export function vectorFieldFiles(segment: string, ordinal: number): { readonly vectors: string; readonly graph: string } {
  return { vectors: `${segment}.${ordinal}.vec`, graph: `${segment}.${ordinal}.hnsw` };
}

/** Segment names are `seg-<n>` with n in base 36, so they sort by creation within a width. */
export function segmentName(id: number): string {
  return `seg-${id.toString(36).padStart(6, '0')}`;
}
