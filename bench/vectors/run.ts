/**
 * `npm run bench:vectors`: Yarrow's vector engine against hnswlib-node and usearch in one run, on
 * the same vectors: build time, recall@k against exact search, query latency p50/p99 per ef, and
 * the ratios to hnswlib. Flags:
 *
 *   --count 100000 --dim 384 --queries 500 --k 10 --m 16 --ef-construction 100 --ef 10,20,40,80,160
 *   --vectors <file> [--query-vectors <file>]   real embeddings instead of the synthetic set
 *   --engines yarrow-int8,yarrow-float32,yarrow-index,hnswlib,usearch-f32,usearch-i8
 *                    (yarrow-index: the same vectors as pre-embedded documents through the Index,
 *                    segments and knn requests included; yarrow-int8 reads its files through a
 *                    block cache larger than them, yarrow-int8-small-cache through one a quarter
 *                    of their size, yarrow-int8-memory loads them into memory)
 *   --crossover      exact scan vs graph latency by segment size (picks the graph threshold)
 *   --rss <count>    peak RSS of a search process holding <count> int8 vectors (run separately);
 *                    --rss-no-graph leaves the graph out (a million-vector build takes long)
 */
import { parseArgs } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDirectory } from '../../src/storage/local-directory.js';
import { VectorEncoding } from '../../src/engine/vector/index.js';
import { normalizeInPlace } from '../../src/engine/vector/quantization.js';
import { VectorStore } from '../../src/engine/vector/vector-store.js';
import { exactSearch } from '../../src/engine/vector/exact-search.js';
import { int, machine, num, ratio, table } from '../format.js';
import { percentile } from '../stats.js';
import { clusteredVectors, readVectorFile, type VectorSet } from './dataset.js';
import { hnswlibEngine, usearchEngine, yarrowEngine, yarrowIndexEngine, type BuiltIndex, type VectorEngine } from './engines.js';
import { crossover } from './crossover.js';
import { measureRss } from './rss.js';

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    dim: { type: 'string', default: '384' },
    queries: { type: 'string', default: '500' },
    k: { type: 'string', default: '10' },
    m: { type: 'string', default: '16' },
    'ef-construction': { type: 'string', default: '100' },
    ef: { type: 'string', default: '10,20,40,80,160' },
    vectors: { type: 'string' },
    'query-vectors': { type: 'string' },
    engines: { type: 'string', default: 'yarrow-int8,yarrow-float32,yarrow-index,hnswlib,usearch-f32,usearch-i8' },
    crossover: { type: 'boolean', default: false },
    rss: { type: 'string' },
    'rss-no-graph': { type: 'boolean', default: false },
  },
});

function rows(set: VectorSet, i: number): Float32Array {
  return set.data.subarray(i * set.dim, (i + 1) * set.dim);
}

function normalizeAll(set: VectorSet): VectorSet {
  for (let i = 0; i < set.count; i++) normalizeInPlace(rows(set, i));
  return set;
}

/** The exact top k of every query, by a float32 scan (the recall reference). */
function groundTruth(data: VectorSet, queries: VectorSet, k: number): Int32Array[] {
  const store = new VectorStore(data.dim, VectorEncoding.float32, data.count);
  for (let i = 0; i < data.count; i++) store.append(rows(data, i));
  const out = { ords: new Int32Array(k), scores: new Float32Array(k), count: 0 };
  return Array.from({ length: queries.count }, (_, q) => {
    exactSearch(store, store.prepareQuery(rows(queries, q)), k, null, out);
    return out.ords.slice(0, out.count);
  });
}

interface EfResult {
  ef: number;
  recall: number;
  p50: number;
  p99: number;
}

