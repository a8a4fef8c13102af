/**
 * A point-in-time view of the index: the segments of one refresh or commit with the live docs
 * they had then. Searches run on a snapshot; it is reference-counted so that files a running query
 * reads are never deleted under it, however many commits and merges happen meanwhile. It holds its
 * segment readers too ({@link SegmentReader.retain}): when the last snapshot that contains a segment
 * closes, the segment's open files are closed, not left to the garbage collector.
 */
import type { LiveDocs } from '../codec/live-docs/live-docs.js';
import type { FieldStats } from './segment-info.js';
import type { SegmentReader } from './segment-reader.js';

/** One segment as a snapshot sees it. */
export interface SegmentView {
  readonly reader: SegmentReader;
  readonly liveDocs: LiveDocs;
  /** Added to the segment's doc ids to get global doc numbers (for ordering ties). */
  readonly docBase: number;
}

/** Immutable set of segment views with a reference count. */
export class Snapshot {
  readonly segments: readonly SegmentView[];
  readonly maxDoc: number;
  private refs = 1;

  /**
   * @param generation increases with every refresh, commit and merge that changes the view
   * @param onClose called once when the last reference is released
   */
  constructor(
    readonly generation: number,
    segments: readonly { reader: SegmentReader; liveDocs: LiveDocs }[],
    private readonly onClose: (snapshot: Snapshot) => void,
  ) {
    let base = 0;
    this.segments = segments.map((s) => {
      const view = { reader: s.reader, liveDocs: s.liveDocs, docBase: base };
      base += s.reader.maxDoc;
      return view;
    });
    this.maxDoc = base;
    const held: SegmentReader[] = [];
    try {
      for (const view of this.segments) held.push(view.reader.retain());
    } catch (e) {
      for (const reader of held) reader.release();
      throw e;
    }
  }

  /** Live docs over all segments. */
  get liveCount(): number {
    let n = 0;
    for (const s of this.segments) n += s.liveDocs.liveCount;
    return n;
  }

  /** Takes a reference; pair with {@link Snapshot.release}. */
  acquire(): this {
    if (this.refs <= 0) throw new Error('snapshot already closed');
    this.refs++;
    return this;
  }

  /**
   * Drops a reference; the last one closes the snapshot: it releases its segment readers (closing
   * the files of segments no other snapshot holds), then calls `onClose`.
   */
  release(): void {
    // A release after the last one changes nothing (the readers were released once).
    if (this.refs <= 0 || --this.refs > 0) return;
    for (const view of this.segments) view.reader.release();
    this.onClose(this);
  }

  /** Collection statistics of a full-text field over every segment (deleted docs included). */
  fieldStats(field: string): FieldStats {
    let docCount = 0;
    let sumTotalTermFreq = 0;
    for (const s of this.segments) {
      const st = s.reader.info.fieldStats[field];
      if (st === undefined) continue;
      docCount += st.docCount;
      sumTotalTermFreq += st.sumTotalTermFreq;
    }
    return { docCount, sumTotalTermFreq };
  }

  /** Document frequency of a term over every segment. */
  docFreq(field: string, term: string): number {
    let df = 0;
    for (const s of this.segments) df += s.reader.termInfo(field, term)?.docFreq ?? 0;
    return df;
  }
}
