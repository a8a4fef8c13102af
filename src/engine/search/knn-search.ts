/**
 * Runs a {@link KnnQuery} over a snapshot: in each segment, the k nearest vectors among the docs
 * that are live and pass the request's filters (applied inside the graph walk, or by an exact scan
 * when they are selective: see VectorFieldReader.search), then the global top k by score. The
 * result is a {@link ScoredDocsQuery}, which the rest of the searcher scores, counts, sorts and
 * aggregates like any other query.
 */
import { ErrorCode, YarrowError } from '../errors.js';
import type { Snapshot, SegmentView } from '../segment/snapshot.js';
import { VectorSimilarity } from '../vector/quantization.js';
import { filterDocs } from './filter.js';
import type { Filter } from './filter.js';
import type { KnnQuery, ScoredDocsQuery } from './query.js';

/** Default candidates per graph walk: never fewer than this (the recall `bench:vectors` measures). */
export const MIN_NUM_CANDIDATES = 100;

/**
 * The knn query's nearest docs over the snapshot as a {@link ScoredDocsQuery}.
 * @param defaultK hits wanted when the query has no `k` (the request's from + size)
 */
export function runKnn(snapshot: Snapshot, query: KnnQuery, filter: Filter | null, defaultK: number): ScoredDocsQuery {
  const k = query.k ?? defaultK;
  const numCandidates = query.numCandidates ?? Math.max(Math.ceil(1.5 * k), MIN_NUM_CANDIDATES);
  const found: { doc: number; score: number }[] = [];
  if (k > 0) {
    for (const segment of snapshot.segments) {
      if (segment.liveDocs.liveCount === 0) continue;
      const field = segment.reader.vectorField(query.field);
      if (field === undefined) continue;
      if (field.dim !== query.vector.length) {
        throw new YarrowError(ErrorCode.invalidQuery, `knn: field "${query.field}" has ${field.dim} dimensions, the query vector ${query.vector.length}`, {
          field: query.field,
          expected: `${field.dim} numbers`,
          actual: `${query.vector.length} numbers`,
        });
      }
      const { accept, count } = acceptedDocs(segment, filter);
      if (count === 0) continue;
      const hits = field.search(query.vector, k, { numCandidates, ...(accept === null ? {} : { accept, acceptCount: count }) });
      const toScore = field.similarity === VectorSimilarity.cosine ? cosineScore : dotScore;
      for (let i = 0; i < hits.docIds.length; i++) found.push({ doc: segment.docBase + hits.docIds[i], score: query.boost * toScore(hits.scores[i]) });
    }
  }
  found.sort((a, b) => b.score - a.score || a.doc - b.doc);
  const top = found.slice(0, k).sort((a, b) => a.doc - b.doc);
  return { kind: 'scored_docs', docs: Int32Array.from(top, (h) => h.doc), scores: Float32Array.from(top, (h) => h.score) };
}

/** Lucene's cosine score: similarity in [-1, 1] to [0, 1]. */
function cosineScore(similarity: number): number {
  return (1 + similarity) / 2;
}

/** Lucene's maximum-inner-product score: positive and increasing over any dot product. */
function dotScore(similarity: number): number {
  return similarity < 0 ? 1 / (1 - similarity) : similarity + 1;
}

/** Which docs a walk may return (null: all) and how many that is. */
function acceptedDocs(segment: SegmentView, filter: Filter | null): { accept: ((doc: number) => boolean) | null; count: number } {
  const live = segment.liveDocs;
  const allLive = live.liveCount === segment.reader.maxDoc;
  if (filter === null) return allLive ? { accept: null, count: live.liveCount } : { accept: (d) => live.isLive(d), count: live.liveCount };
  const bits = filterDocs(filter, segment.reader).bits;
  let count = 0;
  for (let d = 0; d < bits.length; d++) if (bits[d] === 1 && (allLive || live.isLive(d))) count++;
  return { accept: allLive ? (d) => bits[d] === 1 : (d) => bits[d] === 1 && live.isLive(d), count };
}
