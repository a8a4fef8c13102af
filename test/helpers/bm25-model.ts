/**
 * A brute-force BM25 model: scores every document of an in-memory corpus with the textbook
 * formula, term by term, with no index, no pruning and no shortcuts. The engine must agree with it.
 *
 * It follows Lucene's definition exactly, including the one-byte field-length quantisation (the
 * `dl` in the formula is the length decoded from the norm), which is part of Lucene's formula.
 */
import { lengthToNorm, normToLength } from '../../src/engine/codec/norms/small-float.js';

export interface ModelDoc {
  readonly id: string;
  readonly fields: Readonly<Record<string, readonly string[]>>;
}

export type ModelQuery =
  | { readonly kind: 'match_all' }
  | { readonly kind: 'field'; readonly field: string; readonly terms: readonly string[]; readonly operator: 'or' | 'and' }
  | {
      readonly kind: 'multi';
      readonly fields: readonly string[];
      readonly terms: readonly string[];
      readonly operator: 'or' | 'and';
      readonly type: 'best_fields' | 'most_fields';
      readonly tieBreaker: number;
    };

const K1 = 1.2;
const B = 0.75;

/** Every matching doc with its score, best first (ties by insertion order). */
export function modelSearch(docs: readonly ModelDoc[], query: ModelQuery): { id: string; score: number }[] {
  if (query.kind === 'match_all') return docs.map((d) => ({ id: d.id, score: 1 }));
  const fieldScore = (doc: ModelDoc, field: string, terms: readonly string[], operator: 'or' | 'and'): number | null => {
    const tokens = doc.fields[field] ?? [];
    const withField = docs.filter((d) => (d.fields[field] ?? []).length > 0);
    const docCount = withField.length;
    if (docCount === 0) return null;
    const avgdl = withField.reduce((s, d) => s + d.fields[field].length, 0) / docCount;
    const dl = normToLength(lengthToNorm(tokens.length));
    let score = 0;
    let matched = 0;
    for (const term of terms) {
      const tf = tokens.filter((t) => t === term).length;
      const df = withField.filter((d) => d.fields[field].includes(term)).length;
      if (tf === 0) {
        if (operator === 'and') return null;
        continue;
      }
      matched++;
      const idf = Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
      score += idf * (tf / (tf + K1 * (1 - B + (B * dl) / avgdl)));
    }
    return matched === 0 ? null : score;
  };
  const out: { id: string; score: number }[] = [];
  for (const doc of docs) {
    let score: number | null;
    if (query.kind === 'field') score = fieldScore(doc, query.field, query.terms, query.operator);
    else {
      const perField = query.fields.map((f) => fieldScore(doc, f, query.terms, query.operator));
      const matched = perField.filter((s): s is number => s !== null);
      if (matched.length === 0) score = null;
      else if (query.type === 'most_fields') score = matched.reduce((a, b) => a + b, 0);
      else {
        const max = Math.max(...matched);
        score = max + query.tieBreaker * (matched.reduce((a, b) => a + b, 0) - max);
      }
    }
    if (score !== null) out.push({ id: doc.id, score });
  }
  return out.sort((a, b) => b.score - a.score);
}
