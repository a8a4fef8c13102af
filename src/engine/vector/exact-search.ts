/**
 * Exact nearest-neighbour search: scores every (accepted) vector with the batch kernels and keeps
 * the best k. The ground truth the graph is measured against, and the faster path for small
 * segments and selective filters.
 */
import { ScoreHeap } from './score-heap.js';
import type { SearchResults } from './hnsw-graph.js';
import { SCORE_BATCH, type PreparedQuery, type RecordScorer } from './vector-store.js';

/**
 * Writes the `k` best ordinals of `store` for `q` (accepted by `accept`, null accepts all) to
 * `out`, best first; returns their count.
 */
export function exactSearch(store: RecordScorer, q: PreparedQuery, k: number, accept: ((ord: number) => boolean) | null, out: SearchResults): number {
  const heap = new ScoreHeap(k + 1);
  const n = store.count;
  if (k <= 0 || n === 0) {
    out.count = 0;
    return 0;
  }
  const offer = (count: number, ordAt: (i: number) => number): void => {
    const scores = store.out;
    for (let i = 0; i < count; i++) {
      const s = scores[i];
      if (heap.size < k) heap.push(s, ordAt(i));
      else if (s > heap.topScore()) {
        heap.pop();
        heap.push(s, ordAt(i));
      }
    }
  };
  if (accept === null) {
    for (let first = 0; first < n; first += SCORE_BATCH) {
      const count = Math.min(SCORE_BATCH, n - first);
      store.scoreRange(q, first, count);
      offer(count, (i) => first + i);
    }
  } else {
    const ids = store.ids;
    let fill = 0;
    const flush = (): void => {
      store.scoreIds(q, fill);
      offer(fill, (i) => ids[i]);
      fill = 0;
    };
    for (let ord = 0; ord < n; ord++) {
      if (!accept(ord)) continue;
      ids[fill++] = ord;
      if (fill === SCORE_BATCH) flush();
    }
    if (fill > 0) flush();
  }
  out.count = heap.drainDescending(out.ords, out.scores);
  return out.count;
}
