/**
 * What the manifest records of one segment: enough to open it, verify it and compute
 * collection statistics for scoring without touching its files.
 */

/** A file of the index with the figures used to verify it. */
export interface FileInfo {
  readonly name: string;
  readonly size: number;
  /**
   * The CRC-32 the file's footer records (its content checksum), checked at open so that a name is
   * tied to its content. Null in a manifest of format 1, which recorded the CRC of the whole file
   * (the same constant for every intact file); such files are still checked against their footer.
   */
  readonly crc32: number | null;
}

/** Per full-text field statistics of a segment (deleted docs included, as in Lucene). */
export interface FieldStats {
  /** Docs that have at least one token in the field. */
  readonly docCount: number;
  /** Sum of the field lengths (in tokens) over those docs. */
  readonly sumTotalTermFreq: number;
}

/**
 * A vector field of a segment (`search.semantic`): its files are `vectorFieldFiles(segment, i)` for
 * its place `i` in {@link SegmentInfo.vectorFields}; the HNSW parameters are recorded so that a
 * merge rebuilds the graph the same way without the mapping.
 */
export interface VectorFieldInfo {
  readonly field: string;
  readonly dim: number;
  /** HNSW links per node. */
  readonly m: number;
  /** HNSW beam width while building. */
  readonly efConstruction: number;
}

/** A segment as recorded in a manifest. */
export interface SegmentInfo {
  readonly name: string;
  /** Number of docs in the segment, deleted included: doc ids run from 0 to maxDoc - 1. */
  readonly maxDoc: number;
  /** The segment's immutable component files. */
  readonly files: readonly FileInfo[];
  readonly fieldStats: Readonly<Partial<Record<string, FieldStats>>>;
  /** Live docs file of the current deletion generation, or null when no doc is deleted. */
  readonly liveDocs: FileInfo | null;
  readonly deletedCount: number;
  /** Vector fields, when the segment has any (their files are listed in `files` too). */
  readonly vectorFields?: readonly VectorFieldInfo[];
}

/** Every file a segment info references. */
export function segmentFiles(info: SegmentInfo): string[] {
  const names = info.files.map((f) => f.name);
  if (info.liveDocs !== null) names.push(info.liveDocs.name);
  return names;
}

/** Size in bytes of a segment's files. */
export function segmentBytes(info: SegmentInfo): number {
  let size = info.liveDocs?.size ?? 0;
  for (const f of info.files) size += f.size;
  return size;
}
