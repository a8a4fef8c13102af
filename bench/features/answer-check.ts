/**
 * Checks an engine's answer against the corpus on the invariants every engine must satisfy whatever
 * its analyzer: filters hold, the sort order holds, facets are well-formed and count every hit. An
 * engine that silently ignores part of a request fails here instead of reporting flattering figures.
 */
import type { CorpusDoc } from '../corpus.js';
import type { FacetBucket, FeatureAnswer } from './feature-engine.js';
import type { FeatureQuery } from './scenarios.js';
import { FACETS, FACET_SIZE, TOP_K } from './scenarios.js';

/** Why `answer` cannot be right for `query`, or undefined when it passes every check. */
export function answerViolation(query: FeatureQuery, answer: FeatureAnswer, docsById: ReadonlyMap<string, CorpusDoc>): string | undefined {
  if (answer.ids.length > TOP_K) return `returned ${answer.ids.length} hits, asked for ${TOP_K}`;
  if (new Set(answer.ids).size !== answer.ids.length) return 'returned the same id twice';
  const docs: CorpusDoc[] = [];
  for (const id of answer.ids) {
    const doc = docsById.get(id);
    if (doc === undefined) return `returned unknown id ${JSON.stringify(id)}`;
    docs.push(doc);
  }
  switch (query.scenario) {
    case 'filtered': {
      const bad = docs.find((d) => d.section !== query.section || typeof d.installed_size !== 'number' ||
        d.installed_size < query.sizeGte || d.installed_size >= query.sizeLt);
      return bad === undefined ? undefined
        : `hit ${String(bad._id)} (section ${String(bad.section)}, installed_size ${String(bad.installed_size)}) ` +
          `fails section = ${query.section}, ${query.sizeGte} <= installed_size < ${query.sizeLt}`;
    }
    case 'sorted': {
      const sizes = docs.map((d) => (typeof d.installed_size === 'number' ? d.installed_size : -Infinity));
      const i = sizes.findIndex((s, k) => k > 0 && s > sizes[k - 1]);
      return i < 0 ? undefined : `hits not sorted by installed_size desc: ${sizes[i - 1]} then ${sizes[i]}`;
    }
    case 'faceted':
      return facetViolation(answer, docs);
    case 'phrase':
      return undefined;
  }
}

function facetViolation(answer: FeatureAnswer, docs: readonly CorpusDoc[]): string | undefined {
  for (const f of FACETS) {
    const buckets = answer.facets?.[f.name];
    if (buckets === undefined) return `no facet ${f.name}`;
    if (buckets.length > FACET_SIZE) return `facet ${f.name} has ${buckets.length} buckets, asked for ${FACET_SIZE}`;
    if (buckets.some((b, i) => !Number.isInteger(b.count) || b.count <= 0 || (i > 0 && b.count > buckets[i - 1].count))) {
      return `facet ${f.name} counts are not positive and descending: ${JSON.stringify(buckets)}`;
    }
    if (docs.length > 0 && buckets.length === 0) return `facet ${f.name} is empty but there are hits`;
    const total = buckets.reduce((sum, b) => sum + b.count, 0);
    // Where every value fits in the buckets, each hit must be counted under its own value.
    if (buckets.length < FACET_SIZE) {
      for (const d of docs) {
        const value = d[f.field];
        if (typeof value === 'string' && !buckets.some((b) => b.term === value)) return `facet ${f.name} misses hit value ${value}`;
      }
      if (total < docs.length) return `facet ${f.name} counts ${total} documents, fewer than the ${docs.length} hits`;
    }
  }
  return undefined;
}

/** Matching documents according to the facets: the sum of a facet's buckets when it holds every value. */
export function matchesOf(facets: Readonly<Record<string, readonly FacetBucket[]>> | undefined): number | undefined {
  const buckets = facets?.priorities;
  if (buckets === undefined || buckets.length >= FACET_SIZE) return undefined;
  return buckets.reduce((sum, b) => sum + b.count, 0);
}
