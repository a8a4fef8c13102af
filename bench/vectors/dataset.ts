/**
 * Vectors for the vector benchmark: a clustered synthetic set with a fixed seed (embeddings cluster
 * by topic; uniform random vectors would make HNSW look worse than it is on real data), or a file
 * of real embeddings.
 *
 * File format (`--vectors <file>`): little-endian, uint32 count, uint32 dim, then count x dim
 * float32 (the .fvecs family without per-row headers); `--queries` takes the same format.
 */
import { readFile } from 'node:fs/promises';

/** A flat set of `count` vectors of `dim` lanes. */
export interface VectorSet {
  count: number;
  dim: number;
  data: Float32Array;
}

/** mulberry32 + Box-Muller: deterministic standard normal samples. */
function normalSource(seed: number): () => number {
  let a = seed >>> 0;
  const uniform = (): number => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/**
 * `count` vectors around `clusters` random centres (noise `spread` relative to a centre's norm),
 * seeded; the same arguments give the same vectors.
 */
export function clusteredVectors(count: number, dim: number, seed: number, clusters = 256, spread = 0.6): VectorSet {
  const normal = normalSource(seed);
  const centres = new Float32Array(clusters * dim);
  // The centres come from their own seed so that queries (another seed) share the data's clusters.
  const centreNormal = normalSource(0x5eed);
  for (let i = 0; i < centres.length; i++) centres[i] = centreNormal();
  const data = new Float32Array(count * dim);
  for (let v = 0; v < count; v++) {
    const c = Math.floor(((normal() * 1e6) % clusters + clusters) % clusters);
    for (let d = 0; d < dim; d++) data[v * dim + d] = centres[c * dim + d] + spread * normal();
  }
  return { count, dim, data };
}

/** Reads a vector file (see the module comment). */
export async function readVectorFile(path: string): Promise<VectorSet> {
  const bytes = await readFile(path);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(0, true);
  const dim = view.getUint32(4, true);
  if (bytes.byteLength !== 8 + count * dim * 4) throw new Error(`${path}: ${bytes.byteLength} bytes does not hold ${count} x ${dim} float32`);
  const data = new Float32Array(count * dim);
  for (let i = 0; i < data.length; i++) data[i] = view.getFloat32(8 + 4 * i, true);
  return { count, dim, data };
}
