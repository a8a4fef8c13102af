/**
 * The engines of the vector benchmark behind one small interface: Yarrow (float32 and int8, through
 * the public VectorFieldWriter/VectorFieldReader and a real directory) and the peers hnswlib-node
 * and usearch (native C++ HNSW libraries, both run on one thread like Yarrow). Every engine gets
 * the same normalised vectors and the same m / ef_construction / ef.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import hnswlib from 'hnswlib-node';
import type { Directory } from '../../src/engine/directory.js';
import { VectorEncoding, VectorFieldReader, VectorFieldWriter, VectorSimilarity } from '../../src/engine/vector/index.js';
import type { VectorSet } from './dataset.js';
import { Index } from '../../src/engine/search-index.js';
import { LocalDirectory } from '../../src/storage/local-directory.js';

/** Build parameters shared by all engines. */
export interface BuildParams {
  m: number;
  efConstruction: number;
}

/** A built index that answers top-k queries at a given ef (candidate list size). */
export interface BuiltIndex {
  search(query: Float32Array, k: number, ef: number): ArrayLike<number>;
}

/** An engine under test; `build` is what the benchmark times. */
export interface VectorEngine {
  name: string;
  build(set: VectorSet, params: BuildParams): Promise<BuiltIndex>;
}

function row(set: VectorSet, i: number): Float32Array {
  return set.data.subarray(i * set.dim, (i + 1) * set.dim);
}

/** Yarrow's vector field: written to `dir` and opened again as a search process would. */
export function yarrowEngine(encoding: VectorEncoding, dir: Directory): VectorEngine {
  return {
    name: `yarrow ${encoding}`,
    async build(set, params) {
      const writer = new VectorFieldWriter('v', { dim: set.dim, similarity: VectorSimilarity.cosine, encoding, m: params.m, efConstruction: params.efConstruction });
      for (let i = 0; i < set.count; i++) writer.add(i, row(set, i));
      const files = writer.finish();
      await dir.writeFile(`bench-${encoding}.vec`, files.vectors);
      await dir.writeFile(`bench-${encoding}.hnsw`, files.graph);
      const reader = await VectorFieldReader.open(dir, `bench-${encoding}.vec`, `bench-${encoding}.hnsw`);
      return { search: (q, k, ef) => reader.search(q, k, { numCandidates: ef }).docIds };
    },
  };
}

/**
 * The same vectors through the whole Index: pre-embedded documents upserted in batches (validation,
 * write-ahead log, segment flushes at the writer's buffer size, background merges), closed, and
 * opened again read-only as a `search` process; queries are `knn` search requests returning ids.
 * Against `yarrow int8` it shows what segments and the request path cost over one field reader.
 */
export function yarrowIndexEngine(path: string): VectorEngine {
  return {
    name: 'yarrow index (int8)',
    async build(set, params) {
      const mapping = { fields: { v: { type: 'text', search: { semantic: { dim: set.dim, distance: 'cosine', quantize: 'int8', m: params.m, ef: params.efConstruction } } } } };
      const writer = await Index.open(await LocalDirectory.open(path), { mapping, refreshIntervalMs: 0 });
      for (let from = 0; from < set.count; from += 1000) {
        const docs = [];
        for (let i = from; i < Math.min(set.count, from + 1000); i++) docs.push({ _id: String(i), v: { embedding: Array.from(row(set, i)) } });
        await writer.upsert(docs);
      }
      await writer.close();
      const index = await Index.open(await LocalDirectory.open(path), { readOnly: true });
      console.log(`yarrow index: ${index.stats().segments} segment(s)`);
      return {
        search: (q, k, ef) => index.search({ query: { knn: { field: 'v', query_vector: Array.from(q), k, num_candidates: Math.max(k, ef) } }, size: k, fields: [] }).hits.map((h) => Number(h._id)),
      };
    },
  };
}

/** hnswlib-node (hnswlib through N-API), inner product on the normalised vectors. */
export const hnswlibEngine: VectorEngine = {
  name: 'hnswlib-node',
  build(set, params) {
    const index = new hnswlib.HierarchicalNSW('ip', set.dim);
    index.initIndex(set.count, params.m, params.efConstruction, 42);
    // Its API takes number[]; the conversion is part of what a Node user pays, so it is timed.
    for (let i = 0; i < set.count; i++) index.addPoint(Array.from(row(set, i)), i);
    let current = -1;
    return Promise.resolve({
      search(q, k, ef) {
        if (ef !== current) index.setEf((current = ef));
        return index.searchKnn(Array.from(q), k).neighbors;
      },
    });
  },
};

interface UsearchMatches {
  keys: BigUint64Array;
}
interface UsearchIndex {
  add(keys: BigUint64Array, vectors: Float32Array, threads?: number): void;
  search(q: Float32Array, k: number, threads: number): UsearchMatches;
  save(path: string): void;
  load(path: string): void;
}
interface UsearchModule {
  Index: new (config: { dimensions: number; metric: string; quantization: string; connectivity: number; expansion_add: number; expansion_search: number }) => UsearchIndex;
}

/**
 * usearch with `quantization` f32 or i8. Its search expansion is fixed per index, so each ef
 * loads the saved index into a new one (outside the timed queries).
 */
export function usearchEngine(quantization: 'f32' | 'i8', tmp: string): VectorEngine {
  // Its ESM entry overflows the stack on Node 20; the CommonJS one loads.
  const usearch = createRequire(import.meta.url)('usearch') as UsearchModule;
  return {
    name: `usearch ${quantization}`,
    build(set, params) {
      const config = (ef: number): ConstructorParameters<UsearchModule['Index']>[0] => ({
        dimensions: set.dim,
        metric: 'cos',
        quantization,
        connectivity: params.m,
        expansion_add: params.efConstruction,
        expansion_search: ef,
      });
      const index = new usearch.Index(config(64));
      const keys = new BigUint64Array(set.count);
      for (let i = 0; i < set.count; i++) keys[i] = BigInt(i);
      index.add(keys, set.data, 1);
      const path = join(tmp, `usearch-${quantization}.usearch`);
      index.save(path);
      const byEf = new Map<number, UsearchIndex>();
      return Promise.resolve({
        search(q, k, ef) {
          let at = byEf.get(ef);
          if (at === undefined) {
            at = new usearch.Index(config(ef));
            at.load(path);
            byEf.set(ef, at);
          }
          const keys = at.search(q, k, 1).keys;
          return Array.from(keys, Number);
        },
      });
    },
  };
}
