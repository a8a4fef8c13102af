/**
 * The config's `indexing` section as engine writer options, shared by every mode that writes.
 */
import type { IndexingConfig } from '../../config/index.js';
import type { WriterOptions } from '../../engine/index.js';

const MB = 1024 * 1024;

/** Writer options for the config's `indexing` section (buffer size and largest merged segment). */
export function writerTuning(indexing: IndexingConfig): Partial<WriterOptions> {
  return {
    maxBufferBytes: indexing.buffer_mb * MB,
    mergePolicy: { maxMergedSegmentBytes: indexing.max_merged_segment_mb * MB },
  };
}
