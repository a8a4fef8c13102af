import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HnswGraph, VISIT_LIMIT_EXCEEDED, type SearchResults } from '../../../src/engine/vector/hnsw-graph.js';
import { exactSearch } from '../../../src/engine/vector/exact-search.js';
import { KernelKind } from '../../../src/engine/vector/kernels/distance-kernels.js';
import { VectorEncoding } from '../../../src/engine/vector/quantization.js';
import { VectorStore } from '../../../src/engine/vector/vector-store.js';
import { bruteForce, clustered, recall } from './vector-data.js';

function build(vectors: Float32Array[], encoding: VectorEncoding, kind?: KernelKind): { store: VectorStore; graph: HnswGraph } {
  const store = new VectorStore(vectors[0].length, encoding, 16, kind);
  const graph = new HnswGraph(store, { m: 16, efConstruction: 100, seed: 7 }, 16);
  for (const v of vectors) graph.insert(store.append(v));
  return { store, graph };
}

const results = (k: number): SearchResults => ({ ords: new Int32Array(k), scores: new Float32Array(k), count: 0 });

describe('HnswGraph', () => {
  const data = clustered(3000, 24, 11);
  const queries = clustered(40, 24, 99);

  for (const encoding of [VectorEncoding.float32, VectorEncoding.int8]) {
    it(`finds the exact 10 nearest neighbours of its store with recall >= 0.95 (${encoding})`, () => {
      const { store, graph } = build(data, encoding);
      let sum = 0;
      let truth = 0;
      for (const q of queries) {
        const out = results(10);
        graph.search(store.prepareQuery(q), 10, 200, null, Infinity, out);
        assert.equal(out.count, 10);
        for (let i = 1; i < out.count; i++) assert.ok(out.scores[i - 1] >= out.scores[i], 'scores are best first');
        const exact = results(10);
        exactSearch(store, store.prepareQuery(q), 10, null, exact);
        sum += recall(out.ords, Array.from(exact.ords));
        truth += recall(exact.ords, bruteForce(data, q, 10, false));
      }
      assert.ok(sum / queries.length >= 0.95, `graph recall ${sum / queries.length}`);
      // What the encoding itself costs, against float64 arithmetic (int8 on 24 dimensions: ~0.9).
      assert.ok(truth / queries.length >= (encoding === VectorEncoding.int8 ? 0.85 : 0.999), `exact recall ${truth / queries.length}`);
    });
  }

  it('keeps every neighbour list within m (2m on level 0), without self links or duplicates, on the node levels', () => {
    const { graph } = build(data.slice(0, 800), VectorEncoding.int8);
    let upper = 0;
    for (let ord = 0; ord < graph.count; ord++) {
      for (let l = 0; l <= graph.levelOf(ord); l++) {
        const nbs = graph.neighbours(ord, l);
        assert.ok(nbs.length <= (l === 0 ? 32 : 16));
        assert.ok(nbs.length > 0, `node ${ord} is isolated on level ${l}`);
        assert.ok(!nbs.includes(ord));
        assert.equal(new Set(nbs).size, nbs.length);
        for (const nb of nbs) assert.ok(graph.levelOf(nb) >= l);
        if (l > 0) upper++;
      }
    }
    assert.ok(upper > 0, 'some nodes are on upper levels');
  });

  it('returns only accepted ordinals, and still the best of them', () => {
    const { store, graph } = build(data, VectorEncoding.float32);
    const accept = (ord: number): boolean => ord % 3 === 0;
    let sum = 0;
    for (const q of queries) {
      const out = results(10);
      graph.search(store.prepareQuery(q), 10, 128, accept, Infinity, out);
      for (let i = 0; i < out.count; i++) assert.ok(accept(out.ords[i]));
      sum += recall(out.ords.subarray(0, out.count), bruteForce(data, q, 10, false, accept));
    }
    assert.ok(sum / queries.length >= 0.9, `filtered recall ${sum / queries.length}`);
  });

  it('gives up when the walk scores more vectors than the visit limit', () => {
    const { store, graph } = build(data, VectorEncoding.int8);
    const out = results(10);
    assert.equal(graph.search(store.prepareQuery(queries[0]), 10, 64, (ord) => ord === 5, 50, out), VISIT_LIMIT_EXCEEDED);
  });

  it('builds the same graph from the same seed, with the WebAssembly and the JavaScript kernels alike', () => {
    const a = build(data.slice(0, 500), VectorEncoding.int8, KernelKind.wasmSimd).graph.arrays();
    const b = build(data.slice(0, 500), VectorEncoding.int8, KernelKind.js).graph.arrays();
    assert.deepEqual(b, a);
  });
});

describe('exactSearch', () => {
  it('returns the k best accepted vectors as the plain computation does', () => {
    const data = clustered(2500, 20, 5);
    const store = new VectorStore(20, VectorEncoding.float32);
    for (const v of data) store.append(v);
    for (const q of clustered(10, 20, 6)) {
      const out = results(7);
      exactSearch(store, store.prepareQuery(q), 7, null, out);
      assert.deepEqual(Array.from(out.ords.subarray(0, out.count)), bruteForce(data, q, 7, false));
      exactSearch(store, store.prepareQuery(q), 7, (ord) => ord % 2 === 1, out);
      assert.deepEqual(Array.from(out.ords.subarray(0, out.count)), bruteForce(data, q, 7, false, (i) => i % 2 === 1));
    }
  });
});
