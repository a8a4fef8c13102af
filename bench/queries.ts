/**
 * A fixed, deterministic query set derived from a corpus. Terms come from a plain lowercase
 * alphanumeric split of the searched fields, so every engine's tokenizer (FTS5 unicode61, MiniSearch's
 * punctuation split, Yarrow's english analyzer) sees the same words; stop words are left out because
 * the engines disagree on whether to drop them.
 */
import { createHash } from 'node:crypto';
import type { CorpusDoc } from './corpus.js';
import { textOf } from './corpus.js';

/** The query classes, in report order. */
export const QUERY_CLASSES = ['frequent-1', 'rare-1', 'or-2', 'and-2', 'or-3', 'and-3'] as const;

/** One of {@link QUERY_CLASSES}. */
export type QueryClass = (typeof QUERY_CLASSES)[number];

/** One benchmark query: its terms are combined with `operator` across all searched fields. */
export interface BenchQuery {
  readonly class: QueryClass;
  readonly terms: readonly string[];
  readonly operator: 'or' | 'and';
}

/** Knobs of {@link buildQuerySet}; the defaults are what `npm run bench` uses. */
export interface QuerySetOptions {
  readonly seed?: number;
  readonly perClass?: number;
  /** Share of the vocabulary, by descending document frequency, counted as "frequent". */
  readonly frequentShare?: number;
  readonly rareMinDf?: number;
  readonly rareMaxDf?: number;
}

/** English stop words: a superset of Lucene's and the usual snowball list's short function words. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  ('a about above after again against all am an and any are as at be because been before being ' +
    'below between both but by can could did do does doing down during each few for from further ' +
    'had has have having he her here hers herself him himself his how i if in into is it its itself ' +
    'just me more most my myself no nor not now of off on once only or other our ours ourselves out ' +
    'over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which ' +
    'while who whom why will with would you your yours yourself yourselves')
    .split(' '),
);

const WORD_SPLIT = /[^\p{L}\p{N}]+/u;
const ASCII_WORD = /^[a-z0-9]+$/;
const DIGITS = /^[0-9]+$/;

/**
 * The distinct query-worthy words of a text: lowercase ASCII alphanumerics of length >= 2, not all
 * digits, not stop words. Words with non-ASCII letters are dropped whole rather than cut in two,
 * because the engines fold diacritics differently.
 */
export function queryWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of text.toLowerCase().split(WORD_SPLIT)) {
    if (word.length < 2 || !ASCII_WORD.test(word) || DIGITS.test(word) || STOP_WORDS.has(word)) continue;
    out.add(word);
  }
  return out;
}

/** mulberry32: a tiny seeded PRNG returning floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(items: readonly T[], rng: () => number): T {
  return items[Math.floor(rng() * items.length)];
}

/** The frequent and rare term pools of a corpus. */
export interface TermPools {
  readonly frequent: readonly string[];
  readonly rare: readonly string[];
  readonly df: ReadonlyMap<string, number>;
}

