/**
 * Top-k over a disjunction of term scorers (an "or" cross_fields query: every (field, word) term
 * at once; a best_fields or single-word query over fields; an "or" match on one field): the
 * MaxScore of {@link scoreMaxScore} run on the term postings themselves, over flat per-term arrays.
 *
 * - per window of blocks, the terms are split by their window bounds into "essential" ones, which
 *   alone could produce a competitive doc, and the others, only probed (highest bound first) for
 *   candidates of the essential ones while the candidate's bound still beats the threshold;
 * - a candidate's score and bounds are combined by the combiner's own arithmetic
 *   ({@link CombinerArithmetic}), computed here over a typed array: no call through the Scorer or
 *   ScoreCombiner interface per doc, and no heap number per combination.
 *
 * It visits the same windows, candidates and probes as scoreMaxScore, so the hits, scores and
 * counts are exactly those of the general path (test/engine/search/term-disjunction.test.ts).
 */
import type { PostingsIterator } from '../codec/postings/postings-reader.js';
import { bm25Score } from './bm25.js';
import type { AcceptDocs } from './doc-set.js';
import type { ScoreCombiner } from './score-combiner.js';
import { BOUND_SLACK, NO_MORE_DOCS } from './scorer.js';
import type { Scorer } from './scorer.js';
import { TermScorer } from './term-scorer.js';
import type { TopKCollector } from './top-k-collector.js';

/** Shared state of one search across segments (bulk-scorer.ts's CollectContext). */
interface Collecting {
  readonly collector: TopKCollector;
  readonly countUpTo: number;
}

/** The combination: a plain sum of the terms' scores. */
const SUM = 0;
/** Groups add up in group order, each its dis_max (groupedSumOfDisMaxCombiner). */
const SUM_OF_MAX = 1;
/** The groups' sums combine as a dis_max (disMaxCombiner, groupedDisMaxCombiner). */
const MAX_OF_SUM = 2;

/**
 * Scores a disjunction with {@link TermDisjunction} when every clause is a term scorer and the
 * combiner exposes its arithmetic; returns false (and does nothing) otherwise.
 */
export function scoreTermDisjunction(clauses: readonly Scorer[], combiner: ScoreCombiner, live: AcceptDocs | null, docBase: number, ctx: Collecting): boolean {
  // One instance for every segment and query (a search scores one segment at a time).
  const disjunction = shared;
  if (!disjunction.load(clauses, combiner)) return false;
  try {
    disjunction.run(live, docBase, ctx);
  } finally {
    disjunction.unload();
  }
  return true;
}

/** One segment's disjunction of terms over flat arrays; reused (see {@link load}). */
class TermDisjunction {
  private terms = 0;
  private postings: (PostingsIterator | null)[] = [];
  private norms: (Uint8Array | null)[] = [];
  private normInverses: (Float64Array | null)[] = [];
  private weights = new Float64Array(8);
  /** The combination's kind ({@link SUM}, {@link SUM_OF_MAX}, {@link MAX_OF_SUM}). */
  private kind = SUM;
  /** Group of each term (adjacent terms of a group); unused for SUM. */
  private groupOf = new Int32Array(8);
  /** Per group for SUM_OF_MAX; [0] is the tie breaker of MAX_OF_SUM. */
  private tieBreakers = new Float64Array(8);
  /** Per term: its window bound (times BOUND_SLACK), as scoreMaxScore's `bounds`. */
  private bounds = new Float64Array(8);
  /** Per term: its score at the candidate, or its bound while not probed; scoreMaxScore's `partial`. */
  private partial = new Float64Array(8);
  /** Term indexes by ascending window bound; order[essentialFrom..] are the essential ones. */
  private order = new Int32Array(8);
  /** [0]: the last {@link combine}. */
  private readonly combined = new Float64Array(1);

