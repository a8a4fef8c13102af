/**
 * The BM25 scoring context a searcher builds, over one snapshot: for tests that run the engine's
 * scorers directly (the flat conjunction and disjunction against the clause scorers).
 */
import { BlockBufferPool } from '../../src/engine/codec/postings/postings-reader.js';
import { bm25Idf, bm25NormCache } from '../../src/engine/search/bm25.js';
import type { ScoringContext } from '../../src/engine/search/scorer-builder.js';
import type { Snapshot } from '../../src/engine/segment/snapshot.js';

/** BM25 weights from the statistics of `snapshot()` (read per term, so it may be acquired after this is made). */
export function snapshotScoring(snapshot: () => Snapshot): ScoringContext {
  return {
    weightOf: (field, term, boost) => {
      const stats = snapshot().fieldStats(field);
      const df = snapshot().docFreq(field, term);
      return df === 0 ? null : { weight: boost * bm25Idf(df, stats.docCount), normInverse: bm25NormCache(stats.sumTotalTermFreq / stats.docCount) };
    },
    buffers: new BlockBufferPool(),
  };
}
