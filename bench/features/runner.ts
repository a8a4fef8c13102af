/**
 * One engine on the feature scenarios, in a process of its own so that its peak RSS is its own:
 * `node --expose-gc --import tsx bench/features/runner.ts <engine>`. A scenario that throws or
 * returns a wrong answer is reported as failed and the others still run. Progress goes to stderr;
 * the result is one {@link FEATURE_RESULT_MARKER} line on stdout.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CorpusDoc } from '../corpus.js';
import { CORPORA, docLimit, loadCorpus } from '../corpus.js';
import { benchRounds, collectGarbage, msSince, summarize, timeIndexAndCommit } from '../stats.js';
import { answerViolation, matchesOf } from './answer-check.js';
import type { CreateFeatureEngine, FeatureEngine, FeatureEngineName } from './feature-engine.js';
import { isFeatureEngineName } from './feature-engine.js';
import type { FeatureResult, ScenarioOutcome } from './feature-result.js';
import { FEATURE_RESULT_MARKER } from './feature-result.js';
import type { FeatureQuery, Scenario } from './scenarios.js';
import { SCENARIOS, buildFeatureQueries, featureQueriesFingerprint } from './scenarios.js';

/** Engines are imported lazily so that one engine failing to load cannot stop the others. */
async function loadEngine(name: FeatureEngineName): Promise<CreateFeatureEngine> {
  const mod = (await import(`./engines/${name}.js`)) as { createEngine: CreateFeatureEngine };
  return mod.createEngine;
}

function log(message: string): void {
  process.stderr.write(`  [features/${process.argv[2] ?? '?'}] ${message}\n`);
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * One scenario: a warm-up round that also checks every answer against the corpus (not timed), then
 * `roundCount` timed rounds, each query timed on its own.
 */
async function runScenario(
  engine: FeatureEngine,
  queries: readonly FeatureQuery[],
  docsById: ReadonlyMap<string, CorpusDoc>,
  roundCount: number,
): Promise<ScenarioOutcome> {
  const hitCounts: number[] = [];
  const matches: number[] = [];
  for (const q of queries) {
    const answer = await engine.run(q);
    const violation = answerViolation(q, answer, docsById);
    if (violation !== undefined) return { status: 'failed', error: `wrong answer to ${JSON.stringify(q)}: ${violation}` };
    hitCounts.push(answer.ids.length);
    const m = matchesOf(answer.facets);
    if (m !== undefined) matches.push(m);
  }
  collectGarbage();
  const samples: number[] = [];
  for (let round = 0; round < roundCount; round++) {
    for (const q of queries) {
      const start = process.hrtime.bigint();
      await engine.run(q);
      samples.push(msSince(start));
    }
  }
  const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return {
    status: 'ok',
    queries: queries.length,
    latency: summarize(samples),
    meanHits: mean(hitCounts),
    zeroHits: hitCounts.filter((n) => n === 0).length,
    ...(matches.length === queries.length ? { meanMatches: mean(matches) } : {}),
  };
}

async function main(): Promise<void> {
  const engineArg = process.argv[2] ?? '';
  if (!isFeatureEngineName(engineArg)) throw new Error(`usage: runner.ts <yarrow|sqlite-fts5|minisearch>, got ${engineArg}`);
  const roundCount = benchRounds();
  const loadStart = process.hrtime.bigint();
  const docs = await loadCorpus(CORPORA.debian, docLimit());
  const queries = buildFeatureQueries(docs);
  const docsById = new Map(docs.map((d) => [String(d._id), d]));
  log(`loaded ${docs.length} docs in ${msSince(loadStart).toFixed(0)} ms; ${queries.length} queries`);
  const createEngine = await loadEngine(engineArg);

  const dir = await mkdtemp(path.join(os.tmpdir(), `yarrow-features-${engineArg}-`));
  try {
    const engine = await createEngine(dir);
    const { indexMs, commitMs } = await timeIndexAndCommit(engine, docs);
    log(`indexed in ${indexMs.toFixed(0)} ms + commit ${commitMs.toFixed(0)} ms`);

    const scenarios = {} as Record<Scenario, ScenarioOutcome>;
    for (const scenario of SCENARIOS) {
      const own = queries.filter((q) => q.scenario === scenario);
      if (!engine.supports(scenario)) {
        scenarios[scenario] = { status: 'n/a', reason: `${engineArg} cannot express ${scenario} queries` };
        continue;
      }
      collectGarbage();
      try {
        scenarios[scenario] = await runScenario(engine, own, docsById, roundCount);
      } catch (err) {
        scenarios[scenario] = { status: 'failed', error: errorMessage(err) };
      }
      const outcome = scenarios[scenario];
      log(outcome.status === 'ok'
        ? `${scenario}: p50 ${outcome.latency.p50.toFixed(3)} ms, p99 ${outcome.latency.p99.toFixed(3)} ms`
        : `${scenario}: ${outcome.status === 'failed' ? `FAILED ${outcome.error}` : 'n/a'}`);
    }
    await engine.close();

    const result: FeatureResult = {
      engine: engineArg,
      docs: docs.length,
      queryFingerprint: featureQueriesFingerprint(queries),
      rounds: roundCount,
      indexMs,
      commitMs,
      // maxRSS is in KiB on every platform Node supports.
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      scenarios,
    };
    process.stdout.write(`${FEATURE_RESULT_MARKER}${JSON.stringify(result)}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`features-runner failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
