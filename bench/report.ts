/**
 * Turns engine results into the tables `npm run bench` prints: absolute figures, latency per
 * query class, Yarrow-to-peer ratios, and whether the issue's targets against FTS5 are met.
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

/** The results {@link checkTargets} reads; `library` is the `yarrow` engine, `cli` the `yarrow-cli` one. */
export interface TargetInputs {
  readonly library?: EngineResult | undefined;
  readonly cli?: EngineResult | undefined;
  readonly fts5: EngineResult;
  readonly xapian?: EngineResult | undefined;
}

/**
 * Checks Yarrow against its peers (issue 17): `index file` docs/s at least FTS5's (the in-memory
 * `sqlite-fts5` row, the issue's figure; through the CLI when `cli` ran, else the library), its peak
 * RSS at most 300 MB, query p99 at most Xapian's (FTS5's / 4 when Xapian did not run) and p50 at
 * most 0.8x the better peer's. Needs `library` or `cli`; returns no checks when neither ran.
 */
export function checkTargets({ library, cli, fts5, xapian }: TargetInputs): TargetCheck[] {
  const indexer = cli ?? library;
  if (indexer === undefined) return [];
  const f = fts5.latency.overall;
  const label = cli === undefined ? 'library' : 'index file';
  const checks: TargetCheck[] = [
    { target: `indexing docs/s (${label}) >= FTS5 (in memory)`, yarrow: indexer.docsPerSec, goal: fts5.docsPerSec, met: indexer.docsPerSec >= fts5.docsPerSec },
  ];
  if (cli !== undefined) checks.push({ target: 'index file peak RSS MB <= 300', yarrow: cli.peakRssBytes / MB, goal: INDEX_FILE_RSS_GOAL / MB, met: cli.peakRssBytes <= INDEX_FILE_RSS_GOAL });
  // The issue compares Yarrow with Xapian "behind the same kind of loopback harness": the CLI
  // engine's searcher child when it ran (timed inside its process, as Xapian's child is).
  const searchers = [
    ...(library === undefined ? [] : [{ name: 'library', ...library.latency.overall }]),
    ...(cli === undefined ? [] : [{ name: 'searcher child', ...cli.latency.overall }]),
  ];
  const harnessed = searchers.at(-1)!;
  if (xapian === undefined) {
    for (const y of searchers) checks.push({ target: `query p50 (${y.name}) <= FTS5 p50`, yarrow: y.p50, goal: f.p50, met: y.p50 <= f.p50 });
    checks.push({ target: `query p99 (${harnessed.name}) <= FTS5 p99 / 4`, yarrow: harnessed.p99, goal: f.p99 / 4, met: harnessed.p99 <= f.p99 / 4 });
  } else {
    const x = xapian.latency.overall;
    const best = Math.min(f.p50, x.p50);
    for (const y of searchers) checks.push({ target: `query p50 (${y.name}) <= 0.8 x min(FTS5, Xapian)`, yarrow: y.p50, goal: 0.8 * best, met: y.p50 <= 0.8 * best });
    checks.push({ target: `query p99 (${harnessed.name}) <= Xapian p99`, yarrow: harnessed.p99, goal: x.p99, met: harnessed.p99 <= x.p99 });
  }
  return checks;
}

/** The engines that run `yarrow index file` in a child process. */
const CLI_ENGINES: readonly EngineName[] = ['yarrow-cli', 'yarrow-cli-full'];

/** What each engine's docs/s times, for the legends of the ratio tables. */
const PEER_TIMING: Partial<Record<EngineName, string>> = {
  'yarrow-cli': 'yarrow index file in a child, whole run: start-up, read, parse, index, commit; _id + searched fields',
  'yarrow-cli-full': 'the same with the full mapping (plus the filter/sort/facet fields the peers do not index)',
  'sqlite-fts5': 'docs parsed in memory; inserts + commit; the issue\'s figure',
  'sqlite-fts5-file': 'node child from the same JSONL file: start-up, read, parse, insert, commit',
  xapian: 'docs parsed in its child, untimed; index + commit',
  minisearch: 'docs parsed in memory; in-memory index',
};

/** One line per engine saying what its docs/s times. */
function timingLegend(engines: readonly EngineName[]): string[] {
  return engines.flatMap((e) => (PEER_TIMING[e] === undefined ? [] : [`  ${e}: ${PEER_TIMING[e]}`]));
}

/** Docs per CPU-second of index + commit, or NaN when the CPU time was not measured. */
function docsPerCpuSec(r: EngineResult): number {
  return r.indexCpuMs === undefined || r.indexCpuMs <= 0 ? Number.NaN : r.docs / (r.indexCpuMs / 1000);
}

/** Docs per CPU-second of index + commit, or '-' when not measured. */
function cpuRate(r: EngineResult): string {
  return int(docsPerCpuSec(r));
}

