/**
 * The search-feature scenarios on the Debian corpus — filtered, sorted, faceted and phrase queries —
 * derived deterministically from the corpus with a seeded PRNG, so every engine's child process
 * builds the very same query set from the same documents.
 */
import { createHash } from 'node:crypto';
import type { CorpusDoc } from '../corpus.js';
import { textOf } from '../corpus.js';
import { STOP_WORDS, mulberry32, termPools } from '../queries.js';

/** The scenarios, in report order. */
export const SCENARIOS = ['filtered', 'sorted', 'faceted', 'phrase'] as const;

/** One of {@link SCENARIOS}. */
export type Scenario = (typeof SCENARIOS)[number];

/** Whether a string names a scenario. */
export function isScenario(value: string): value is Scenario {
  return (SCENARIOS as readonly string[]).includes(value);
}

/** Free-text fields every engine searches; the phrase scenario searches `description` alone. */
export const TEXT_FIELDS = ['name', 'summary', 'description'] as const;

/** The field phrases are taken from and searched in. */
export const PHRASE_FIELD = 'description';

/** Facet fields and how many buckets each asks for. */
export const FACETS = [{ name: 'sections', field: 'section' }, { name: 'priorities', field: 'priority' }] as const;
export const FACET_SIZE = 10;

/** Hits asked for by every query. */
export const TOP_K = 10;

/** One benchmark query of a feature scenario. Text terms are OR'ed across {@link TEXT_FIELDS}. */
export type FeatureQuery =
  | { readonly scenario: 'filtered'; readonly terms: readonly string[]; readonly section: string; readonly sizeGte: number; readonly sizeLt: number }
  | { readonly scenario: 'sorted'; readonly terms: readonly string[] }
  | { readonly scenario: 'faceted'; readonly terms: readonly string[] }
  | { readonly scenario: 'phrase'; readonly phrase: readonly [string, string] };

/** Knobs of {@link buildFeatureQueries}; the defaults are what `npm run bench:features` uses. */
export interface FeatureQueryOptions {
  readonly seed?: number;
  readonly perScenario?: number;
  /** How many of the most common sections filtered queries draw from. */
  readonly topSections?: number;
}

function pick<T>(items: readonly T[], rng: () => number): T {
  return items[Math.floor(rng() * items.length)];
}

/** The `q`-quantile (0 <= q < 1) of sorted numbers. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Sections by descending document count (ties by name), for picking "a frequent section". */
function sectionsByCount(docs: readonly CorpusDoc[]): string[] {
  const counts = new Map<string, number>();
  for (const doc of docs) {
    const s = doc.section;
    if (typeof s === 'string' && s !== '') counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([s]) => s);
}

const CLEAN_WORD = /^[a-z0-9]+$/;
const DIGITS = /^[0-9]+$/;
/** A second word may carry one trailing punctuation mark: it ends the phrase, it does not split it. */
const TRAILING_PUNCT = /[,.;:]$/;

function phraseWord(raw: string): string | undefined {
  const word = raw.toLowerCase();
  if (word.length < 2 || !CLEAN_WORD.test(word) || DIGITS.test(word) || STOP_WORDS.has(word)) return undefined;
  return word;
}

/**
 * The adjacent word pairs of a text that every engine tokenizes the same way: two whitespace-separated
 * tokens that are plain ASCII words (the second may end a clause with `,.;:`), neither a stop word,
 * so no analyzer inserts a position gap or splits a word between them.
 */
export function adjacentPairs(text: string): [string, string][] {
  const raw = text.split(/\s+/);
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i++) {
    const a = phraseWord(raw[i]);
    const b = phraseWord(raw[i + 1].replace(TRAILING_PUNCT, ''));
    if (a !== undefined && b !== undefined && a !== b) pairs.push([a, b]);
  }
  return pairs;
}

/**
 * Builds `perScenario` distinct queries per scenario (fewer on a tiny corpus):
 * - text queries are 1 or 2 terms (coin flip) from the frequent pool of bench/queries.ts, OR'ed;
 * - filtered adds `section = s` (s among the `topSections` most common) and an `installed_size`
 *   range [gte, lt) whose ends are corpus quantiles, so it keeps a real share of the matches;
 * - phrase takes an adjacent word pair from a sampled document's description, at least one of the
 *   two a frequent term, so the phrase intersects non-trivial posting lists.
 */
export function buildFeatureQueries(docs: readonly CorpusDoc[], options: FeatureQueryOptions = {}): FeatureQuery[] {
  const pools = termPools(docs, TEXT_FIELDS);
  const sections = sectionsByCount(docs).slice(0, options.topSections ?? 10);
  if (pools.frequent.length < 3 || sections.length === 0) {
    throw new Error(`corpus too small for the feature scenarios (${pools.frequent.length} frequent terms, ${sections.length} sections)`);
  }
  const sizes = docs.flatMap((d) => (typeof d.installed_size === 'number' ? [d.installed_size] : [])).sort((a, b) => a - b);
  if (sizes.length === 0) throw new Error('no document has a numeric installed_size');
  const frequentSet = new Set(pools.frequent);
  const rng = mulberry32(options.seed ?? 0xfea7);
  const perScenario = options.perScenario ?? 50;

  const textTerms = (): string[] => {
    const terms = [pick(pools.frequent, rng)];
    if (rng() < 0.5) {
      const second = pick(pools.frequent, rng);
      if (second !== terms[0]) terms.push(second);
    }
    return terms;
  };

  const generators: Record<Scenario, () => FeatureQuery | undefined> = {
    filtered: () => {
      const terms = textTerms();
      const lo = rng() * 0.5;
      const hi = Math.min(0.999, lo + 0.2 + rng() * 0.5);
      const sizeGte = quantile(sizes, lo);
      const sizeLt = quantile(sizes, hi);
      if (sizeLt <= sizeGte) return undefined;
      return { scenario: 'filtered', terms, section: pick(sections, rng), sizeGte, sizeLt };
    },
    sorted: () => ({ scenario: 'sorted', terms: textTerms() }),
    faceted: () => ({ scenario: 'faceted', terms: textTerms() }),
    phrase: () => {
      const pairs = adjacentPairs(textOf(pick(docs, rng), PHRASE_FIELD))
        .filter(([a, b]) => frequentSet.has(a) || frequentSet.has(b));
      return pairs.length === 0 ? undefined : { scenario: 'phrase', phrase: pick(pairs, rng) };
    },
  };

  const queries: FeatureQuery[] = [];
  for (const scenario of SCENARIOS) {
    const seen = new Set<string>();
    // Bounded so a tiny corpus yields fewer queries instead of looping forever.
    for (let attempt = 0; seen.size < perScenario && attempt < perScenario * 200; attempt++) {
      const query = generators[scenario]();
      if (query === undefined) continue;
      const key = JSON.stringify(query);
      if (seen.has(key)) continue;
      seen.add(key);
      queries.push(query);
    }
  }
  return queries;
}

/** A short hash of a query set, so the report can show that every engine ran the same queries. */
export function featureQueriesFingerprint(queries: readonly FeatureQuery[]): string {
  return createHash('sha256').update(JSON.stringify(queries)).digest('hex').slice(0, 12);
}