  /** Loads a segment's clauses; false, with nothing loaded, when the shape is not flat. */
  load(clauses: readonly Scorer[], combiner: ScoreCombiner): boolean {
    const arithmetic = combiner.arithmetic;
    if (arithmetic === undefined) return false;
    const n = clauses.length;
    for (let i = 0; i < n; i++) if (!(clauses[i] instanceof TermScorer)) return false;
    const groups = arithmetic.groupOf;
    if (groups !== null && groups.length !== n) return false;
    const ties = arithmetic.tieBreakers;
    if (arithmetic.kind === 'sum-of-max' && (ties === null || groups === null)) return false;
    this.reserve(n, ties === null ? 1 : ties.length);
    this.terms = n;
    this.kind = arithmetic.kind === 'sum' ? SUM : arithmetic.kind === 'sum-of-max' ? SUM_OF_MAX : MAX_OF_SUM;
    const groupOf = this.groupOf;
    for (let i = 0; i < n; i++) {
      const t = clauses[i];
      if (!(t instanceof TermScorer)) return false;
      this.postings[i] = t.postings;
      this.norms[i] = t.norms;
      this.normInverses[i] = t.normInverse;
      this.weights[i] = t.weight;
      this.order[i] = i;
      // No groups: each term is its own group (the dis_max of single clauses).
      groupOf[i] = groups === null ? i : groups[i];
    }
    if (ties !== null) this.tieBreakers.set(ties);
    else this.tieBreakers[0] = arithmetic.tieBreaker;
    return true;
  }

  /** Drops the references to the loaded segment's postings and norms. */
  unload(): void {
    this.postings.fill(null, 0, this.terms);
    this.norms.fill(null, 0, this.terms);
    this.normInverses.fill(null, 0, this.terms);
    this.terms = 0;
  }

  private reserve(terms: number, tieBreakers: number): void {
    if (this.weights.length < terms) {
      const size = Math.max(terms, 2 * this.weights.length);
      this.weights = new Float64Array(size);
      this.groupOf = new Int32Array(size);
      this.bounds = new Float64Array(size);
      this.partial = new Float64Array(size);
      this.order = new Int32Array(size);
    }
    if (this.tieBreakers.length < tieBreakers) this.tieBreakers = new Float64Array(Math.max(tieBreakers, 2 * this.tieBreakers.length));
  }

  /** Collects the segment's matches into `ctx.collector`, skipping those that cannot compete. */
  run(live: AcceptDocs | null, docBase: number, ctx: Collecting): void {
    const n = this.terms;
    const collector = ctx.collector;
    const postings = this.postings;
    const bounds = this.bounds;
    const partial = this.partial;
    const order = this.order;
    let essentialFrom = 0;
    for (let i = 0; i < n; i++) postings[i]!.nextDoc();

    for (;;) {
      let windowStart = NO_MORE_DOCS;
      for (let i = 0; i < n; i++) {
        const d = postings[i]!.doc;
        if (d < windowStart) windowStart = d;
      }
      if (windowStart === NO_MORE_DOCS) return;
      const threshold = collector.threshold;
      let upTo: number;
      if (collector.totalHits < ctx.countUpTo || threshold === -Infinity) {
        // Counting exactly: a one-doc window where every term is essential.
        upTo = windowStart;
        essentialFrom = 0;
      } else {
        upTo = this.windowEnd(windowStart, essentialFrom);
        for (let i = 0; i < n; i++) bounds[i] = postings[i]!.doc === NO_MORE_DOCS ? 0 : this.termBound(i, upTo) * BOUND_SLACK;
        sortByBound(order, bounds, n);
        // The longest prefix (by ascending bound) whose terms together cannot beat the threshold.
        essentialFrom = 0;
        partial.fill(0, 0, n);
        while (essentialFrom < n) {
          partial[order[essentialFrom]] = bounds[order[essentialFrom]];
          this.combine();
          if (this.combined[0] > threshold) break;
          essentialFrom++;
        }
        if (essentialFrom === n) {
          if (upTo === NO_MORE_DOCS) return;
          for (let i = 0; i < n; i++) {
            const it = postings[i]!;
            if (it.doc <= upTo) it.advance(upTo + 1);
          }
          continue;
        }
      }
      for (;;) {
        let candidate = NO_MORE_DOCS;
        for (let e = essentialFrom; e < n; e++) {
          const d = postings[order[e]]!.doc;
          if (d < candidate) candidate = d;
        }
        if (candidate > upTo || candidate === NO_MORE_DOCS) break;
        if (live === null || live.isLive(candidate)) this.scoreCandidate(candidate, essentialFrom, docBase, collector);
        for (let e = essentialFrom; e < n; e++) {
          const it = postings[order[e]]!;
          if (it.doc === candidate) it.nextDoc();
        }
      }
      // Docs of this window matched only by non-essential terms cannot compete.
      if (upTo === NO_MORE_DOCS) return;
      for (let i = 0; i < essentialFrom; i++) {
        const it = postings[order[i]]!;
        if (it.doc <= upTo) it.advance(upTo + 1);
      }
    }
  }

