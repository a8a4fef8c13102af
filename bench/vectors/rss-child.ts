/**
 * The search process of bench/vectors/rss.ts: opens the field, queries it, prints its memory.
 * argv: <path> <dim> <mode> <queries>, mode `memory` (the files loaded whole) or a cache budget in bytes
 * (the files read by position through a block cache of that size).
 */
import { LocalDirectory } from '../../src/storage/local-directory.js';
import { BlockCache, VectorFieldReader } from '../../src/engine/vector/index.js';
import { clusteredVectors } from './dataset.js';

const [path, dimText, mode, queryCount = '200'] = process.argv.slice(2) as [string, string, string, string?];
const n = Number(queryCount);
const dim = Number(dimText);
const mb = (n: number): string => `${(n / 2 ** 20).toFixed(0)} MB`;
const before = process.memoryUsage().rss;
const cache = mode === 'memory' ? undefined : new BlockCache({ budgetBytes: Number(mode) });
const t0 = performance.now();
const reader = await VectorFieldReader.open(await LocalDirectory.open(path), 'rss.vec', 'rss.hnsw', cache === undefined ? {} : { cache });
const openMs = performance.now() - t0;
const queries = clusteredVectors(n, dim, 7);
const t1 = performance.now();
for (let q = 0; q < n; q++) reader.search(queries.data.subarray(q * dim, (q + 1) * dim), 10);
const ms = (performance.now() - t1) / n;
globalThis.gc?.();
const m = process.memoryUsage();
const label = cache === undefined ? 'files in memory' : `cache budget ${mb(cache.budgetBytes)}`;
const s = cache?.stats();
console.log(
  `search process with ${reader.count} int8 vectors, ${label}: rss ${mb(m.rss)} (node alone ${mb(before)}), ` +
    `heap ${mb(m.heapUsed)}, array buffers ${mb(m.arrayBuffers)}, peak rss ${mb(process.resourceUsage().maxRSS * 1024)}; ` +
    `open ${(openMs / 1000).toFixed(1)} s, ${ms.toFixed(3)} ms/query over ${n} ${reader.hasGraph ? 'graph searches' : 'exact scans'}` +
    (s === undefined ? '' : `; cache ${mb(s.pagesUsed * s.pageSize)} used, hit rate ${((100 * s.hits) / Math.max(1, s.hits + s.misses)).toFixed(1)}%`),
);
