/**
 * Builds the two files of one vector field of one segment: collects vectors by docId, then
 * builds the HNSW graph over them and encodes both files. The engine's segment writer calls it at
 * flush (documents in docId order) and at merge ({@link VectorFieldWriter.addFrom} copies records
 * of the merged segments without re-quantizing them, then the graph is rebuilt over the union).
 */
import { ErrorCode, YarrowError } from '../errors.js';
import type { TimeSlicer } from '../event-loop.js';
import { HnswGraph } from './hnsw-graph.js';
import type { KernelKind } from './kernels/distance-kernels.js';
import { normalizeInPlace, VectorEncoding, VectorSimilarity } from './quantization.js';
import { VectorStore } from './vector-store.js';
import { writeVectorsFile } from './codec/vectors-file.js';
import { writeHnswGraphFile } from './codec/hnsw-graph-file.js';
import type { VectorFieldReader } from './vector-field-reader.js';

/**
 * Below this many vectors a segment gets no graph. Measured with `npm run bench:vectors --
 * --crossover` (384 dimensions, int8, 2 cores): an exact scan answers in 0.06 ms at 2,000 vectors
 * and 0.11 ms at 4,000, a graph walk at ef 100 in 0.09 and 0.11 ms; past that the graph wins
 * (0.15 vs 0.22 ms at 8,000). Below the crossover the scan is as fast, exact, and saves the
 * graph's build time at every small flush.
 */
export const DEFAULT_GRAPH_THRESHOLD = 4096;

/** A vector field's mapping parameters, as the engine's schema gives them. */
export interface VectorFieldOptions {
  /** Dimensions of every vector. */
  dim: number;
  /** cosine (vectors normalised at indexing) or dot. */
  similarity: VectorSimilarity;
  /** int8 (the default) or float32. */
  encoding?: VectorEncoding;
  /** HNSW neighbours per node (16). */
  m?: number;
  /** HNSW candidate list while building (100). */
  efConstruction?: number;
  /** Level-assignment seed, so builds are reproducible (42). */
  seed?: number;
  /** Fewer vectors than this: no graph, exact scan ({@link DEFAULT_GRAPH_THRESHOLD}). */
  graphThreshold?: number;
  /** Force the JavaScript kernels (tests); default WebAssembly SIMD when available. */
  kernels?: KernelKind;
}

/** The encoded files of a vector field. */
export interface VectorFieldFiles {
  vectors: Uint8Array;
  graph: Uint8Array;
}

/** Collects one field's vectors for one segment and encodes its files. */
export class VectorFieldWriter {
  readonly dim: number;
  readonly similarity: VectorSimilarity;
  readonly encoding: VectorEncoding;
  private readonly store: VectorStore;
  private docIds = new Int32Array(1024);
  private readonly scratch: Float32Array;

  constructor(
    readonly field: string,
    private readonly options: VectorFieldOptions,
  ) {
    this.dim = options.dim;
    this.similarity = options.similarity;
    this.encoding = options.encoding ?? VectorEncoding.int8;
    this.store = new VectorStore(this.dim, this.encoding, 1024, options.kernels);
    this.scratch = new Float32Array(this.dim);
  }

  /** Vectors added so far. */
  get count(): number {
    return this.store.count;
  }

  /**
   * Adds the vector of `docId`. A wrong dimension or a non-finite value is `invalid_document`
   * naming the field (the edge validates earlier; this guards the file).
   */
  add(docId: number, vector: ArrayLike<number>): void {
    if (vector.length !== this.dim) {
      throw new YarrowError(ErrorCode.invalidDocument, `${this.field}: vector has ${vector.length} dimensions, expected ${this.dim}`, {
        field: this.field,
        expected: `${this.dim} numbers`,
        actual: `${vector.length} numbers`,
      });
    }
    const v = this.scratch;
    for (let i = 0; i < this.dim; i++) {
      const x = vector[i];
      if (!Number.isFinite(x)) {
        throw new YarrowError(ErrorCode.invalidDocument, `${this.field}: vector value ${i} is ${String(x)}, expected a finite number`, {
          field: `${this.field}[${i}]`,
          expected: 'finite number',
          actual: String(x),
        });
      }
      v[i] = x;
    }
    if (this.similarity === VectorSimilarity.cosine) normalizeInPlace(v);
    this.pushDoc(docId);
    this.store.append(v);
  }

  /**
   * Copies the vectors of a segment being merged: `docMap(docId)` gives the merged docId, or -1 for
   * a deleted document. Records are copied as they are when the encodings match, so a merge never
   * loses precision to a second quantization.
   */
  addFrom(reader: VectorFieldReader, docMap: (docId: number) => number): void {
    if (reader.dim !== this.dim || reader.similarity !== this.similarity) {
      throw new RangeError(`cannot merge ${reader.similarity} x ${reader.dim} vectors into ${this.similarity} x ${this.dim}`);
    }
    const source = reader.vectorStore;
    const sameEncoding = source.encoding === this.encoding;
    const v = new Float32Array(this.dim);
    for (let ord = 0; ord < source.count; ord++) {
      const docId = docMap(reader.docIdOf(ord));
      if (docId < 0) continue;
      this.pushDoc(docId);
      if (sameEncoding) this.store.appendRecords(source.record(ord));
      else this.store.append(source.vector(ord, v));
    }
  }

  /** Builds the graph (when the segment is large enough) and encodes both files. */
  finish(): VectorFieldFiles {
    const graph = this.startGraph();
    if (graph !== null) for (let ord = 0; ord < this.store.count; ord++) graph.insert(ord);
    return this.encode(graph);
  }

  /**
   * {@link finish} on the thread that serves requests: a graph over tens of thousands of vectors
   * takes seconds to build, so the build gives the event loop a turn whenever `slicer`'s time
   * slice is used up (flushes and merges call this).
   */
  async finishSliced(slicer: TimeSlicer): Promise<VectorFieldFiles> {
    const graph = this.startGraph();
    if (graph !== null) {
      for (let ord = 0; ord < this.store.count; ord++) {
        if ((ord & 15) === 0 && slicer.due()) await slicer.yield();
        graph.insert(ord);
      }
    }
    return this.encode(graph);
  }

  private startGraph(): HnswGraph | null {
    const n = this.store.count;
    if (n < (this.options.graphThreshold ?? DEFAULT_GRAPH_THRESHOLD)) return null;
    return new HnswGraph(this.store, { m: this.options.m ?? 16, efConstruction: this.options.efConstruction ?? 100, seed: this.options.seed ?? 42 }, n);
  }

  private encode(graph: HnswGraph | null): VectorFieldFiles {
    const docIds = this.docIds.slice(0, this.store.count);
    return {
      vectors: writeVectorsFile({ similarity: this.similarity, store: this.store, docIds }),
      graph: writeHnswGraphFile(graph === null ? null : graph.arrays()),
    };
  }

  private pushDoc(docId: number): void {
    if (!Number.isInteger(docId) || docId < 0 || docId > 0x7fffffff) throw new RangeError(`docId ${docId} out of range`);
    const n = this.store.count;
    if (n === this.docIds.length) {
      const next = new Int32Array(n * 2);
      next.set(this.docIds);
      this.docIds = next;
    }
    this.docIds[n] = docId;
  }
}
