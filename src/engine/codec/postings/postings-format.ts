/**
 * Shared constants of the postings format, used by both the writer and the reader.
 *
 * What a field's postings carry depends on its index options: an `_id` field needs doc ids only,
 * a full-text field needs doc ids, term frequencies and positions (for phrase queries).
 */
export const IndexOptions = {
  /** Doc ids only (the `_id` field). */
  docs: 0,
  /** Doc ids, term frequencies and positions (analyzed text). */
  docsFreqsPositions: 2,
} as const;
export type IndexOptions = (typeof IndexOptions)[keyof typeof IndexOptions];

/** Docs per postings block: the unit of bit-packing, skipping and block-max scoring. */
export const POSTINGS_BLOCK = 128;

export const POSTINGS_MAGIC = 'YPST';
export const POSITIONS_MAGIC = 'YPOS';
/** 2: per-block impacts in the skip table (1: max frequency and min norm per block, still read). */
export const POSTINGS_VERSION = 2;

/** The format version in the header of a `.pst` (or `.pos`) file's bytes. */
export function postingsVersion(bytes: Uint8Array): number {
  // The header is the magic then the version, a little-endian uint32 (file-format.ts).
  return (bytes[4] | (bytes[5] << 8) | (bytes[6] << 16) | (bytes[7] << 24)) >>> 0;
}

/** Returned by iterators once exhausted; larger than every valid doc id. */
export const NO_MORE_DOCS = 0x7fffffff;

/** Where a term's postings are, and the per-term figures the term dictionary stores. */
export interface TermInfo {
  readonly docFreq: number;
  readonly totalTermFreq: number;
  /** Offset in `.pst`, or -1 for a singleton inlined in the term dictionary. */
  readonly postingsOffset: number;
  /** The doc id of a singleton term, else -1. */
  readonly singletonDoc: number;
  /** Offset of the term's positions in `.pos` (0 when the field has no positions). */
  readonly positionsOffset: number;
  /** Largest term frequency over all docs (1 without freqs). */
  readonly maxFreq: number;
  /** Smallest norm over all docs (0 without norms). */
  readonly minNorm: number;
}