/** Ratio of docs per CPU-second (a's over b's), or '-'. */
function cpuRatio(a: EngineResult, b: EngineResult): string {
  return ratio(docsPerCpuSec(a), docsPerCpuSec(b));
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
  const cliRuns = ok.filter((r) => CLI_ENGINES.includes(r.engine));
  if (cliRuns.length > 0 && peers.length > 0) {
    lines.push('', 'yarrow index file (CLI child: start-up, read, parse, index, commit) / peer (docs/s: >1 is better for Yarrow):');
    lines.push(table([
      ['yarrow', 'peer', 'docs/s', 'docs/cpu-s', 'index MB', 'peak RSS'],
      ...cliRuns.flatMap((y) => peers.map((p) => [y.engine, p.engine, ratio(y.docsPerSec, p.docsPerSec), cpuRatio(y, p),
        ratio(y.indexBytes, p.indexBytes), ratio(y.peakRssBytes, p.peakRssBytes)])),
    ]));
    lines.push(...timingLegend([...cliRuns, ...peers].map((r) => r.engine)));
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
  const checks = fts5 === undefined ? [] : checkTargets({ library: yarrow, cli, fts5, xapian });
  if (checks.length > 0) {
    lines.push('', 'targets (issue 17; Yarrow vs SQLite FTS5 and Xapian):');
    lines.push(table(checks.map((t) => [
      `  ${t.target}`, t.met ? 'MET' : 'NOT MET', `yarrow ${num(t.yarrow, 3)}`, `goal ${num(t.goal, 3)}`,
    ])));
  } else {
    lines.push('', 'targets: not checked (needs sqlite-fts5 and yarrow or yarrow-cli results)');
  }
  return lines.join('\n');
}

/** One row of the issue's indexing table: a `yarrow index file` run on a corpus beside its peers. */
export interface IndexingRow {
  readonly corpus: CorpusName;
  readonly yarrowEngine: EngineName;
  readonly docs: number;
  readonly yarrow: { readonly docsPerSec: number; readonly docsPerCpuSec: number; readonly peakRssBytes: number };
  /** Each peer that ran: its docs/s and docs/cpu-s. */
  readonly peers: Partial<Record<EngineName, { readonly docsPerSec: number; readonly docsPerCpuSec: number }>>;
}

/** The peers of the issue's table, in its column order. */
const TABLE_PEERS: readonly EngineName[] = ['sqlite-fts5', 'sqlite-fts5-file', 'xapian'];

/** The rows of the issue's indexing table: one per corpus and `yarrow index file` engine that ran. */
export function indexingRows(outcomes: Partial<Record<CorpusName, readonly EngineOutcome[]>>): IndexingRow[] {
  return Object.entries(outcomes).flatMap(([corpus, list]) => {
    const ok = list.flatMap((o) => (o.ok ? [o.result] : []));
    const peers = Object.fromEntries(ok.filter((r) => TABLE_PEERS.includes(r.engine)).map((r) => [r.engine, { docsPerSec: r.docsPerSec, docsPerCpuSec: docsPerCpuSec(r) }]));
    return ok.filter((r) => CLI_ENGINES.includes(r.engine)).map((y): IndexingRow => ({
      corpus: corpus as CorpusName,
      yarrowEngine: y.engine,
      docs: y.docs,
      yarrow: { docsPerSec: y.docsPerSec, docsPerCpuSec: docsPerCpuSec(y), peakRssBytes: y.peakRssBytes },
      peers,
    }));
  });
}

/**
 * Issue 17's indexing table from one run: per corpus, `yarrow index file` docs/s and its ratio to
 * SQLite FTS5 (the issue's figure: FTS5 fed documents parsed in memory), to FTS5 loaded from the same
 * JSON Lines file by a process of its own (like with like) and to Xapian, and Yarrow's peak RSS;
 * then the same ratios in docs per CPU-second.
 */
export function formatIndexingTable(rows: readonly IndexingRow[]): string {
  if (rows.length === 0) return 'issue 17 indexing table: not printed (needs yarrow-cli results)';
  const label = (r: IndexingRow): string => `${r.corpus}${r.yarrowEngine === 'yarrow-cli' ? '' : ` (${r.yarrowEngine})`}, ${int(r.docs)} docs`;
  const peer = (r: IndexingRow, e: EngineName, key: 'docsPerSec' | 'docsPerCpuSec'): number => r.peers[e]?.[key] ?? Number.NaN;
  const section = (key: 'docsPerSec' | 'docsPerCpuSec', unit: string): string => table([
    ['corpus', `yarrow index file ${unit}`, 'x FTS5 (issue)', 'x FTS5 from file', 'x Xapian', `FTS5 ${unit}`, `FTS5 from file ${unit}`, `Xapian ${unit} (x FTS5)`, 'yarrow peak RSS MB'],
    ...rows.map((r) => [label(r), int(r.yarrow[key]), ratio(r.yarrow[key], peer(r, 'sqlite-fts5', key)), ratio(r.yarrow[key], peer(r, 'sqlite-fts5-file', key)),
      ratio(r.yarrow[key], peer(r, 'xapian', key)), int(peer(r, 'sqlite-fts5', key)), int(peer(r, 'sqlite-fts5-file', key)),
      `${int(peer(r, 'xapian', key))} (${ratio(peer(r, 'xapian', key), peer(r, 'sqlite-fts5', key))})`, num(r.yarrow.peakRssBytes / MB, 0)]),
  ]);
  return [
    'issue 17 indexing table (one run; ratios are yarrow index file / peer, >1 is better for Yarrow):',
    section('docsPerSec', 'docs/s'),
    '',
    'the same in docs per CPU-second (user + system, every thread of the process that indexed):',
    section('docsPerCpuSec', 'docs/cpu-s'),
    '',
    'x FTS5 (issue): against sqlite-fts5, documents parsed in memory, inserts + commit timed (the issue\'s figure);',
    'x FTS5 from file: against sqlite-fts5-file, a node child loading the same JSONL file, timed as yarrow index file is;',
    'Xapian: documents parsed in its child, untimed; index + commit timed.',
  ].join('\n');
}
