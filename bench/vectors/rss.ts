/**
 * Memory of a search process holding one segment of `count` int8 vectors: the parent writes the
 * vectors and graph files (the graph built with a small ef_construction: its arrays have the same
 * size whatever the quality, and a full-quality build of a million vectors takes long), then a
 * fresh child process opens the field and answers queries, and reports its RSS: once with the files
 * loaded into memory (as before the block cache), once through the default cache, once through a
 * 64 MB one.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDirectory } from '../../src/storage/local-directory.js';
import { DEFAULT_CACHE_BYTES, VectorFieldWriter, VectorSimilarity, VectorEncoding } from '../../src/engine/vector/index.js';
import { clusteredVectors } from './dataset.js';

/**
 * `graph` false stores no graph (the vectors alone; the graph's memory is then its arrays' size,
 * which the report prints from the layout).
 */
export async function measureRss(count: number, dim: number, graph: boolean): Promise<void> {
  const path = await mkdtemp(join(tmpdir(), 'yarrow-bench-rss-'));
  try {
    const dir = await LocalDirectory.open(path);
    const writer = new VectorFieldWriter('v', { dim, similarity: VectorSimilarity.cosine, encoding: VectorEncoding.int8, m: 16, efConstruction: 8, ...(graph ? {} : { graphThreshold: count + 1 }) });
    const chunk = 50_000;
    const t0 = performance.now();
    for (let first = 0; first < count; first += chunk) {
      const n = Math.min(chunk, count - first);
      const set = clusteredVectors(n, dim, 1000 + first);
      for (let i = 0; i < n; i++) writer.add(first + i, set.data.subarray(i * dim, (i + 1) * dim));
    }
    const files = writer.finish();
    console.log(`wrote ${count} x ${dim} int8 vectors in ${((performance.now() - t0) / 1000).toFixed(1)} s: vectors ${(files.vectors.length / 2 ** 20).toFixed(0)} MB, graph ${(files.graph.length / 2 ** 20).toFixed(0)} MB`);
    if (!graph) {
      // Level 0: (2m + 1) int32 per node; upper levels: (m + 1) int32 per node and level, ~1/(m - 1) of the nodes.
      const bytes = count * (4 * 33 + 1 + 4) + (count / 15) * 4 * 17;
      console.log(`graph arrays for ${count} nodes at m 16 (from the layout, not stored in this run): ${(bytes / 2 ** 20).toFixed(0)} MB`);
    }
    await dir.writeFile('rss.vec', files.vectors);
    await dir.writeFile('rss.hnsw', files.graph);
    const child = join(import.meta.dirname, 'rss-child.ts');
    // Before the block cache (files loaded whole), then read by position through the default cache and a small one.
    for (const mode of ['memory', String(DEFAULT_CACHE_BYTES), String(64 * 2 ** 20)]) {
      process.stdout.write(execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', child, path, String(dim), mode, graph ? '200' : '5'], { encoding: 'utf8' }));
    }
  } finally {
    await rm(path, { recursive: true, force: true });
  }
}
