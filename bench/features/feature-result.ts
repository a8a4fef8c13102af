/**
 * The record one feature-runner child process reports for one engine, and how it is framed on
 * stdout so stray output from an engine cannot be mistaken for it.
 */
import type { LatencySummary } from '../stats.js';
import type { FeatureEngineName } from './feature-engine.js';
import type { Scenario } from './scenarios.js';

/** Prefix of the one stdout line that carries a {@link FeatureResult} as JSON. */
export const FEATURE_RESULT_MARKER = 'YARROW_FEATURES_RESULT ';

/** How one scenario went for one engine. */
export type ScenarioOutcome =
  | {
    readonly status: 'ok';
    readonly queries: number;
    readonly latency: LatencySummary;
    /** Mean hits returned (at most 10), from the warm-up round. */
    readonly meanHits: number;
    /** Queries that returned no hit. */
    readonly zeroHits: number;
    /** Faceted only: mean number of matching documents, the sum of the priority buckets. */
    readonly meanMatches?: number;
  }
  | { readonly status: 'n/a'; readonly reason: string }
  | { readonly status: 'failed'; readonly error: string };

/** Everything measured for one engine. */
export interface FeatureResult {
  readonly engine: FeatureEngineName;
  readonly docs: number;
  /** Hash of the query set; equal across engines when they ran the same queries. */
  readonly queryFingerprint: string;
  /** Measured rounds per scenario (the warm-up round, which also checks answers, is not counted). */
  readonly rounds: number;
  readonly indexMs: number;
  readonly commitMs: number;
  readonly peakRssBytes: number;
  readonly scenarios: Readonly<Record<Scenario, ScenarioOutcome>>;
}
