/** The search process of bench/vectors/rss.ts: opens the field, queries it, prints its memory. */
import { LocalDirectory } from '../../src/storage/local-directory.js';
import { VectorFieldReader } from '../../src/engine/vector/index.js';
import { clusteredVectors } from './dataset.js';

const [path, dimText] = process.argv.slice(2);
const dim = Number(dimText);
const mb = (n: number): string => `${(n / 2 ** 20).toFixed(0)} MB`;
const before = process.memoryUsage().rss;
const reader = await VectorFieldReader.open(await LocalDirectory.open(path), 'rss.vec', 'rss.hnsw');
const queries = clusteredVectors(200, dim, 7);
const t0 = performance.now();
for (let q = 0; q < 200; q++) reader.search(queries.data.subarray(q * dim, (q + 1) * dim), 10);
const ms = (performance.now() - t0) / 200;
globalThis.gc?.();
const m = process.memoryUsage();
console.log(
  `search process with ${reader.count} int8 vectors: rss ${mb(m.rss)} (node alone ${mb(before)}), ` +
    `heap ${mb(m.heapUsed)}, array buffers ${mb(m.arrayBuffers)}, peak rss ${mb(process.resourceUsage().maxRSS * 1024)}; ${ms.toFixed(3)} ms/query`,
);
