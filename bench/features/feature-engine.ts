/**
 * The interface every engine implements for the feature scenarios, and the answer shape the runner
 * checks, so Yarrow and its peers are timed through exactly the same calls.
 */
import type { CorpusDoc } from '../corpus.js';
import type { FeatureQuery, Scenario } from './scenarios.js';

/** Names of the engines, in report order (Yarrow first; the others are its peers). */
export const FEATURE_ENGINE_NAMES = ['yarrow', 'sqlite-fts5', 'minisearch'] as const;

/** One of {@link FEATURE_ENGINE_NAMES}. */
export type FeatureEngineName = (typeof FEATURE_ENGINE_NAMES)[number];

/** Whether a string names an engine. */
export function isFeatureEngineName(value: string): value is FeatureEngineName {
  return (FEATURE_ENGINE_NAMES as readonly string[]).includes(value);
}

/** One facet bucket: a field value and how many matching documents hold it. */
export interface FacetBucket {
  readonly term: string;
  readonly count: number;
}

/** What a query returns: the ids of its top hits and, for faceted queries, the buckets by facet name. */
export interface FeatureAnswer {
  readonly ids: readonly string[];
  readonly facets?: Readonly<Record<string, readonly FacetBucket[]>>;
}

/** An engine under test, created empty for the Debian corpus. */
export interface FeatureEngine {
  readonly name: FeatureEngineName;
  /** Scenarios the engine cannot express are reported as "n/a", not run. */
  supports(scenario: Scenario): boolean;
  index(docs: readonly CorpusDoc[]): Promise<void>;
  commit(): Promise<void>;
  /** Runs one query; the whole call, including building the answer, is what is timed. */
  run(query: FeatureQuery): FeatureAnswer | Promise<FeatureAnswer>;
  close(): Promise<void>;
}

/** What each module under bench/features/engines/ exports; `dir` is a fresh empty directory. */
export type CreateFeatureEngine = (dir: string) => Promise<FeatureEngine>;

/** Top `size` buckets of value counts, by descending count then ascending term (SQL's tie order here). */
export function topBuckets(counts: ReadonlyMap<string, number>, size: number): FacetBucket[] {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, size)
    .map(([term, count]) => ({ term, count }));
}
