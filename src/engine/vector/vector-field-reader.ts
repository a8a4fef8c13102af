/**
 * Searches one vector field of one segment: opens its vectors and graph files, then answers
 * k-nearest-neighbour queries over the graph, or by exact scan when the segment has no graph or
 * the filter is selective (Lucene's rule: once the walk has scored more vectors than the filter
 * accepts, scanning just the accepted ones is cheaper).
 *
 * Given a {@link BlockCache} and a directory with positional reads, the files stay on storage and
 * are read by position through the cache (only the graph's upper levels are kept in memory), so
 * a search process's memory is bounded by the cache's budget, not by the index. Without one (a
 * memory or object-store directory, a writer merging) they are loaded into memory.
 */
import type { Directory } from '../directory.js';
import { HnswGraph, VISIT_LIMIT_EXCEEDED, type SearchResults } from './hnsw-graph.js';
import type { KernelKind } from './kernels/distance-kernels.js';
import { normalizeInPlace, VectorSimilarity, type VectorEncoding } from './quantization.js';
import type { RecordScorer } from './vector-store.js';
import { exactSearch } from './exact-search.js';
import { openPagedVectorsFile, readVectorsFile } from './codec/vectors-file.js';
import { openPagedHnswGraphFile, readHnswGraphFile } from './codec/hnsw-graph-file.js';
import type { BlockCache } from './block-cache.js';

/** How to open a field. */
export interface VectorFieldOpenOptions {
  /** Kernels of an in-memory store (tests compare the JavaScript fallback). */
  kernels?: KernelKind;
  /** Read the files by position through this cache (when the directory can). */
  cache?: BlockCache;
}

/** Options of one search. */
export interface VectorSearchOptions {
  /** Candidates kept per graph level walk (ef); more is slower and finds more. Default max(k, 100). */
  numCandidates?: number;
  /** Which docIds may be returned (live docs, filters); applied during the walk. */
  accept?: (docId: number) => boolean;
  /** How many docIds `accept` accepts, when known (a bitset's cardinality): bounds the walk. */
  acceptCount?: number;
}

/** Hits, best first. `scores` are similarities: cosine in [-1, 1], or the raw dot product. */
export interface VectorHits {
  docIds: Int32Array;
  scores: Float32Array;
  /** Whether the answer came from an exact scan rather than the graph. */
  exact: boolean;
}

/** One segment's vector field, ready to search. */
export class VectorFieldReader {
  private readonly query: Float32Array;

  private constructor(
    readonly similarity: VectorSimilarity,
    private readonly store: RecordScorer,
    /** docIds[ord]: the file's table in memory, or read through the cache (null: the identity). */
    private readonly docIdAt: ((ord: number) => number) | null,
    private readonly graph: HnswGraph | null,
    /** Whether the files are read through a block cache rather than held in memory. */
    readonly paged: boolean,
  ) {
    this.query = new Float32Array(store.dim);
  }

  /**
   * Opens a field from its vectors file and graph file, every byte checked against the files'
   * checksums. `options` may be just the kernel kind (as before the cache existed).
   */
  static async open(dir: Directory, vectorsFile: string, graphFile: string, options: VectorFieldOpenOptions | KernelKind = {}): Promise<VectorFieldReader> {
    const { kernels, cache } = typeof options === 'string' ? { kernels: options, cache: undefined } : options;
    const positional = cache !== undefined && dir.openRandomAccess !== undefined ? (dir as Directory & Required<Pick<Directory, 'openRandomAccess'>>) : null;
    const vectors = positional === null || cache === undefined ? null : await openPagedVectorsFile(positional, vectorsFile, cache);
    if (vectors !== null && positional !== null && cache !== undefined) {
      try {
        const graph = await openPagedHnswGraphFile(positional, graphFile, vectors.store.count, cache);
        const walk = graph === null ? null : HnswGraph.paged(vectors.store, graph.head, graph.lists, cache.visited, cache.i32);
        const docIds = vectors.docIds;
        return new VectorFieldReader(vectors.similarity, vectors.store, docIds === null ? null : (ord) => docIds.get(ord), walk, true);
      } catch (error) {
        vectors.file.close();
        throw error;
      }
    }
    const { similarity, store, docIds } = await readVectorsFile(dir, vectorsFile, kernels);
    const arrays = await readHnswGraphFile(dir, graphFile, store.count);
    return new VectorFieldReader(similarity, store, (ord) => docIds[ord], arrays === null ? null : HnswGraph.fromArrays(store, arrays), false);
  }

  /** Vectors in the segment. */
  get count(): number {
    return this.store.count;
  }

  /** Dimensions. */
  get dim(): number {
    return this.store.dim;
  }

  /** float32 or int8. */
  get encoding(): VectorEncoding {
    return this.store.encoding;
  }

  /** Whether the segment has a graph (small segments are scanned). */
  get hasGraph(): boolean {
    return this.graph !== null;
  }

  /** The records, for merges. */
  get vectorStore(): RecordScorer {
    return this.store;
  }

  /** The docId of ordinal `ord`. */
  docIdOf(ord: number): number {
    return this.docIdAt === null ? ord : this.docIdAt(ord);
  }

  /** The `k` nearest accepted documents to `vector`. */
  search(vector: ArrayLike<number>, k: number, options: VectorSearchOptions = {}): VectorHits {
    const q = this.prepare(vector);
    const accept = options.accept;
    const acceptOrd = this.acceptOrd(accept);
    k = Math.max(0, Math.min(k, this.store.count));
    const out = results(k);
    const limit = options.acceptCount ?? Infinity;
    if (this.graph !== null && limit > k) {
      const ef = Math.max(k, options.numCandidates ?? 100);
      if (this.graph.search(q, k, ef, acceptOrd, limit, out) !== VISIT_LIMIT_EXCEEDED) return this.hits(out, false);
    }
    exactSearch(this.store, q, k, acceptOrd, out);
    return this.hits(out, true);
  }

  /** The exact `k` nearest accepted documents (the ground truth of {@link search}). */
  exactSearch(vector: ArrayLike<number>, k: number, accept?: (docId: number) => boolean): VectorHits {
    const q = this.prepare(vector);
    k = Math.max(0, Math.min(k, this.store.count));
    const out = results(k);
    exactSearch(this.store, q, k, this.acceptOrd(accept), out);
    return this.hits(out, true);
  }

  /** `accept` over docIds as a test over ordinals. */
  private acceptOrd(accept: ((docId: number) => boolean) | undefined): ((ord: number) => boolean) | null {
    if (accept === undefined) return null;
    const at = this.docIdAt;
    return at === null ? accept : (ord) => accept(at(ord));
  }

  private prepare(vector: ArrayLike<number>): ReturnType<RecordScorer['prepareQuery']> {
    if (vector.length !== this.store.dim) throw new RangeError(`query vector has ${vector.length} dimensions, the field has ${this.store.dim}`);
    const q = this.query;
    for (let i = 0; i < q.length; i++) q[i] = vector[i];
    if (this.similarity === VectorSimilarity.cosine) normalizeInPlace(q);
    return this.store.prepareQuery(q);
  }

  private hits(out: SearchResults, exact: boolean): VectorHits {
    const docIds = new Int32Array(out.count);
    for (let i = 0; i < out.count; i++) docIds[i] = this.docIdOf(out.ords[i]);
    return { docIds, scores: out.scores.slice(0, out.count), exact };
  }
}

function results(k: number): SearchResults {
  return { ords: new Int32Array(k), scores: new Float32Array(k), count: 0 };
}
