/**
 * An index's writer settings (the config's `indexing` section with the index's own overrides, or
 * Nixiesearch's `config.indexer` read into them) as engine writer options, shared by every mode
 * that writes.
 */
import type { IndexingConfig } from '../../config/index.js';
import type { WriterOptions } from '../../engine/index.js';

const MB = 1024 * 1024;

/**
 * Nice value of the HTTP modes' inversion and merge threads: they give way to the event loop
 * whenever it has a request to answer (on 2 cores, at the same priority they held a search up by
 * tens of milliseconds), and still use every idle cycle.
 */
const SERVER_BACKGROUND_NICE = 19;

/** Writer options for an index's `indexing` settings (buffer size, merge policy bounds, merges on/off). */
export function writerTuning(indexing: IndexingConfig): Partial<WriterOptions> {
  return {
    maxBufferBytes: Math.round(indexing.buffer_mb * MB),
    ...(indexing.merges === undefined ? {} : { merges: indexing.merges }),
    mergePolicy: {
      maxMergedSegmentBytes: Math.round(indexing.max_merged_segment_mb * MB),
      ...(indexing.segments_per_tier === undefined ? {} : { segmentsPerTier: indexing.segments_per_tier }),
      ...(indexing.max_merge_at_once === undefined ? {} : { maxMergeAtOnce: indexing.max_merge_at_once }),
      ...(indexing.floor_segment_mb === undefined ? {} : { floorSegmentBytes: Math.round(indexing.floor_segment_mb * MB) }),
    },
  };
}

/**
 * Writer options of the HTTP modes that write (`api`, `standalone`): {@link writerTuning} with an
 * inversion thread and merges on a thread of their own, so that tokenizing, inverting, encoding
 * and merging segments run off the event loop, which stays free for searches and requests while
 * `_index` runs at full speed (issue 17: search p99 while indexing within 2x of idle).
 */
export function serverWriterTuning(indexing: IndexingConfig): Partial<WriterOptions> {
  return { ...writerTuning(indexing), inversionThreads: 1, mergeThread: true, backgroundNice: SERVER_BACKGROUND_NICE };
}
