/**
 * Turns engine results into the tables `npm run bench` prints: absolute figures, latency per
 * query class, Yarrow-to-peer ratios, and whether the targets against FTS5 are met.
 */
import { MB, table, num, int, lat, ratio } from './format.js';
import type { CorpusName } from './corpus.js';
import type { EngineResult } from './engine-result.js';
import type { EngineName } from './engines/bench-engine.js';
import { QUERY_CLASSES } from './queries.js';

/** What happened to one engine on one corpus: a result or the reason there is none. */
export type EngineOutcome =
  | { readonly engine: EngineName; readonly ok: true; readonly result: EngineResult }
  | { readonly engine: EngineName; readonly ok: false; readonly error: string };

/** Yarrow's targets against SQLite FTS5, from the performance issue. */
export interface TargetCheck {
  readonly target: string;
  readonly yarrow: number;
  readonly goal: number;
  readonly met: boolean;
}

/** Peak RSS allowed to `yarrow index file` with default settings (issue 17). */
const INDEX_FILE_RSS_GOAL = 300 * MB;

/**
 * Checks Yarrow against its peers (issue 17): `index file` docs/s at least FTS5's (through the CLI
 * when `cli` ran, else the library), its peak RSS at most 300 MB, query p99 at most Xapian's (FTS5's
 * / 4 when Xapian did not run) and p50 at most 0.8x the better peer's.
 */
export function checkTargets(yarrow: EngineResult, fts5: EngineResult, xapian?: EngineResult, cli?: EngineResult): TargetCheck[] {
  const y = yarrow.latency.overall;
  const f = fts5.latency.overall;
  const indexer = cli ?? yarrow;
  const label = cli === undefined ? 'library' : 'index file';
  const checks: TargetCheck[] = [
    { target: `indexing docs/s (${label}) >= FTS5`, yarrow: indexer.docsPerSec, goal: fts5.docsPerSec, met: indexer.docsPerSec >= fts5.docsPerSec },
  ];
  if (cli !== undefined) checks.push({ target: 'index file peak RSS MB <= 300', yarrow: cli.peakRssBytes / MB, goal: INDEX_FILE_RSS_GOAL / MB, met: cli.peakRssBytes <= INDEX_FILE_RSS_GOAL });
  if (xapian === undefined) {
    checks.push({ target: 'query p50 <= FTS5 p50', yarrow: y.p50, goal: f.p50, met: y.p50 <= f.p50 });
    checks.push({ target: 'query p99 <= FTS5 p99 / 4', yarrow: y.p99, goal: f.p99 / 4, met: y.p99 <= f.p99 / 4 });
  } else {
    const x = xapian.latency.overall;
    const best = Math.min(f.p50, x.p50);
    // The issue compares Yarrow with Xapian "behind the same kind of loopback harness": the CLI
    // engine's searcher child when it ran (timed inside its process, as Xapian's child is).
    const searcher = cli === undefined ? { name: 'library', ...y } : { name: 'searcher child', ...cli.latency.overall };
    checks.push({ target: `query p50 (library) <= 0.8 x min(FTS5, Xapian)`, yarrow: y.p50, goal: 0.8 * best, met: y.p50 <= 0.8 * best });
    if (cli !== undefined) checks.push({ target: `query p50 (${searcher.name}) <= 0.8 x min(FTS5, Xapian)`, yarrow: searcher.p50, goal: 0.8 * best, met: searcher.p50 <= 0.8 * best });
    checks.push({ target: `query p99 (${searcher.name}) <= Xapian p99`, yarrow: searcher.p99, goal: x.p99, met: searcher.p99 <= x.p99 });
  }
  return checks;
}

/** Docs per CPU-second of index + commit, or '-' when not measured. */
function cpuRate(r: EngineResult): string {
  return r.indexCpuMs === undefined || r.indexCpuMs <= 0 ? '-' : int(r.docs / (r.indexCpuMs / 1000));
}

/** Ratio of docs per CPU-second (a's over b's), or '-'. */
function cpuRatio(a: EngineResult, b: EngineResult): string {
  if (a.indexCpuMs === undefined || b.indexCpuMs === undefined || a.indexCpuMs <= 0 || b.indexCpuMs <= 0) return '-';
  return ratio(a.docs / a.indexCpuMs, b.docs / b.indexCpuMs);
}

