/**
 * `multi_match` of type `cross_fields` (and `combined_fields`): the fields are searched as if they
 * were one, so `{"query":"a b c","operator":"and"}` over title and body finds a document with "a"
 * in its title and "b c" in its body, which `best_fields` (every term in one field) cannot.
 *
 * Each word of the query becomes one clause: the best score of that word over the fields (a
 * `dis_max`, plus `tie_breaker` times the others), and the clauses are required (`and`) or
 * optional (`or`, at least one) in a `bool`. This is Elasticsearch's cross_fields shape with the
 * per-term maximum instead of its blended IDF: each field keeps its own BM25 statistics, so a word
 * that is rare in one field and common in the other scores by the field where it says the most.
 * The fields' analyzers may differ; words are lined up by their position in the query (positions
 * count removed stop words, so a word dropped by one analyzer only leaves that field's clause out).
 */
import type { Analyzer } from '../analysis/analyzer.js';

// The shapes of query.ts's FieldTermsQuery, CompoundQuery and BoolQuery that this builds, spelled
// out here because query.ts imports this module (no import cycle, even of types).
interface TermClause {
  readonly kind: 'terms';
  readonly field: string;
  readonly terms: readonly string[];
  readonly operator: 'or' | 'and';
  readonly boost: number;
}
interface WordClause {
  readonly kind: 'dis_max';
  readonly clauses: readonly TermClause[];
  readonly tieBreaker: number;
}
interface WordsClause {
  readonly kind: 'bool';
  readonly must: readonly (TermClause | WordClause)[];
  readonly should: readonly (TermClause | WordClause)[];
  readonly mustNot: readonly never[];
  readonly filter: readonly never[];
  readonly minimumShouldMatch: number;
  readonly boost: number;
}

/** One field of the query: its name, boost (`title^2`) and analyzer. */
export interface CrossField {
  readonly field: string;
  readonly boost: number;
  readonly analyzer: Analyzer;
}

/** Builds the query tree of a cross_fields `multi_match`. */
export function crossFieldsQuery(fields: readonly CrossField[], text: string, operator: 'or' | 'and', boost: number, tieBreaker: number): TermClause | WordsClause {
  const byPosition = new Map<number, TermClause[]>();
  // The fields' analyzers are shared instances (analyzers.ts), most often one for every field: the
  // text is analyzed once per distinct analyzer, not once per field (stemming is most of a short
  // query's set-up).
  const analyzed = new Map<Analyzer, { terms: string[]; positions: number[] }>();
  for (const f of fields) {
    let tokens = analyzed.get(f.analyzer);
    if (tokens === undefined) {
      const out = { terms: [] as string[], positions: [] as number[] };
      f.analyzer.analyze(text, (term, position) => {
        out.terms.push(term);
        out.positions.push(position);
      });
      analyzed.set(f.analyzer, (tokens = out));
    }
    for (let i = 0; i < tokens.terms.length; i++) {
      const position = tokens.positions[i];
      let clauses = byPosition.get(position);
      if (clauses === undefined) byPosition.set(position, (clauses = []));
      clauses.push({ kind: 'terms', field: f.field, terms: [tokens.terms[i]], operator: 'or', boost: f.boost });
    }
  }
  const words: (TermClause | WordClause)[] = [...byPosition.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, clauses]) => (clauses.length === 1 ? clauses[0] : { kind: 'dis_max', clauses, tieBreaker }));
  // No word survived analysis: match nothing, as a match query of no terms does.
  if (words.length === 0) return { kind: 'terms', field: fields[0]?.field ?? '_id', terms: [], operator, boost };
  const and = operator === 'and';
  return { kind: 'bool', must: and ? words : [], should: and ? [] : words, mustNot: [], filter: [], minimumShouldMatch: and ? 0 : 1, boost };
}