function measure(index: BuiltIndex, queries: VectorSet, truth: Int32Array[], k: number, ef: number): EfResult {
  for (let q = 0; q < Math.min(20, queries.count); q++) index.search(rows(queries, q), k, ef); // warm-up
  const times: number[] = [];
  let found = 0;
  for (let q = 0; q < queries.count; q++) {
    const t0 = performance.now();
    const hits = index.search(rows(queries, q), k, ef);
    times.push(performance.now() - t0);
    const want = new Set(truth[q]);
    for (let i = 0; i < hits.length; i++) if (want.has(hits[i])) found++;
  }
  times.sort((a, b) => a - b);
  return { ef, recall: found / (queries.count * k), p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function main(): Promise<void> {
  if (args.rss !== undefined) {
    await measureRss(Number(args.rss), Number(args.dim), !args['rss-no-graph']);
    return;
  }
  const dim = Number(args.dim);
  const k = Number(args.k);
  const params = { m: Number(args.m), efConstruction: Number(args['ef-construction']) };
  const efs = args.ef.split(',').map(Number);
  const data = normalizeAll(args.vectors === undefined ? clusteredVectors(Number(args.count), dim, 1) : await readVectorFile(args.vectors));
  const queries = normalizeAll(
    args['query-vectors'] !== undefined ? await readVectorFile(args['query-vectors']) : clusteredVectors(Number(args.queries), data.dim, 2),
  );
  console.log(`vectors: ${int(data.count)} x ${data.dim} (${args.vectors ?? 'clustered synthetic, seed 1'}), ${int(queries.count)} queries, k ${k}, m ${params.m}, ef_construction ${params.efConstruction}`);
  console.log(JSON.stringify(machine()));
  if (args.crossover) {
    crossover(data, queries, k);
    return;
  }
  let t = performance.now();
  const truth = groundTruth(data, queries, k);
  console.log(`ground truth (exact float32 scan): ${num((performance.now() - t) / queries.count, 2)} ms/query`);

  const tmp = await mkdtemp(join(tmpdir(), 'yarrow-bench-vectors-'));
  const dir = await LocalDirectory.open(tmp);
  const all: Record<string, () => VectorEngine> = {
    'yarrow-int8': () => yarrowEngine(VectorEncoding.int8, dir),
    'yarrow-int8-small-cache': () => yarrowEngine(VectorEncoding.int8, dir, { kind: 'cache', fractionOfFiles: 0.25 }),
    'yarrow-int8-memory': () => yarrowEngine(VectorEncoding.int8, dir, { kind: 'memory' }),
    'yarrow-float32': () => yarrowEngine(VectorEncoding.float32, dir),
    'yarrow-index': () => yarrowIndexEngine(join(tmp, 'index')),
    hnswlib: () => hnswlibEngine,
    'usearch-f32': () => usearchEngine('f32', tmp),
    'usearch-i8': () => usearchEngine('i8', tmp),
  };
  const results: { name: string; buildS: number; rssMb: number; byEf: EfResult[] }[] = [];
  try {
    for (const key of args.engines.split(',')) {
      const engine = all[key]();
      globalThis.gc?.();
      t = performance.now();
      const index = await engine.build(data, params);
      const buildS = (performance.now() - t) / 1000;
      const byEf = efs.map((ef) => measure(index, queries, truth, k, ef));
      results.push({ name: engine.name, buildS, rssMb: process.memoryUsage().rss / 2 ** 20, byEf });
      console.log(`${engine.name}: built in ${num(buildS, 1)} s; ${byEf.map((r) => `ef ${r.ef}: recall ${num(r.recall, 3)} p50 ${num(r.p50, 3)} ms`).join('; ')}`);
      const extra = index.describe?.() ?? '';
      if (extra !== '') console.log(`${engine.name}: ${extra}`);
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  report(results, efs, k);
}

function report(results: { name: string; buildS: number; byEf: EfResult[] }[], efs: number[], k: number): void {
  const peer = results.find((r) => r.name === 'hnswlib-node');
  const head = ['engine', 'build s', 'vs hnswlib'];
  const rowsOut: string[][] = [head];
  for (const r of results) rowsOut.push([r.name, num(r.buildS, 1), peer === undefined ? '-' : ratio(r.buildS, peer.buildS)]);
  console.log(`\nbuild (one thread each)\n${table(rowsOut)}`);
  const q: string[][] = [['engine', 'ef', `recall@${k}`, 'p50 ms', 'p99 ms', 'p50 vs hnswlib']];
  for (const r of results) {
    for (const e of r.byEf) {
      const p = peer?.byEf.find((x) => x.ef === e.ef);
      q.push([r.name, String(e.ef), num(e.recall, 3), num(e.p50, 3), num(e.p99, 3), p === undefined ? '-' : ratio(e.p50, p.p50)]);
    }
  }
  console.log(`\nqueries (same ef for every engine)\n${table(q)}`);
  // The goal: recall@k >= 0.95 at a p50 within 2x of hnswlib's (each at its cheapest ef reaching it).
  const atGoal = (r: { byEf: EfResult[] }): EfResult | undefined => r.byEf.find((e) => e.recall >= 0.95);
  const peerGoal = peer === undefined ? undefined : atGoal(peer);
  const g: string[][] = [['engine', 'cheapest ef with recall >= 0.95', 'recall', 'p50 ms', 'p50 vs hnswlib']];
  for (const r of results) {
    const e = atGoal(r);
    g.push([r.name, e === undefined ? `none of ${efs.join(',')}` : String(e.ef), e === undefined ? '-' : num(e.recall, 3), e === undefined ? '-' : num(e.p50, 3), e === undefined || peerGoal === undefined ? '-' : ratio(e.p50, peerGoal.p50)]);
  }
  console.log(`\nat recall@${k} >= 0.95\n${table(g)}`);
}

await main();