/** The printed report for one corpus. */
export function formatCorpusReport(corpus: CorpusName, outcomes: readonly EngineOutcome[]): string {
  const ok = outcomes.flatMap((o) => (o.ok ? [o.result] : []));
  const lines: string[] = [];
  const first = ok.at(0);
  const header = first === undefined
    ? `== ${corpus} ==`
    : `== ${corpus}: ${int(first.docs)} docs, ${first.queries} queries x ${first.rounds} rounds (after 1 warm-up) ==`;
  lines.push(header, '');

  lines.push(table([
    ['engine', 'docs/s', 'docs/cpu-s', 'index MB', 'peak RSS MB', 'RSS after load MB', 'p50 ms', 'p95 ms', 'p99 ms'],
    ...outcomes.map((o) => o.ok
      ? [o.engine, int(o.result.docsPerSec), cpuRate(o.result), num(o.result.indexBytes / MB, 1), num(o.result.peakRssBytes / MB, 0),
        num(o.result.rssAfterLoadBytes / MB, 0), num(o.result.latency.overall.p50, 3),
        num(o.result.latency.overall.p95, 3), num(o.result.latency.overall.p99, 3)]
      : [o.engine, 'failed', '-', '-', '-', '-', '-', '-', '-']),
  ]));
  for (const o of outcomes) if (!o.ok) lines.push(`${o.engine} failed: ${o.error}`);

  if (ok.length === 0) return lines.join('\n');
  const fingerprints = new Set(ok.map((r) => r.queryFingerprint));
  if (fingerprints.size > 1) lines.push('', 'WARNING: engines ran different query sets; latencies are not comparable.');

  lines.push('', 'latency by query class, p50 / p95 / p99 ms (mean hits returned, queries with none):');
  lines.push(table([
    ['class', ...ok.map((r) => r.engine)],
    ...QUERY_CLASSES.map((c) => [c, ...ok.map((r) => `${lat(r.latency.byClass[c])} (${num(r.hits[c].mean, 1)}, ${r.hits[c].zero})`)]),
  ]));

  const yarrow = ok.find((r) => r.engine === 'yarrow');
  const cli = ok.find((r) => r.engine === 'yarrow-cli');
  const peers = ok.filter((r) => !r.engine.startsWith('yarrow'));
  if (cli !== undefined && peers.length > 0) {
    lines.push('', 'yarrow index file (CLI child: start-up, parse, index, commit) / peer:');
    lines.push(table([
      ['peer', 'docs/s', 'docs/cpu-s', 'index MB', 'peak RSS'],
      ...peers.map((p) => [p.engine, ratio(cli.docsPerSec, p.docsPerSec), cpuRatio(cli, p), ratio(cli.indexBytes, p.indexBytes), ratio(cli.peakRssBytes, p.peakRssBytes)]),
    ]));
  }
  if (yarrow !== undefined && peers.length > 0) {
    lines.push('', 'Yarrow (library) / peer (docs/s: >1 is better for Yarrow; index MB, RSS and latency: <1 is better):');
    lines.push(table([
      ['peer', 'docs/s', 'docs/cpu-s', 'index MB', 'peak RSS', 'p50', 'p95', 'p99'],
      ...peers.map((p) => [p.engine, ratio(yarrow.docsPerSec, p.docsPerSec), cpuRatio(yarrow, p), ratio(yarrow.indexBytes, p.indexBytes),
        ratio(yarrow.peakRssBytes, p.peakRssBytes), ratio(yarrow.latency.overall.p50, p.latency.overall.p50),
        ratio(yarrow.latency.overall.p95, p.latency.overall.p95), ratio(yarrow.latency.overall.p99, p.latency.overall.p99)]),
    ]));
    lines.push('', 'Yarrow / peer latency by class, p50 / p99:');
    lines.push(table([
      ['class', ...peers.map((p) => p.engine)],
      ...QUERY_CLASSES.map((c) => [c, ...peers.map((p) =>
        `${ratio(yarrow.latency.byClass[c].p50, p.latency.byClass[c].p50)} / ${ratio(yarrow.latency.byClass[c].p99, p.latency.byClass[c].p99)}`)]),
    ]));
  }

  const fts5 = ok.find((r) => r.engine === 'sqlite-fts5');
  const xapian = ok.find((r) => r.engine === 'xapian');
  if (yarrow !== undefined && fts5 !== undefined) {
    lines.push('', 'targets (issue 17; Yarrow vs SQLite FTS5 and Xapian):');
    lines.push(table(checkTargets(yarrow, fts5, xapian, cli).map((t) => [
      `  ${t.target}`, t.met ? 'MET' : 'NOT MET', `yarrow ${num(t.yarrow, 3)}`, `goal ${num(t.goal, 3)}`,
    ])));
  } else {
    lines.push('', 'targets: not checked (needs both yarrow and sqlite-fts5 results)');
  }
  return lines.join('\n');
}
