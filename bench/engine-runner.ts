/**
 * One engine on one corpus, in a process of its own so that its peak RSS is its own:
 * `node --expose-gc --import tsx bench/engine-runner.ts <engine> <corpus>`.
 * Progress goes to stderr; the result is one {@link RESULT_MARKER} line on stdout.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CORPORA, docLimit, isCorpusName, loadCorpus } from './corpus.js';
import type { CorpusDoc } from './corpus.js';
import type { EngineResult, HitSummary } from './engine-result.js';
import { RESULT_MARKER } from './engine-result.js';
import type { CreateEngine, EngineName } from './engines/bench-engine.js';
import { ENGINE_NAMES, isEngineName } from './engines/bench-engine.js';
import type { BenchQuery, QueryClass } from './queries.js';
import { QUERY_CLASSES, buildQuerySet, querySetFingerprint } from './queries.js';
import type { LatencySummary } from './stats.js';
import { benchRounds, collectGarbage, msSince, summarize, timeIndexAndCommit } from './stats.js';

/** Engines are imported lazily so that one engine failing to load cannot stop the others. */
async function loadEngine(name: EngineName): Promise<CreateEngine> {
  const mod = (await import(`./engines/${name}.js`)) as { createEngine: CreateEngine };
  return mod.createEngine;
}

function log(message: string): void {
  process.stderr.write(`  [${process.argv[2] ?? '?'}/${process.argv[3] ?? '?'}] ${message}\n`);
}

async function main(): Promise<void> {
  const [engineArg = '', corpusArg = ''] = process.argv.slice(2);
  if (!isEngineName(engineArg) || !isCorpusName(corpusArg)) {
    throw new Error(`usage: engine-runner.ts <${ENGINE_NAMES.join('|')}> <npm|debian>, got ${engineArg} ${corpusArg}`);
  }
  const spec = CORPORA[corpusArg];
  const roundCount = benchRounds();

  const loadStart = process.hrtime.bigint();
  let docs: readonly CorpusDoc[] = await loadCorpus(spec, docLimit());
  const docCount = docs.length;
  const loadMs = msSince(loadStart);
  const queries = buildQuerySet(docs, spec.textFields);
  log(`loaded ${docs.length} docs in ${loadMs.toFixed(0)} ms; ${queries.length} queries`);
  const createEngine = await loadEngine(engineArg);
  collectGarbage();
  const rssAfterLoadBytes = process.memoryUsage().rss;

  const dir = await mkdtemp(path.join(os.tmpdir(), `yarrow-bench-${engineArg}-`));
  try {
    const engine = await createEngine(spec, dir);
    const cpuStart = process.cpuUsage();
    const timed = await timeIndexAndCommit(engine, docs);
    const cpu = process.cpuUsage(cpuStart);
    const indexCpuMs = engine.indexCpuMs?.() ?? (cpu.user + cpu.system) / 1000;
    const indexMs = timed.indexMs - (engine.untimedIndexMs?.() ?? 0);
    const { commitMs } = timed;
    const docsPerSec = docCount / ((indexMs + commitMs) / 1000);
    const indexBytes = await engine.indexBytes();
    log(`indexed at ${docsPerSec.toFixed(0)} docs/s (index ${indexMs.toFixed(0)} ms + commit ${commitMs.toFixed(0)} ms), ${(indexBytes / 2 ** 20).toFixed(1)} MB`);

    // Queries run without the parsed corpus on the heap: a searcher process does not hold it, and
    // each major GC would otherwise mark it and show up as a latency spike of the engine.
    docs = [];
    collectGarbage();
    const { latency, hits } = await runQueries(engine.search.bind(engine), queries, roundCount, engine.lastSearchMs);
    log(`queries: p50 ${latency.overall.p50.toFixed(3)} ms, p99 ${latency.overall.p99.toFixed(3)} ms`);
    // An engine in a child process reports that process's memory, not the runner's.
    const stats = engine.processStats === undefined ? null : await engine.processStats();
    await engine.close();

    const result: EngineResult = {
      engine: engineArg,
      corpus: corpusArg,
      docs: docCount,
      queries: queries.length,
      queryFingerprint: querySetFingerprint(queries),
      rounds: roundCount,
      loadMs,
      indexMs,
      commitMs,
      docsPerSec,
      indexCpuMs,
      indexBytes,
      rssAfterLoadBytes: stats?.rssAfterLoadBytes ?? rssAfterLoadBytes,
      // maxRSS is in KiB on every platform Node supports.
      peakRssBytes: stats?.peakRssBytes ?? process.resourceUsage().maxRSS * 1024,
      latency,
      hits,
    };
    process.stdout.write(`${RESULT_MARKER}${JSON.stringify(result)}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A warm-up round (not counted), then `roundCount` timed rounds over the whole query set. */
async function runQueries(
  search: (q: BenchQuery) => Promise<number>,
  queries: readonly BenchQuery[],
  roundCount: number,
  lastSearchMs?: () => number,
): Promise<Pick<EngineResult, 'latency' | 'hits'>> {
  for (const q of queries) await search(q);
  const samples = Object.fromEntries(QUERY_CLASSES.map((c) => [c, [] as number[]])) as Record<QueryClass, number[]>;
  const hitCounts = Object.fromEntries(QUERY_CLASSES.map((c) => [c, [] as number[]])) as Record<QueryClass, number[]>;
  for (let round = 0; round < roundCount; round++) {
    for (const q of queries) {
      const start = process.hrtime.bigint();
      const n = await search(q);
      const wall = msSince(start);
      samples[q.class].push(lastSearchMs === undefined ? wall : lastSearchMs());
      if (round === 0) hitCounts[q.class].push(n);
    }
  }
  const byClass = Object.fromEntries(QUERY_CLASSES.map((c) => [c, summarize(samples[c])])) as Record<QueryClass, LatencySummary>;
  const hits = Object.fromEntries(
    QUERY_CLASSES.map((c): [QueryClass, HitSummary] => {
      const counts = hitCounts[c];
      const mean = counts.length === 0 ? 0 : counts.reduce((a, b) => a + b, 0) / counts.length;
      return [c, { mean, zero: counts.filter((n) => n === 0).length }];
    }),
  ) as Record<QueryClass, HitSummary>;
  return { latency: { overall: summarize(QUERY_CLASSES.flatMap((c) => samples[c])), byClass }, hits };
}

main().catch((err: unknown) => {
  process.stderr.write(`engine-runner failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
