/**
 * The record one engine-runner child process reports for one engine on one corpus, and how it is
 * framed on stdout so stray output from an engine cannot be mistaken for it.
 */
import type { CorpusName } from './corpus.js';
import type { EngineName } from './engines/bench-engine.js';
import type { QueryClass } from './queries.js';
import type { LatencySummary } from './stats.js';

/** Prefix of the one stdout line that carries an {@link EngineResult} as JSON. */
export const RESULT_MARKER = 'YARROW_BENCH_RESULT ';

/** Hit counts of one query class, from the first measured round. */
export interface HitSummary {
  /** Mean number of hits returned (at most 10). */
  readonly mean: number;
  /** Queries that returned nothing. */
  readonly zero: number;
}

/** Everything measured for one engine on one corpus. */
export interface EngineResult {
  readonly engine: EngineName;
  readonly corpus: CorpusName;
  readonly docs: number;
  readonly queries: number;
  /** Hash of the query set; equal across engines of a corpus when they ran the same queries. */
  readonly queryFingerprint: string;
  /** Measured rounds over the whole query set (the warm-up round is not counted). */
  readonly rounds: number;
  /** Reading and parsing the corpus, before any timing. */
  readonly loadMs: number;
  readonly indexMs: number;
  readonly commitMs: number;
  /** Documents per second over index + commit. */
  readonly docsPerSec: number;
  /**
   * CPU time (user + system, every thread) of index + commit, in the process that indexed. On a
   * machine shared with other work, docs per CPU-second moves less than docs per wall second.
   */
  readonly indexCpuMs?: number;
  readonly indexBytes: number;
  /** Resident set size once the corpus is parsed, before the engine exists: the shared baseline. */
  readonly rssAfterLoadBytes: number;
  /** Peak resident set size of the whole child process. */
  readonly peakRssBytes: number;
  readonly latency: {
    readonly overall: LatencySummary;
    readonly byClass: Readonly<Record<QueryClass, LatencySummary>>;
  };
  readonly hits: Readonly<Record<QueryClass, HitSummary>>;
}
