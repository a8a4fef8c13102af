/**
 * How an HNSW node chooses its links: hnswlib's diversity heuristic, and the re-selection that
 * runs when a full neighbour list receives one more link. Kept apart from the graph's layout and
 * search so the graph file only has to know where lists live, not how they are filled. Scores are
 * "larger is closer" (a dot product), like the rest of the graph.
 */
import type { VectorStore } from './vector-store.js';

/**
 * Chooses links for the nodes of one graph. Owns the scratch arrays of {@link reselect} because
 * that runs for most insertions once lists fill up: allocating per call would show in build time.
 */
export class NeighbourSelector {
  private readonly ords: Int32Array;
  private readonly scores: Float32Array;
  private readonly kept: Int32Array;

  /** `maxList` is the longest neighbour list of the graph (m0, the level-0 limit). */
  constructor(
    private readonly store: VectorStore,
    maxList: number,
  ) {
    this.ords = new Int32Array(maxList + 1);
    this.scores = new Float32Array(maxList + 1);
    this.kept = new Int32Array(maxList + 1);
  }

  /**
   * hnswlib's neighbour-selection heuristic: walks the candidates best first and keeps one only if
   * it is closer to the base than to every neighbour kept so far, so links spread in directions
   * instead of clustering. `ords`/`scores` are sorted best first; writes at most `max` to `into`
   * and returns how many.
   */
  selectDiverse(ords: Int32Array, scores: Float32Array, count: number, max: number, into: Int32Array): number {
    const store = this.store;
    let n = 0;
    for (let i = 0; i < count && n < max; i++) {
      const c = ords[i];
      let keep = true;
      if (n > 0) {
        store.ids.set(into.subarray(0, n));
        store.scoreIds(store.ordQuery(c), n);
        const out = store.out;
        const s = scores[i];
        for (let j = 0; j < n; j++) {
          if (out[j] > s) {
            keep = false;
            break;
          }
        }
      }
      if (keep) into[n++] = c;
    }
    return n;
  }

  /**
   * Re-selects the full neighbour list of `node` (count at `lists[at]`, then the ordinals) with
   * `ord` as one more candidate, keeping at most `max`. The list may lose links other than `ord`:
   * the heuristic, not recency, decides.
   */
  reselect(lists: Int32Array, at: number, node: number, ord: number, max: number): void {
    const store = this.store;
    const n = lists[at];
    const ids = store.ids;
    for (let i = 0; i < n; i++) ids[i] = lists[at + 1 + i];
    ids[n] = ord;
    store.scoreIds(store.ordQuery(node), n + 1);
    const ords = this.ords;
    const scores = this.scores;
    ords.set(ids.subarray(0, n + 1));
    scores.set(store.out.subarray(0, n + 1));
    sortDescending(ords, scores, n + 1);
    const into = this.kept;
    const kept = this.selectDiverse(ords, scores, n + 1, max, into);
    lists[at] = kept;
    lists.set(into.subarray(0, kept), at + 1);
  }
}

/** Sorts parallel arrays by score, largest first (insertion sort: lists are at most 2m + 1 long). */
function sortDescending(ords: Int32Array, scores: Float32Array, count: number): void {
  for (let i = 1; i < count; i++) {
    const s = scores[i];
    const o = ords[i];
    let j = i - 1;
    while (j >= 0 && scores[j] < s) {
      scores[j + 1] = scores[j];
      ords[j + 1] = ords[j];
      j--;
    }
    scores[j + 1] = s;
    ords[j + 1] = o;
  }
}
