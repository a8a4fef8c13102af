/**
 * Recent term lookups of one segment, by field: a search looks each query term up twice per segment
 * (its snapshot-wide document frequency, then its scorer), and popular terms come back query after
 * query. A hit costs no block scan and allocates nothing. Misses are kept too (a term absent from a
 * segment is asked for as often). Bounded per field; a full field starts over.
 */
import type { TermInfo } from '../postings/postings-format.js';

/** Looks a term up in the dictionary; undefined when absent. */
export type TermLookup = (field: string, term: string) => TermInfo | undefined;

export class TermInfoCache {
  private readonly fields = new Map<string, Map<string, TermInfo | null>>();

  constructor(
    private readonly lookup: TermLookup,
    private readonly maxTermsPerField = 4096,
  ) {}

  /** The term's entry, from the cache or the dictionary. */
  get(field: string, term: string): TermInfo | undefined {
    let terms = this.fields.get(field);
    if (terms === undefined) this.fields.set(field, (terms = new Map<string, TermInfo | null>()));
    const cached = terms.get(term);
    if (cached !== undefined) return cached ?? undefined;
    const info = this.lookup(field, term);
    if (terms.size >= this.maxTermsPerField) terms.clear();
    terms.set(term, info ?? null);
    return info;
  }
}
