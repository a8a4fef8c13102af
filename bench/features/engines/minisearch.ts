/**
 * MiniSearch peer for the feature scenarios, in memory. It has no structured-field index, so
 * filters are its `filter` callback over stored fields, sorting means taking every result and
 * sorting it, and facets mean counting over every result — those costs are what is measured. It has
 * no positions, so phrase queries are not expressible ("n/a").
 */
import MiniSearch from 'minisearch';
import type { CorpusDoc } from '../../corpus.js';
import type { CreateFeatureEngine, FeatureAnswer, FeatureEngine } from '../feature-engine.js';
import { topBuckets } from '../feature-engine.js';
import type { FeatureQuery, Scenario } from '../scenarios.js';
import { FACETS, FACET_SIZE, TEXT_FIELDS, TOP_K } from '../scenarios.js';

/** A stored field as a number, or -Infinity so a document without it sorts last. */
function sizeOf(value: unknown): number {
  return typeof value === 'number' ? value : -Infinity;
}

/** Creates the MiniSearch engine; `dir` is unused because the index lives in memory. */
export const createEngine: CreateFeatureEngine = (_dir: string) => {
  const ms = new MiniSearch<CorpusDoc>({
    idField: '_id',
    fields: [...TEXT_FIELDS],
    storeFields: ['section', 'priority', 'installed_size'],
  });

  const engine: FeatureEngine = {
    name: 'minisearch',
    supports: (scenario: Scenario) => scenario !== 'phrase',
    index(docs: readonly CorpusDoc[]): Promise<void> {
      ms.addAll(docs);
      return Promise.resolve();
    },
    commit(): Promise<void> {
      return Promise.resolve();
    },
    run(q: FeatureQuery): FeatureAnswer {
      if (q.scenario === 'phrase') throw new Error('MiniSearch has no phrase queries');
      const text = q.terms.join(' ');
      switch (q.scenario) {
        case 'filtered': {
          const results = ms.search(text, {
            combineWith: 'OR',
            filter: (r) => r.section === q.section && sizeOf(r.installed_size) >= q.sizeGte && sizeOf(r.installed_size) < q.sizeLt,
          });
          return { ids: results.slice(0, TOP_K).map((r) => String(r.id)) };
        }
        case 'sorted': {
          const results = ms.search(text, { combineWith: 'OR' });
          results.sort((a, b) => sizeOf(b.installed_size) - sizeOf(a.installed_size));
          return { ids: results.slice(0, TOP_K).map((r) => String(r.id)) };
        }
        case 'faceted': {
          const results = ms.search(text, { combineWith: 'OR' });
          const facets = Object.fromEntries(FACETS.map((f) => {
            const counts = new Map<string, number>();
            for (const r of results) {
              const value: unknown = r[f.field];
              if (typeof value === 'string') counts.set(value, (counts.get(value) ?? 0) + 1);
            }
            return [f.name, topBuckets(counts, FACET_SIZE)];
          }));
          return { ids: results.slice(0, TOP_K).map((r) => String(r.id)), facets };
        }
      }
    },
    close(): Promise<void> {
      return Promise.resolve();
    },
  };
  return Promise.resolve(engine);
};
