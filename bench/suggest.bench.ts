/**
 * Completion suggestions on the npm corpus (100,000 docs by default): Yarrow's `/suggest` engine
 * call against MiniSearch's `autoSuggest` on the same documents and the same typed prefixes, in
 * the same run. Prints index time with and without `suggest` fields, the first query (which reads
 * and decodes the `.sgt` files), and p50/p99 per query class (wall clock, and the process's CPU
 * time per query, which a machine shared with other work does not inflate):
 *
 * - `prefix`: one or two whole words of a real summary and part of the next word ("react comp");
 * - `typo`: the same with two neighbouring letters of the last word swapped ("react cmop").
 *
 *   npm run bench:suggest                       # 100,000 docs, 2,000 queries
 *   YARROW_BENCH_LIMIT=20000 npm run bench:suggest
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { CORPORA, loadCorpus, textOf } from './corpus.js';
import type { CorpusDoc } from './corpus.js';
import { summarize } from './stats.js';
import type { LatencySummary } from './stats.js';
import { Index } from '../src/engine/index.js';
import { LocalDirectory } from '../src/storage/index.js';

const DOCS = Number(process.env.YARROW_BENCH_LIMIT ?? 100_000);
const QUERIES = Number(process.env.YARROW_BENCH_QUERIES ?? 2000);
const FIELDS = ['name', 'summary'] as const;

/** A small seeded PRNG (mulberry32), so every run asks the same queries. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface BenchQuery {
  readonly text: string;
  readonly kind: 'prefix' | 'typo';
}

function makeQueries(docs: readonly CorpusDoc[], n: number): BenchQuery[] {
  const rnd = random(42);
  const out: BenchQuery[] = [];
  while (out.length < n) {
    const words = textOf(docs[Math.floor(rnd() * docs.length)], 'summary').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1);
    if (words.length < 3) continue;
    const whole = 1 + Math.floor(rnd() * 2);
    const start = Math.floor(rnd() * (words.length - whole));
    const next = words[start + whole];
    const partial = next.slice(0, 1 + Math.floor(rnd() * next.length));
    const head = words.slice(start, start + whole).join(' ');
    if (out.length % 5 === 4 && next.length >= 4) {
      const i = 1 + Math.floor(rnd() * (next.length - 2));
      const swapped = next.slice(0, i) + next[i + 1] + next[i] + next.slice(i + 2);
      out.push({ text: `${head} ${swapped}`, kind: 'typo' });
    } else {
      out.push({ text: `${head} ${partial}`, kind: 'prefix' });
    }
  }
  return out;
}

/** Runs a full collection when the process has `--expose-gc` (as `npm run bench:suggest` does). */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function time<T>(run: () => T): [T, number] {
  const t0 = performance.now();
  const result = run();
  return [result, performance.now() - t0];
}

async function timeAsync<T>(run: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const result = await run();
  return [result, performance.now() - t0];
}

async function buildYarrow(path: string, docs: readonly CorpusDoc[], suggest: boolean): Promise<Index> {
  const field = suggest ? { type: 'text', suggest: { lowercase: true } } : { type: 'text' };
  const index = await Index.open(await LocalDirectory.open(path), { mapping: { fields: { name: field, summary: field } }, refreshIntervalMs: 0 });
  const batch = 5000;
  for (let i = 0; i < docs.length; i += batch) {
    await index.upsert(docs.slice(i, i + batch).map((d) => ({ _id: String(d._id), name: textOf(d, 'name'), summary: textOf(d, 'summary') })));
  }
  await index.commit();
  return index;
}

function line(name: string, s: LatencySummary): string {
  return `  ${name.padEnd(22)} p50 ${s.p50.toFixed(3).padStart(8)} ms   p99 ${s.p99.toFixed(3).padStart(8)} ms   max ${s.max.toFixed(2).padStart(8)} ms   (${s.count} queries)`;
}

