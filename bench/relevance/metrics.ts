/**
 * Ranking quality measures of `npm run bench:relevance`, computed as trec_eval's `ndcg_cut` and
 * `recall` do: a judged query maps document ids to gains (graded relevance, 0 or absent = not
 * relevant), nDCG uses the gain itself (linear) discounted by log2(rank + 1), and the ideal ranking
 * is the judged documents sorted by gain.
 */

/** A query's judgements: document id -> gain (> 0 is relevant). */
export type Grades = ReadonlyMap<string, number>;

/** A query with its judged documents. */
export interface JudgedQuery {
  readonly id: string;
  readonly text: string;
  readonly grades: Grades;
}

/** nDCG at `k` of a ranking (document ids, best first) against graded judgements; 0 when nothing is relevant. */
export function ndcgAt(ranked: readonly string[], grades: Grades, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    const gain = grades.get(id) ?? 0;
    if (gain > 0) dcg += gain / Math.log2(i + 2);
  });
  const ideal = [...grades.values()].filter((g) => g > 0).sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((sum, gain, i) => sum + gain / Math.log2(i + 2), 0);
  return idcg === 0 ? 0 : dcg / idcg;
}

/** Share of the relevant documents (gain > 0) found in the first `k` of a ranking; 0 when nothing is relevant. */
export function recallAt(ranked: readonly string[], grades: Grades, k: number): number {
  const relevant = [...grades.values()].filter((g) => g > 0).length;
  if (relevant === 0) return 0;
  return ranked.slice(0, k).filter((id) => (grades.get(id) ?? 0) > 0).length / relevant;
}

/** Arithmetic mean; 0 for no values. */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * Two-sided paired randomisation test of the difference of means of `a` and `b` (per-query
 * scores of two systems on the same queries): the share of `rounds` random sign flips of the
 * per-query differences whose mean is at least as far from 0 as the observed one. Seeded, so a
 * run is repeatable.
 */
export function pairedRandomizationP(a: readonly number[], b: readonly number[], rounds = 10_000, seed = 1): number {
  if (a.length !== b.length) throw new Error(`paired test needs equal lengths, got ${a.length} and ${b.length}`);
  const diffs = a.map((x, i) => x - b[i]);
  const observed = Math.abs(mean(diffs));
  let state = seed >>> 0;
  // xorshift32: small, seeded, good enough to draw signs.
  const nextBit = (): number => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state & 1;
  };
  let extreme = 0;
  for (let r = 0; r < rounds; r++) {
    let sum = 0;
    for (const d of diffs) sum += nextBit() === 1 ? d : -d;
    if (Math.abs(sum / diffs.length) >= observed - 1e-12) extreme++;
  }
  return (extreme + 1) / (rounds + 1);
}
