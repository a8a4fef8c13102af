/**
 * The write path's tuning and the shapes that cross its boundary: what a batch looks like once
 * validated and serialised, and what a commit reports.
 */
import type { ValidDocument } from '../schema/document.js';
import { SegmentLoad } from '../segment/segment-reader.js';
import type { MergePolicyOptions } from './merge-policy.js';

/** Tuning of the write path. */
export interface WriterOptions {
  /** Flush the buffer to a segment when its estimated heap use exceeds this. */
  readonly maxBufferBytes: number;
  /** Commit on its own when the WAL grows past this many bytes. */
  readonly maxWalBytes: number;
  /** Merge segments in the background. */
  readonly merges: boolean;
  readonly mergePolicy: Partial<MergePolicyOptions>;
  /**
   * What the writer's segment readers load: `full` for an index that is also searched, `ids` for a
   * write-only process (memory stays at a few bytes per id; a merge loads its sources phase by phase).
   */
  readonly segmentLoad: SegmentLoad;
  /**
   * Threads that invert buffered documents (0: this thread). With 1, tokenizing, inverting and
   * encoding segments run on a worker thread while this one parses, validates and logs.
   */
  readonly inversionThreads: number;
  /**
   * Run each merge on a worker thread of its own (`merge-thread.ts`), which reads the sources and
   * encodes the merged segment while this thread only does the I/O: for processes that answer
   * requests while they index (`api`, `standalone`).
   */
  readonly mergeThread: boolean;
  /**
   * Nice value (0-19, Linux) of the inversion and merge threads: above 0 they yield the CPU to
   * the thread that answers requests whenever it is runnable, so indexing at full speed on a
   * machine with few cores does not hold up searches; they still take every idle cycle. 0 leaves
   * them at the process's priority.
   */
  readonly backgroundNice: number;
}

export const defaultWriterOptions: WriterOptions = {
  maxBufferBytes: 64 * 1024 * 1024,
  maxWalBytes: 256 * 1024 * 1024,
  merges: true,
  mergePolicy: {},
  segmentLoad: SegmentLoad.full,
  inversionThreads: 0,
  mergeThread: false,
  backgroundNice: 0,
};

/** A validated document ready for the writer, serialised once for both the WAL and stored fields. */
export interface PreparedDocument {
  readonly doc: ValidDocument;
  readonly id: string;
  /** JSON of the stored fields (with `_id`). */
  readonly storedJson: string;
  /** The upsert as the WAL logs it: its validated form (see `walUpsertJson`). */
  readonly walJson: string;
}

/** What a commit produced. */
export interface CommitResult {
  readonly seq: number;
  readonly files: readonly string[];
}