/** Counts document frequencies over `fields` and splits the vocabulary into frequent and rare pools. */
export function termPools(docs: readonly CorpusDoc[], fields: readonly string[], options: QuerySetOptions = {}): TermPools {
  const df = new Map<string, number>();
  for (const doc of docs) {
    for (const word of docWords(doc, fields)) df.set(word, (df.get(word) ?? 0) + 1);
  }
  // Ties broken by the term itself so the pools never depend on Map insertion order.
  const vocab = [...df.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const frequentCount = Math.max(1, Math.ceil(vocab.length * (options.frequentShare ?? 0.02)));
  const frequent = vocab.slice(0, frequentCount).map(([term]) => term);
  const minDf = options.rareMinDf ?? 2;
  const maxDf = options.rareMaxDf ?? 20;
  // Disjoint from the frequent pool: on a small corpus a term can be both in the top share and
  // within the rare df range, and an AND query built from such a document could never find a
  // second distinct term.
  const frequentSet = new Set(frequent);
  const rare = vocab.filter(([term, n]) => n >= minDf && n <= maxDf && !frequentSet.has(term)).map(([term]) => term).sort();
  return { frequent, rare, df };
}

function docWords(doc: CorpusDoc, fields: readonly string[]): Set<string> {
  return queryWords(fields.map((f) => textOf(doc, f)).join(' '));
}

/**
 * Builds `perClass` queries per class. OR queries draw their first term from the frequent pool
 * and each further term from the frequent or rare pool by a coin flip. AND queries take their
 * terms from one sampled document (a frequent term first, then frequent or rare terms of that same
 * document), so each matches at least one document instead of almost always nothing.
 */
export function buildQuerySet(
  docs: readonly CorpusDoc[],
  fields: readonly string[],
  options: QuerySetOptions = {},
): BenchQuery[] {
  const pools = termPools(docs, fields, options);
  if (pools.frequent.length < 3 || pools.rare.length < 3) {
    throw new Error(`corpus too small for a query set (${pools.frequent.length} frequent, ${pools.rare.length} rare terms)`);
  }
  const rng = mulberry32(options.seed ?? 0x5eed);
  const perClass = options.perClass ?? 50;
  const frequentSet = new Set(pools.frequent);
  const rareSet = new Set(pools.rare);
  const queries: BenchQuery[] = [];

  const orTerms = (n: number): string[] => {
    const terms = [pick(pools.frequent, rng)];
    while (terms.length < n) {
      const term = pick(rng() < 0.5 ? pools.frequent : pools.rare, rng);
      if (!terms.includes(term)) terms.push(term);
    }
    return terms;
  };

  const andTerms = (n: number): string[] | undefined => {
    const words = [...docWords(pick(docs, rng), fields)];
    const freq = words.filter((w) => frequentSet.has(w));
    const rare = words.filter((w) => rareSet.has(w));
    if (freq.length === 0 || freq.length + rare.length < n) return undefined;
    const terms = [pick(freq, rng)];
    while (terms.length < n) {
      const fromRare = rare.length > 0 && (rng() < 0.5 || freq.every((w) => terms.includes(w)));
      const term = pick(fromRare ? rare : freq, rng);
      if (!terms.includes(term)) terms.push(term);
    }
    return terms;
  };

  const generators: Record<QueryClass, () => BenchQuery | undefined> = {
    'frequent-1': () => ({ class: 'frequent-1', terms: [pick(pools.frequent, rng)], operator: 'or' }),
    'rare-1': () => ({ class: 'rare-1', terms: [pick(pools.rare, rng)], operator: 'or' }),
    'or-2': () => ({ class: 'or-2', terms: orTerms(2), operator: 'or' }),
    'and-2': () => withTerms('and-2', andTerms(2), 'and'),
    'or-3': () => ({ class: 'or-3', terms: orTerms(3), operator: 'or' }),
    'and-3': () => withTerms('and-3', andTerms(3), 'and'),
  };

  for (const cls of QUERY_CLASSES) {
    const seen = new Set<string>();
    // Bounded so a tiny corpus yields fewer queries instead of looping forever.
    for (let attempt = 0; seen.size < perClass && attempt < perClass * 200; attempt++) {
      const query = generators[cls]();
      if (query === undefined) continue;
      const key = query.terms.join(' ');
      if (seen.has(key)) continue;
      seen.add(key);
      queries.push(query);
    }
  }
  return queries;
}

function withTerms(cls: QueryClass, terms: string[] | undefined, operator: 'or' | 'and'): BenchQuery | undefined {
  return terms === undefined ? undefined : { class: cls, terms, operator };
}

/** A short hash of a query set, so the report can show that every engine ran the same queries. */
export function querySetFingerprint(queries: readonly BenchQuery[]): string {
  return createHash('sha256').update(JSON.stringify(queries)).digest('hex').slice(0, 12);
}
