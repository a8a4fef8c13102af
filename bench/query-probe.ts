/**
 * Query-latency probe (a development tool, not part of `npm run bench`): builds the Yarrow index of
 * a corpus once into a cache directory (reused by later runs), then runs the bench's query set with
 * the same request as bench/engines/yarrow.ts (yarrow-request.ts) and prints per-class latency, the slowest queries,
 * GC pauses during the timed loop and the queries that found nothing.
 *
 *   node --expose-gc --import tsx bench/query-probe.ts <npm|debian> [rounds] [cacheDir]
 *
 * PROBE_ONLY=<regex> keeps the queries whose terms match it, PROBE_CLASS=<regex> those of the classes it
 * matches; PROBE_PROFILE=<file> writes a CPU profile of the timed loop.
 *
 * PROBE_CLI=1 builds the index as the `yarrow-cli` engine does (`dist/cli.js index file`, needs
 * `npm run build`; bulk-loaded segments, no final merge) and opens it read-only, as its searcher
 * child does; run the probe with the executable's shebang flags to see that child's GC behaviour:
 *
 *   PROBE_CLI=1 node --max-semi-space-size=4 --heap-growing-percent=25 --expose-gc --import tsx bench/query-probe.ts debian
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import path from 'node:path';
import { Index, LocalDirectory } from '../src/index.js';
import { stringify } from 'yaml';
import { CORPORA, REPO_ROOT, isCorpusName, loadCorpus } from './corpus.js';
import type { CorpusDoc, CorpusSpec } from './corpus.js';
import { MAPPINGS } from './engines/yarrow.js';
import { benchSearchRequest } from './engines/yarrow-request.js';
import { QUERY_CLASSES, buildQuerySet } from './queries.js';
import type { BenchQuery } from './queries.js';
import { collectGarbage, msSince, summarize } from './stats.js';

async function main(): Promise<void> {
  const [corpusArg = 'npm', roundsArg = '5'] = process.argv.slice(2);
  const cacheArg = process.argv.at(4);
  if (!isCorpusName(corpusArg)) throw new Error(`unknown corpus ${corpusArg}`);
  const spec = CORPORA[corpusArg];
  const cli = process.env.PROBE_CLI === '1';
  const dir = cacheArg ?? path.join('/tmp', `yarrow-probe-${cli ? 'cli-' : ''}${corpusArg}`);
  let docs = await loadCorpus(spec);
  // PROBE_ONLY=<regex>: only the queries whose terms (joined by spaces) match it.
  const only = process.env.PROBE_ONLY === undefined ? null : new RegExp(process.env.PROBE_ONLY);
  // PROBE_CLASS=<regex>: only the queries of the classes it matches (`^and` for and-2 and and-3).
  const onlyClass = process.env.PROBE_CLASS === undefined ? null : new RegExp(process.env.PROBE_CLASS);
  const queries = buildQuerySet(docs, spec.textFields).filter((q) => (only === null || only.test(q.terms.join(' '))) && (onlyClass === null || onlyClass.test(q.class)));
  const fresh = !existsSync(dir);
  if (cli && fresh) buildWithCli(spec, docs, dir);
  const index = cli
    ? await Index.open(await LocalDirectory.open(path.join(dir, 'store', spec.name)), { name: spec.name, mapping: MAPPINGS[spec.name], readOnly: true })
    : await Index.open(await LocalDirectory.open(dir), { name: spec.name, mapping: MAPPINGS[spec.name], refreshIntervalMs: 0 });
  if (fresh && !cli) {
    for (let s = 0; s < docs.length; s += 10_000) await index.upsert(docs.slice(s, s + 10_000));
    await index.commit();
  }
  docs = [];
  const stats = index.stats();
  process.stderr.write(`${stats.docs} docs in ${stats.segments} segments; ${queries.length} queries\n`);
  const fields = [...spec.textFields];
  // PROBE_TYPE=best_fields (or another multi_match type) instead of the bench's cross_fields.
  const type = process.env.PROBE_TYPE;
  const request = (q: BenchQuery): Record<string, unknown> => {
    const req = benchSearchRequest(q, fields);
    if (type === undefined) return req;
    return { ...req, query: { multi_match: { query: q.terms.join(' '), fields, operator: q.operator, type } } };
  };
  const run = (q: BenchQuery): number => index.search(request(q)).hits.length;

  for (const q of queries) run(q);
  collectGarbage();
  const gcs: number[] = [];
  const obs = new PerformanceObserver((list) => { for (const e of list.getEntries()) gcs.push(e.duration); });
  obs.observe({ entryTypes: ['gc'] });
  const rounds = Number(roundsArg);
  const samples = new Map<string, number[]>(QUERY_CLASSES.map((c) => [c, []]));
  const perQuery = queries.map(() => 0);
  const best = queries.map(() => Infinity);
  const hits = queries.map(() => 0);
  const heapStart = process.memoryUsage().heapUsed;
  // PROBE_PROFILE=<file>: a CPU profile of the timed loop only (not of loading and indexing).
  const profileFile = process.env.PROBE_PROFILE;
  // PROBE_HEAP=<file>: a sampling heap profile of what the timed loop allocates (GC pressure).
  const heapFile = process.env.PROBE_HEAP;
  const session = profileFile === undefined && heapFile === undefined ? null : new Session();
  if (session !== null) session.connect();
  if (session !== null && profileFile !== undefined) {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  if (session !== null && heapFile !== undefined) {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }
  const loopStart = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) {
    queries.forEach((q, i) => {
      const start = process.hrtime.bigint();
      hits[i] = run(q);
      const ms = msSince(start);
      samples.get(q.class)!.push(ms);
      perQuery[i] = Math.max(perQuery[i], ms);
      best[i] = Math.min(best[i], ms);
    });
  }
  const loopMs = msSince(loopStart);
  if (session !== null && profileFile !== undefined) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(profileFile, JSON.stringify(profile));
  }
  if (session !== null && heapFile !== undefined) {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    writeFileSync(heapFile, JSON.stringify(profile));
  }
  session?.disconnect();
  await new Promise((r) => setTimeout(r, 50));
  obs.disconnect();
  const all = [...samples.values()].flat();
  const f = (x: number): string => x.toFixed(3);
  const o = summarize(all);
  console.log(`overall p50 ${f(o.p50)} p95 ${f(o.p95)} p99 ${f(o.p99)} max ${f(o.max)} mean ${f(o.mean)}  (loop ${loopMs.toFixed(0)} ms)`);
  for (const [c, s] of samples) {
    const x = summarize(s);
    console.log(`  ${c.padEnd(10)} p50 ${f(x.p50)} p95 ${f(x.p95)} p99 ${f(x.p99)} max ${f(x.max)} mean ${f(x.mean)}`);
  }
  const gcTotal = gcs.reduce((a, b) => a + b, 0);
  console.log(`gc: ${gcs.length} pauses, ${gcTotal.toFixed(1)} ms total, max ${f(Math.max(0, ...gcs))}; heap growth ${((process.memoryUsage().heapUsed - heapStart) / 1e6).toFixed(1)} MB`);
  const slow = queries.map((q, i) => ({ q, ms: perQuery[i] })).sort((a, b) => b.ms - a.ms).slice(0, Number(process.env.PROBE_SLOW ?? 8));
  for (const { q, ms } of slow) console.log(`  slow ${f(ms)} ${q.class} ${q.terms.join(' ')}`);
  // The fastest of a query's rounds is its own cost without GC pauses or preemption.
  const b = summarize(best);
  console.log(`best-of-rounds per query: p50 ${f(b.p50)} p95 ${f(b.p95)} p99 ${f(b.p99)} max ${f(b.max)}`);
  // Per class too: the fastest round is the figure least disturbed by a loaded machine.
  for (const c of QUERY_CLASSES) {
    const x = summarize(best.filter((_, i) => queries[i].class === c));
    console.log(`  best ${c.padEnd(10)} p50 ${f(x.p50)} p95 ${f(x.p95)} max ${f(x.max)} mean ${f(x.mean)}`);
  }
  const intrinsic = queries.map((q, i) => ({ q, ms: best[i] })).sort((x, y) => y.ms - x.ms).slice(0, Number(process.env.PROBE_SLOW ?? 8));
  for (const { q, ms } of intrinsic) console.log(`  costly ${f(ms)} ${q.class} ${q.terms.join(' ')}`);
  const zero = queries.filter((q, i) => hits[i] === 0);
  console.log(`zero-hit queries: ${zero.length}`);
  for (const q of zero) console.log(`  zero ${q.class} ${q.terms.join(' ')}`);
  await index.close();
}

/** Indexes `docs` into `<dir>/store/<corpus>` with the built executable, as bench/engines/yarrow-cli.ts does. */
function buildWithCli(spec: CorpusSpec, docs: readonly CorpusDoc[], dir: string): void {
  mkdirSync(dir, { recursive: true });
  const input = path.join(dir, 'input.jsonl');
  writeFileSync(input, docs.map((d) => `${JSON.stringify(d)}\n`).join(''));
  const config = path.join(dir, 'yarrow.yml');
  const schema = { _id: { type: 'id' }, ...MAPPINGS[spec.name].fields };
  writeFileSync(config, stringify({ store: { local: { path: path.join(dir, 'store') } }, schema: { [spec.name]: { fields: schema } } }));
  const cliJs = path.join(REPO_ROOT, 'dist', 'cli.js');
  const res = spawnSync(process.execPath, ['--max-semi-space-size=4', '--heap-growing-percent=25', cliJs, 'index', 'file', '-c', config, '-i', spec.name, '-u', input], { stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '' } });
  if (res.status !== 0) throw new Error(`yarrow index file exited with ${res.status}`);
}

main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
