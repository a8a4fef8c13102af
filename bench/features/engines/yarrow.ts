/**
 * Yarrow under test for the feature scenarios, through its library API's Nixiesearch-compatible
 * request: `filters`, `sort`, `aggs` and `match_phrase`. The mapping is the Debian one of
 * bench/engines/yarrow.ts: section/priority as filterable facet keywords, installed_size/size as
 * filterable sortable ints.
 */
import { MAPPINGS } from '../../engines/yarrow.js';
import { Index, LocalDirectory } from '../../../src/index.js';
import type { CorpusDoc } from '../../corpus.js';
import type { CreateFeatureEngine, FacetBucket, FeatureAnswer, FeatureEngine } from '../feature-engine.js';
import type { FeatureQuery } from '../scenarios.js';
import { FACETS, FACET_SIZE, PHRASE_FIELD, TEXT_FIELDS, TOP_K } from '../scenarios.js';

/** Documents per `upsert` call, as in the main benchmark. */
const BATCH_SIZE = 10_000;

/** The same Debian mapping as the main benchmark. */
const DEBIAN_MAPPING = MAPPINGS.debian;

/** The request shape the feature scenarios send (a subset of SPEC §4.3). */
interface FeatureRequest {
  readonly query: unknown;
  readonly filters?: unknown;
  readonly aggs?: Readonly<Record<string, { readonly term: { readonly field: string; readonly size: number } }>>;
  readonly sort?: readonly Readonly<Record<string, { readonly order: 'asc' | 'desc' }>>[];
  readonly size: number;
  readonly track_total_hits: boolean;
  readonly fields: readonly string[];
}

/** The part of the response the benchmark reads; `aggs` is checked at run time, not trusted. */
interface FeatureResponse {
  readonly hits: readonly { readonly _id: string }[];
  readonly aggs?: Readonly<Record<string, { readonly buckets: readonly FacetBucket[] } | undefined>>;
}

function textQuery(terms: readonly string[]): unknown {
  return { multi_match: { query: terms.join(' '), fields: [...TEXT_FIELDS], operator: 'or' } };
}

/** The request for one scenario query. */
export function requestFor(q: FeatureQuery): FeatureRequest {
  // Top 10 ids without counting the total, like the peers' LIMIT 10 / first 10.
  const base = { size: TOP_K, track_total_hits: false, fields: ['_id'] } as const;
  switch (q.scenario) {
    case 'filtered':
      return {
        ...base,
        query: textQuery(q.terms),
        filters: { include: { and: [
          { term: { section: q.section } },
          { range: { installed_size: { gte: q.sizeGte, lt: q.sizeLt } } },
        ] } },
      };
    case 'sorted':
      return { ...base, query: textQuery(q.terms), sort: [{ installed_size: { order: 'desc' } }] };
    case 'faceted':
      return {
        ...base,
        query: textQuery(q.terms),
        aggs: Object.fromEntries(FACETS.map((f) => [f.name, { term: { field: f.field, size: FACET_SIZE } }])),
      };
    case 'phrase':
      return { ...base, query: { match_phrase: { [PHRASE_FIELD]: { query: q.phrase.join(' ') } } } };
  }
}

/** Creates the Yarrow engine with its index in `dir`. */
export const createEngine: CreateFeatureEngine = async (dir: string) => {
  const directory = await LocalDirectory.open(dir);
  // Refresh on demand only: the bulk load becomes searchable at its commit, as FTS5's does.
  const index = await Index.open(directory, { name: 'debian', mapping: DEBIAN_MAPPING, refreshIntervalMs: 0 });
  // The request and response types are this benchmark's view of SPEC §4.3, not the library's
  // declared ones, so the file keeps compiling while the library's types catch up with the spec.
  const search = (request: FeatureRequest): Promise<FeatureResponse> =>
    Promise.resolve(index.search(request as Parameters<Index['search']>[0]) as unknown as FeatureResponse);

  const engine: FeatureEngine = {
    name: 'yarrow',
    supports: () => true,
    async index(docs: readonly CorpusDoc[]): Promise<void> {
      for (let start = 0; start < docs.length; start += BATCH_SIZE) {
        await index.upsert(docs.slice(start, start + BATCH_SIZE));
      }
    },
    async commit(): Promise<void> {
      await index.commit();
    },
    async run(q: FeatureQuery): Promise<FeatureAnswer> {
      const res = await search(requestFor(q));
      const ids = res.hits.map((h) => h._id);
      if (q.scenario !== 'faceted') return { ids };
      const facets: Record<string, readonly FacetBucket[]> = {};
      for (const f of FACETS) {
        const agg = res.aggs?.[f.name];
        // A response without the aggregation means the request was not understood: fail loudly.
        if (agg === undefined) throw new Error(`response has no aggs.${f.name}`);
        facets[f.name] = agg.buckets;
      }
      return { ids, facets };
    },
    async close(): Promise<void> {
      await index.close();
    },
  };
  return engine;
};