async function main(): Promise<void> {
  const docs = await loadCorpus(CORPORA.npm, DOCS);
  const queries = makeQueries(docs, QUERIES);
  console.log(`suggest bench: ${docs.length} npm docs, fields ${FIELDS.join(', ')}, ${queries.length} queries (${queries.filter((q) => q.kind === 'typo').length} with a typo)`);
  const work = await mkdtemp(join(tmpdir(), 'yarrow-suggest-bench-'));
  try {
    const [plain, plainMs] = await timeAsync(() => buildYarrow(join(work, 'plain'), docs, false));
    await plain.close();
    const [index, suggestMs] = await timeAsync(() => buildYarrow(join(work, 'suggest'), docs, true));
    await index.close();
    // Reopened, as a search process would: suggestions are read from the segment files on first use.
    const reopened = await Index.open(await LocalDirectory.open(join(work, 'suggest')), { refreshIntervalMs: 0 });
    console.log(`  index time             ${(plainMs / 1000).toFixed(1)} s without suggest, ${(suggestMs / 1000).toFixed(1)} s with (x${(suggestMs / plainMs).toFixed(2)}), ${reopened.stats().segments} segments`);
    const [, firstMs] = await timeAsync(() => reopened.suggest({ query: 'reac', fields: [...FIELDS] }));
    console.log(`  first query            ${firstMs.toFixed(1)} ms (reads and decodes the .sgt files)`);
    // Warm up (JIT), then collect the garbage of indexing so that it is not billed to the queries.
    for (const q of queries.slice(0, 200)) await reopened.suggest({ query: q.text, fields: [...FIELDS], count: 10 });
    collectGarbage();
    const samples: Record<string, number[]> = { prefix: [], typo: [] };
    const cpu: number[] = [];
    let empty = 0;
    for (const q of queries) {
      const before = process.cpuUsage();
      const [res, ms] = await timeAsync(() => reopened.suggest({ query: q.text, fields: [...FIELDS], count: 10 }));
      const used = process.cpuUsage(before);
      cpu.push((used.user + used.system) / 1000);
      samples[q.kind].push(ms);
      if (res.suggestions.length === 0) empty++;
    }
    const yarrowAll = summarize([...samples.prefix, ...samples.typo]);
    console.log('yarrow');
    console.log(line('prefix', summarize(samples.prefix)));
    console.log(line('typo', summarize(samples.typo)));
    console.log(line('all', yarrowAll));
    // On a shared machine the wall-clock tail is mostly time spent descheduled; CPU time is not.
    console.log(line('all, CPU time', summarize(cpu)));
    console.log(`  queries with no suggestion: ${empty}`);
    await reopened.close();

    const ms = new MiniSearch<CorpusDoc>({ idField: '_id', fields: [...FIELDS], extractField: (d, f) => textOf(d, f) });
    const [, msIndexMs] = time(() => { ms.addAll(docs); });
    for (const q of queries.slice(0, 200)) ms.autoSuggest(q.text, { prefix: true, fuzzy: 0.2 });
    collectGarbage();
    const peer: Record<string, number[]> = { prefix: [], typo: [] };
    for (const q of queries) {
      const [, t] = time(() => ms.autoSuggest(q.text, { prefix: true, fuzzy: 0.2 }).slice(0, 10));
      peer[q.kind].push(t);
    }
    const peerAll = summarize([...peer.prefix, ...peer.typo]);
    console.log(`minisearch autoSuggest (prefix, fuzzy 0.2), indexed in ${(msIndexMs / 1000).toFixed(1)} s`);
    console.log(line('prefix', summarize(peer.prefix)));
    console.log(line('typo', summarize(peer.typo)));
    console.log(line('all', peerAll));
    console.log(`ratio minisearch / yarrow: p50 x${(peerAll.p50 / yarrowAll.p50).toFixed(1)}, p99 x${(peerAll.p99 / yarrowAll.p99).toFixed(1)}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
