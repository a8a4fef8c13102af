import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serverWriterTuning, writerTuning } from '../../../src/cli/modes/writer-tuning.js';
import { indexingOf, parseConfig } from '../../../src/config/index.js';

const MB = 1024 * 1024;

describe('writerTuning', () => {
  it('turns Nixiesearch\'s config.indexer into writer options', () => {
    const text = `schema:
  a:
    config:
      indexer:
        ramBufferSize: 8mb
        merge_policy: { tiered: { segments_per_tier: 4, max_merge_at_once: 3, max_merged_segment_size: 1gb, floor_segment_size: 512kb } }
    fields: {}
  b:
    config: { indexer: { merge_policy: { byte_size: { max_merge_size: 256mb, min_merge_size: 1mb } } } }
    fields: {}
  c:
    config: { indexer: { merge_policy: none } }
    fields: {}
`;
    const { config } = parseConfig(text, 'c.yml', {});
    assert.deepEqual(writerTuning(indexingOf(config, 'a')), {
      maxBufferBytes: 8 * MB,
      mergePolicy: { maxMergedSegmentBytes: 1024 * MB, segmentsPerTier: 4, maxMergeAtOnce: 3, floorSegmentBytes: 512 * 1024 },
    });
    assert.deepEqual(writerTuning(indexingOf(config, 'b')).mergePolicy, { maxMergedSegmentBytes: 256 * MB, floorSegmentBytes: MB });
    assert.equal(writerTuning(indexingOf(config, 'c')).merges, false);
  });

  it('applies an index\'s indexing overrides over the top-level section in Yarrow\'s shape', () => {
    const { config } = parseConfig('indexing: { buffer_mb: 4 }\nschema:\n  a:\n    indexing: { max_merged_segment_mb: 64 }\n    fields: {}\n', 'c.yml', {});
    assert.deepEqual(writerTuning(indexingOf(config, 'a')), { maxBufferBytes: 4 * MB, mergePolicy: { maxMergedSegmentBytes: 64 * MB } });
  });

  it('gives the HTTP modes an inversion thread and a merge thread on top of the index\'s settings', () => {
    const { config } = parseConfig('indexing: { buffer_mb: 4 }\nschema:\n  a:\n    fields: {}\n', 'c.yml', {});
    const indexing = indexingOf(config, 'a');
    assert.deepEqual(serverWriterTuning(indexing), { ...writerTuning(indexing), inversionThreads: 1, mergeThread: true, backgroundNice: 19 });
    assert.equal(writerTuning(indexing).inversionThreads, undefined);
  });
});