  /** scoreMaxScore's scoreCandidate: exact scores of the essential terms, probes of the others. */
  private scoreCandidate(candidate: number, essentialFrom: number, docBase: number, collector: TopKCollector): void {
    const n = this.terms;
    const order = this.order;
    const partial = this.partial;
    const bounds = this.bounds;
    const postings = this.postings;
    for (let i = 0; i < essentialFrom; i++) partial[order[i]] = bounds[order[i]];
    for (let e = essentialFrom; e < n; e++) {
      const t = order[e];
      partial[t] = postings[t]!.doc === candidate ? this.termScore(t, candidate) : 0;
    }
    // Probe non-essential terms, highest bound first, while the doc can still compete.
    for (let i = essentialFrom - 1; i >= 0; i--) {
      this.combine();
      if (!(this.combined[0] > collector.threshold)) return;
      const t = order[i];
      const it = postings[t]!;
      if (it.doc < candidate) it.advance(candidate);
      partial[t] = it.doc === candidate ? this.termScore(t, candidate) : 0;
    }
    collector.totalHits++;
    this.combine();
    const score = this.combined[0];
    if (score > collector.threshold) collector.collect(docBase + candidate, score);
  }

  /** TermScorer.score of term t at `doc` (its current doc). */
  private termScore(t: number, doc: number): number {
    return bm25Score(this.weights[t], this.postings[t]!.freq(), this.normInverses[t]![this.norms[t]![doc]]);
  }

  /** TermScorer.maxScoreUpTo of term t (after advanceShallow). */
  private termBound(t: number, upTo: number): number {
    const it = this.postings[t]!;
    if (it.doc > upTo) return 0;
    const x = it.maxFreqNormUpTo(upTo, this.normInverses[t]!);
    if (x === 0) return 0;
    const w = this.weights[t];
    return w - w / (1 + x);
  }

  /**
   * Sets combined[0] to the combiner's combine over `partial`, with its exact arithmetic
   * (score-combiner.ts): the same additions and comparisons in the same order, so the same double.
   * Written to the array, not returned: a double returned from a call that is not inlined is a heap
   * number per candidate.
   */
  private combine(): void {
    const n = this.terms;
    const scores = this.partial;
    if (this.kind === SUM) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += scores[i];
      this.combined[0] = sum;
      return;
    }
    const groupOf = this.groupOf;
    const ties = this.tieBreakers;
    if (this.kind === SUM_OF_MAX) {
      let total = 0;
      let i = 0;
      while (i < n) {
        const g = groupOf[i];
        let sum = 0;
        let max = 0;
        for (; i < n && groupOf[i] === g; i++) {
          const s = scores[i];
          sum += s;
          if (s > max) max = s;
        }
        const tie = ties[g];
        total += tie === 0 ? max : max + tie * (sum - max);
      }
      this.combined[0] = total;
      return;
    }
    let sum = 0;
    let max = 0;
    let i = 0;
    while (i < n) {
      const g = groupOf[i];
      let groupSum = 0;
      for (; i < n && groupOf[i] === g; i++) groupSum += scores[i];
      sum += groupSum;
      if (groupSum > max) max = groupSum;
    }
    const tie = ties[0];
    this.combined[0] = tie === 0 ? max : max + tie * (sum - max);
  }

  /** scoreMaxScore's windowEnd: the nearest block end of the terms essential in the previous window. */
  private windowEnd(windowStart: number, previousEssentialFrom: number): number {
    const n = this.terms;
    const lead = Math.min(previousEssentialFrom, n - 1);
    const order = this.order;
    let end = NO_MORE_DOCS;
    for (let i = 0; i < n; i++) {
      const it = this.postings[order[i]]!;
      if (it.doc === NO_MORE_DOCS) continue;
      const blockEnd = it.advanceShallow(windowStart);
      if (i >= lead && blockEnd < end) end = blockEnd;
    }
    const leads = n - lead;
    if (leads > 1 && end !== NO_MORE_DOCS) end = Math.max(end, windowStart + 32 * leads - 1);
    return end;
  }
}

/** Sorts the first n term indexes by ascending bound (insertion sort, stable, as bulk-scorer.ts's). */
function sortByBound(order: Int32Array, bounds: Float64Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const idx = order[i];
    const b = bounds[idx];
    let j = i - 1;
    while (j >= 0 && bounds[order[j]] > b) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = idx;
  }
}

const shared = new TermDisjunction();
