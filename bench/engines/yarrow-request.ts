/**
 * The search request every Yarrow engine of the bench sends for a {@link BenchQuery}, in one place
 * so that the library, the CLI and the searcher child ask exactly the same question.
 */
import type { BenchQuery } from '../queries.js';

/**
 * A `multi_match` of type `cross_fields` over every searched field: the fields are searched as one,
 * so an "and" query needs each word in some field, as FTS5 (a match over all columns) and Xapian
 * (one term list per document) answer it. The default `best_fields` would need every word in the
 * same field, and finds nothing for a word in `name` and another in `summary`.
 */
export function benchSearchRequest(query: Pick<BenchQuery, 'terms' | 'operator'>, fields: readonly string[]): Record<string, unknown> {
  return {
    query: { multi_match: { query: query.terms.join(' '), fields, operator: query.operator, type: 'cross_fields' } },
    size: 10,
    // Top 10 without counting the total, like the peers' LIMIT 10 / first 10.
    track_total_hits: false,
    // Ids and scores only, as FTS5's `SELECT _id, bm25(t)` returns.
    fields: ['_id'],
  };
}
