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
import { BlockCache, DEFAULT_PAGE_SIZE, VectorEncoding, VectorFieldReader, VectorFieldWriter, VectorSimilarity } from '../../src/engine/vector/index.js';
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
  /** A line of engine-specific figures after the queries (cache hit rate), if any. */
  describe?(): string;
}

/** An engine under test; `build` is what the benchmark times. */
export interface VectorEngine {
  name: string;
  build(set: VectorSet, params: BuildParams): Promise<BuiltIndex>;
}

function row(set: VectorSet, i: number): Float32Array {
  return set.data.subarray(i * set.dim, (i + 1) * set.dim);
}

/**
 * How Yarrow's reader holds the files: in memory (as before the block cache), or read by
 * position through a block cache whose budget is a fraction of the files' size (1.1: everything
 * fits; 0.25: a cache smaller than the data, so searches evict and re-read pages).
 */
export type ReaderMode = { kind: 'memory' } | { kind: 'cache'; fractionOfFiles: number };

/**
 * Yarrow's vector field: written to `dir` and opened again as a search process would. A second
 * engine of the same encoding reuses the files the first wrote (its "build" is then just the open).
 */
export function yarrowEngine(encoding: VectorEncoding, dir: Directory, mode: ReaderMode = { kind: 'cache', fractionOfFiles: 1.1 }): VectorEngine {
  const label = mode.kind === 'memory' ? 'in memory' : `cache ${Math.round(mode.fractionOfFiles * 100)}% of files`;
  return {
    name: `yarrow ${encoding} (${label})`,
    async build(set, params) {
      const vec = `bench-${encoding}.vec`;
      const hnsw = `bench-${encoding}.hnsw`;
      if (!(await dir.exists(vec))) {
        const writer = new VectorFieldWriter('v', { dim: set.dim, similarity: VectorSimilarity.cosine, encoding, m: params.m, efConstruction: params.efConstruction });
        for (let i = 0; i < set.count; i++) writer.add(i, row(set, i));
        const files = writer.finish();
        await dir.writeFile(vec, files.vectors);
        await dir.writeFile(hnsw, files.graph);
      }
      const fileBytes = (await sizeOf(dir, vec)) + (await sizeOf(dir, hnsw));
      const cache = mode.kind === 'memory' ? undefined : new BlockCache({ budgetBytes: Math.max(DEFAULT_PAGE_SIZE, Math.floor(fileBytes * mode.fractionOfFiles)) });
      const reader = await VectorFieldReader.open(dir, vec, hnsw, cache === undefined ? {} : { cache });
      if (cache !== undefined) console.log(`${this.name}: files ${mb(fileBytes)}, cache budget ${mb(cache.budgetBytes)}`);
      return {
        search: (q, k, ef) => reader.search(q, k, { numCandidates: ef }).docIds,
        describe: () => (cache === undefined ? '' : cacheLine(cache)),
      };
    },
  };
}

async function sizeOf(dir: Directory, name: string): Promise<number> {
  const file = await dir.openRandomAccess?.(name);
  if (file === undefined) return (await dir.readFile(name)).length;
  file.close();
  return file.size;
}

function mb(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}

function cacheLine(cache: BlockCache): string {
  const s = cache.stats();
  const hitRate = s.hits / Math.max(1, s.hits + s.misses);
  return `cache: ${s.pagesUsed}/${s.pages} pages of ${s.pageSize / 1024} KiB, hit rate ${(hitRate * 100).toFixed(1)}%, ${s.evictions} evictions, ${mb(s.bytesRead)} read`;
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
