/**
 * Where an exact scan stops being faster than a graph walk: for growing segment sizes, the p50 of
 * Yarrow's exact int8 scan and of its HNSW search (ef 100). VectorFieldWriter's graph threshold is
 * chosen from this table.
 */
import { VectorEncoding } from '../../src/engine/vector/quantization.js';
import { VectorStore } from '../../src/engine/vector/vector-store.js';
import { HnswGraph } from '../../src/engine/vector/hnsw-graph.js';
import { exactSearch } from '../../src/engine/vector/exact-search.js';
import { num, table } from '../format.js';
import { percentile } from '../stats.js';
import type { VectorSet } from './dataset.js';

export function crossover(data: VectorSet, queries: VectorSet, k: number): void {
  const out = { ords: new Int32Array(k), scores: new Float32Array(k), count: 0 };
  const rowsOut: string[][] = [['vectors', 'exact p50 ms', 'graph p50 ms (ef 100)']];
  for (const n of [500, 1000, 2000, 4000, 8000, 16000]) {
    if (n > data.count) break;
    const store = new VectorStore(data.dim, VectorEncoding.int8, n);
    const graph = new HnswGraph(store, { m: 16, efConstruction: 100, seed: 42 }, n);
    for (let i = 0; i < n; i++) graph.insert(store.append(data.data.subarray(i * data.dim, (i + 1) * data.dim)));
    const time = (fn: (q: Float32Array) => void): number => {
      const t: number[] = [];
      for (let q = 0; q < queries.count; q++) {
        const v = queries.data.subarray(q * data.dim, (q + 1) * data.dim);
        const t0 = performance.now();
        fn(v);
        t.push(performance.now() - t0);
      }
      return percentile(t.sort((a, b) => a - b), 50);
    };
    const exact = time((q) => exactSearch(store, store.prepareQuery(q), k, null, out));
    const walk = time((q) => graph.search(store.prepareQuery(q), k, 100, null, Infinity, out));
    rowsOut.push([String(n), num(exact, 3), num(walk, 3)]);
  }
  console.log(table(rowsOut));
}
