/**
 * Top-k over a conjunction of words, each word one term or a union of terms (a cross_fields "and"
 * query: each word is a dis_max of the word over the fields; an "and" match: each word one term).
 * It is {@link scoreConjunction}'s block-max conjunction run on the term postings themselves, with
 * MaxScore's split of essential and non-essential terms inside each word:
 *
 * - per window of blocks, a term of one block (at most 128 docs: a word in a short field, or in a
 *   small segment) is moved to the window first, so that its bound is 0 unless it has a doc in the
 *   window; otherwise its one block bounds every window of the segment with its best doc anywhere;
 * - a term is essential when it alone, with every other word at its window bound, could beat the
 *   threshold; a doc where some word matches only by non-essential terms cannot compete, so the
 *   words are leap-frogged over their essential terms alone, from the word whose essential terms
 *   are fewest. In a cross_fields query the word's terms in a long field (a description) are
 *   dense and score low: they stop driving the intersection, and their blocks are decoded only
 *   around candidates found by the short fields;
 * - a doc of the lead is passed over when its score plus the other words' window bounds cannot
 *   compete, before the other words move to it; a candidate of every word is bounded by its words'
 *   scores from the terms on it plus the window bounds of the terms not moved to it yet, and only
 *   moved and scored in full when that bound competes;
 * - scores and bounds are computed over flat per-term arrays (monomorphic calls to the postings
 *   iterator, no Scorer interface in the loop, no heap number per candidate).
 *
 * Scores are the nested scorers' own arithmetic (each word's score as its scorer computes it, the
 * words added in query order from 0), so the hits and scores are exactly those of the general path.
 */
import type { PostingsIterator } from '../codec/postings/postings-reader.js';
import { bm25Score } from './bm25.js';
import { DisjunctionScorer } from './disjunction-scorer.js';
import type { AcceptDocs } from './doc-set.js';
import type { ScoreCombiner } from './score-combiner.js';
import { BOUND_SLACK, NO_MORE_DOCS } from './scorer.js';
import type { Scorer } from './scorer.js';
import { TermScorer } from './term-scorer.js';
import type { TopKCollector } from './top-k-collector.js';

/** A word scored by its one term. */
/** The widest window of blocks, in docs, unless the nearest block end of all the terms is further. */
const WINDOW = 2048;

const SINGLE = 0;
/** A word scored by the best of its terms (a dis_max without tie breaker). */
const MAX = 1;
/** A word scored by its combiner over its terms. */
const COMBINE = 2;

/** Shared state of one search across segments (bulk-scorer.ts's CollectContext). */
interface Collecting {
  readonly collector: TopKCollector;
  readonly countUpTo: number;
}

/**
 * Scores a conjunction with {@link TermConjunction} when each of its clauses is a term scorer or a
 * disjunction of term scorers; returns false (and does nothing) for any other shape.
 * @param ordered the clauses in query order (the order their scores add up in)
 * @param byCost the same clauses by ascending cost (the first leads)
 */
export function scoreTermConjunction(ordered: readonly Scorer[], byCost: readonly Scorer[], live: AcceptDocs | null, docBase: number, ctx: Collecting): boolean {
  // One instance for every segment and query (they never overlap: a search scores one segment at a
  // time), so that a query's set-up does not allocate a dozen arrays per segment.
  const conjunction = shared;
  if (!conjunction.load(ordered, byCost)) return false;
  try {
    conjunction.run(live, docBase, ctx);
  } finally {
    conjunction.unload();
  }
  return true;
}

/** One segment's conjunction of words over flat arrays of their terms; reused (see {@link load}). */
class TermConjunction {
  /** Number of words and of terms loaded. */
  private words = 0;
  private terms = 0;
  /** Every word's terms, word after word (entries past `terms` are null). */
  private postings: (PostingsIterator | null)[] = [];
  private norms: (Uint8Array | null)[] = [];
  private weights = new Float64Array(8);
  private normInverses: (Float64Array | null)[] = [];
  /** Word w's terms are wordStart[w] to wordStart[w + 1] - 1. */
  private wordStart = new Int32Array(9);
  private modes = new Uint8Array(8);
  private combiners: (ScoreCombiner | null)[] = [];
  /** Words by ascending cost: the first leads, the others are moved to its docs in this order. */
  private order = new Int32Array(8);
  /** Per word: its score at the current candidate (valid for the words matched so far). */
  private scores = new Float64Array(8);
  /** Per word: its bound over the current window. */
  private bounds = new Float64Array(8);
  /** Per word: the sum of the other words' window bounds. */
  private othersBound = new Float64Array(8);
  /** Per term: its bound over the current window. */
  private termBounds = new Float64Array(8);
  /** The sum of the words' window bounds. */
  private windowBound = 0;
  /**
   * Per term: 1 when a competitive doc may have its word matched by this term alone (all terms
   * until pruning starts); the words' docs are leap-frogged over their essential terms only, the
   * others are moved only to score a candidate.
   */
  private essential = new Uint8Array(8);
  /** The word whose essential terms lead the leap-frog: the cheapest. */
  private lead = 0;
  /** Scratch for a COMBINE word's term scores or bounds. */
  private termScratch = new Float64Array(8);

  /**
   * Loads the flat form of a conjunction's clauses (for {@link run}); false, with nothing loaded,
   * when one is neither a term nor a union of terms.
   */
  load(ordered: readonly Scorer[], byCost: readonly Scorer[]): boolean {
    const n = ordered.length;
    let count = 0;
    let widest = 1;
    for (let w = 0; w < n; w++) {
      const c = ordered[w];
      if (c instanceof TermScorer) count++;
      else if (c instanceof DisjunctionScorer && c.clauses.every((t) => t instanceof TermScorer)) {
        count += c.clauses.length;
        widest = Math.max(widest, c.clauses.length);
      } else return false;
    }
    this.reserve(n, count, widest);
    this.words = n;
    this.terms = count;
    const { wordStart, modes, combiners } = this;
    let t = 0;
    for (let w = 0; w < n; w++) {
      const c = ordered[w];
      wordStart[w] = t;
      if (c instanceof TermScorer) {
        modes[w] = SINGLE;
        combiners[w] = null;
        this.add(t++, c);
      } else if (c instanceof DisjunctionScorer) {
        modes[w] = c.combiner.plainMax ? MAX : COMBINE;
        combiners[w] = c.combiner;
        for (const term of c.clauses) if (term instanceof TermScorer) this.add(t++, term);
      }
    }
    wordStart[n] = t;
    for (let j = 0; j < n; j++) this.order[j] = ordered.indexOf(byCost[j]);
    this.essential.fill(1, 0, count);
    this.lead = this.order[0];
    this.windowBound = 0;
    return true;
  }

  /** Drops the references to the loaded segment's postings, norms and combiners. */
  unload(): void {
    this.postings.fill(null, 0, this.terms);
    this.norms.fill(null, 0, this.terms);
    this.normInverses.fill(null, 0, this.terms);
    this.combiners.fill(null, 0, this.words);
    this.words = 0;
    this.terms = 0;
  }

  private add(t: number, term: TermScorer): void {
    this.postings[t] = term.postings;
    this.norms[t] = term.norms;
    this.weights[t] = term.weight;
    this.normInverses[t] = term.normInverse;
  }

  /** Grows the arrays to hold `words` words of `terms` terms, none wider than `widest`. */
  private reserve(words: number, terms: number, widest: number): void {
    if (this.modes.length < words) {
      const size = Math.max(words, 2 * this.modes.length);
      this.wordStart = new Int32Array(size + 1);
      this.modes = new Uint8Array(size);
      this.order = new Int32Array(size);
      this.scores = new Float64Array(size);
      this.bounds = new Float64Array(size);
      this.othersBound = new Float64Array(size);
    }
    if (this.weights.length < terms) {
      const size = Math.max(terms, 2 * this.weights.length);
      this.weights = new Float64Array(size);
      this.termBounds = new Float64Array(size);
      this.essential = new Uint8Array(size);
    }
    if (this.termScratch.length < widest) this.termScratch = new Float64Array(Math.max(widest, 2 * this.termScratch.length));
  }

  /** Collects the segment's matches into `ctx.collector`, passing over those that cannot compete. */
  run(live: AcceptDocs | null, docBase: number, ctx: Collecting): void {
    const collector = ctx.collector;
    const order = this.order;
    const scores = this.scores;
    const n = this.words;
    let windowEnd = NO_MORE_DOCS;
    let windowThreshold = NaN;
    let pruning = false;
    let target = 0;
    outer: for (;;) {
      const threshold = collector.threshold;
      if (!pruning && collector.totalHits >= ctx.countUpTo && threshold > -Infinity) {
        pruning = true;
        windowEnd = -1;
      }
      if (pruning && (target > windowEnd || threshold !== windowThreshold)) {
        windowThreshold = threshold;
        for (;;) {
          windowEnd = this.window(target, threshold);
          if (this.windowBound * BOUND_SLACK > threshold) break;
          // Nothing in this window can compete: on to the next, by shallow advances only.
          if (windowEnd === NO_MORE_DOCS) return;
          target = windowEnd + 1;
        }
      }
      // The next doc >= target where every word has an essential term (leap-frog from the lead).
      const lead = this.lead;
      const doc = this.advanceWord(lead, target, true);
      if (doc > windowEnd || doc === NO_MORE_DOCS) {
        if (windowEnd === NO_MORE_DOCS) return;
        target = windowEnd + 1;
        continue;
      }
      // The lead's score of `doc` once computed (NaN before), with whether it is exact: the other
      // words' moves leave the lead's terms where they are, so it is not computed again in the sum.
      let leadScore = NaN;
      let leadExact = false;
      if (pruning) {
        // The lead's own score (or bound) first, with every other word at its window bound: most
        // docs of a frequent lead cannot compete whatever the others add, and are passed over
        // before the others move to them.
        leadExact = this.scoreWord(lead, doc);
        leadScore = scores[lead];
        if ((leadScore + this.othersBound[lead]) * BOUND_SLACK <= threshold) {
          target = doc + 1;
          continue;
        }
      }
      for (let j = 0; j < n; j++) {
        const w = order[j];
        if (w === lead) continue;
        const d = this.advanceWord(w, doc, true);
        if (d !== doc) {
          if (d > windowEnd || d === NO_MORE_DOCS) {
            if (windowEnd === NO_MORE_DOCS) return;
            target = windowEnd + 1;
          } else {
            target = d;
          }
          continue outer;
        }
      }
      target = doc + 1;
      if (live !== null && !live.isLive(doc)) continue;
      // Each word's score from its terms at this doc, a term not moved here yet (a non-essential
      // one) counting as its window bound; in query order from 0, the general conjunction's sum.
      let score = 0;
      let exact = true;
      for (let w = 0; w < n; w++) {
        if (w === lead && leadScore === leadScore) {
          scores[w] = leadScore;
          if (!leadExact) exact = false;
        } else if (!this.scoreWord(w, doc)) {
          exact = false;
        }
        score += scores[w];
      }
      if (!exact) {
        if (score * BOUND_SLACK <= threshold) {
          continue;
        }
        score = 0;
        for (let w = 0; w < n; w++) {
          this.advanceWord(w, doc, false);
          this.scoreWord(w, doc);
          score += scores[w];
        }
      }
      collector.totalHits++;
      if (score > collector.threshold) collector.collect(docBase + doc, score);
    }
  }

  /**
   * Bounds every term and word over the window of blocks starting at `start`, marks the terms that
   * are essential against `threshold` and picks the lead word; returns the window's last doc: the
   * nearest block end over all the terms.
   */
  private window(start: number, threshold: number): number {
    const postings = this.postings;
    // The window ends with the nearest block end of any term, but reaches as far as the lead
    // word's nearest block end up to WINDOW docs (Lucene's block-max conjunction follows the lead's
    // blocks): a rare lead is not stepped through every block of a frequent word it hardly meets,
    // and a bound over a wide window does not walk every block of a frequent word either.
    const leadFrom = this.wordStart[this.lead];
    const leadTo = this.wordStart[this.lead + 1];
    let end = NO_MORE_DOCS;
    let leadEnd = NO_MORE_DOCS;
    for (let t = 0, count = this.terms; t < count; t++) {
      const it = postings[t]!;
      // A one-block term is moved to the window (no block decoded but its one), so that its bound
      // is 0 unless it has a doc here. Every word moves only forward to docs >= start from now on.
      if (it.singleBlock && it.doc < start) it.advance(start);
      const e = it.advanceShallow(start);
      if (e < end) end = e;
      if (t >= leadFrom && t < leadTo && e < leadEnd) leadEnd = e;
    }
    end = Math.max(end, Math.min(leadEnd, start + WINDOW - 1));
    const bounds = this.bounds;
    const n = this.words;
    let total = 0;
    for (let w = 0; w < n; w++) {
      this.boundWord(w, end);
      total += bounds[w];
    }
    this.windowBound = total;
    // A term of a MAX word is essential when it alone, with every other word at its bound, could
    // beat the threshold: a doc where a word matches only by non-essential terms cannot compete.
    const essential = this.essential;
    const termBounds = this.termBounds;
    let leadCost = Infinity;
    for (let w = 0; w < n; w++) {
      let others = 0;
      for (let v = 0; v < n; v++) if (v !== w) others += bounds[v];
      this.othersBound[w] = others;
      const from = this.wordStart[w];
      const to = this.wordStart[w + 1];
      const all = this.modes[w] === COMBINE;
      let cost = 0;
      for (let t = from; t < to; t++) {
        const on = all || (termBounds[t] + others) * BOUND_SLACK > threshold;
        essential[t] = on ? 1 : 0;
        if (on) cost += postings[t]!.cost;
      }
      if (cost < leadCost) {
        leadCost = cost;
        this.lead = w;
      }
    }
    return end;
  }

  /**
   * Moves the terms of word `w` behind `target` to it, only its essential ones when
   * `essentialOnly`; returns the first doc >= target of those terms (or NO_MORE_DOCS).
   */
  private advanceWord(w: number, target: number, essentialOnly: boolean): number {
    const postings = this.postings;
    const essential = this.essential;
    let min = NO_MORE_DOCS;
    for (let t = this.wordStart[w], to = this.wordStart[w + 1]; t < to; t++) {
      if (essentialOnly && essential[t] === 0) continue;
      const it = postings[t]!;
      let d = it.doc;
      if (d < target) d = it.advance(target);
      if (d < min) min = d;
    }
    return min;
  }

  /**
   * Sets scores[w] to word w's score of `doc`, which it matches (TermScorer.score or
   * DisjunctionScorer.score), and returns true; a term still behind `doc` counts as its window
   * bound instead (and the result is false: scores[w] is then a bound). Written to the array, not
   * returned: a double returned from a call that is not inlined is a heap number per candidate.
   */
  private scoreWord(w: number, doc: number): boolean {
    const from = this.wordStart[w];
    const to = this.wordStart[w + 1];
    const mode = this.modes[w];
    const postings = this.postings;
    const scratch = this.termScratch;
    let exact = true;
    let max = 0;
    for (let t = from; t < to; t++) {
      const it = postings[t]!;
      let s = 0;
      if (it.doc === doc) {
        s = bm25Score(this.weights[t], it.freq(), this.normInverses[t]![this.norms[t]![doc]]);
      } else if (it.doc < doc) {
        s = this.termBounds[t];
        exact = false;
      }
      if (s > max) max = s;
      scratch[t - from] = s;
    }
    // A single term matches `doc` (its word does), and is its own score.
    this.scores[w] = mode === SINGLE ? scratch[0] : mode === MAX ? max : this.combiners[w]!.combine(scratch, to - from);
    return exact;
  }

  /**
   * Sets bounds[w] to an upper bound of word w's score up to `upTo` from its terms' shallow blocks:
   * the word's combination of TermScorer.maxScoreUpTo of each term.
   */
  private boundWord(w: number, upTo: number): void {
    const from = this.wordStart[w];
    const to = this.wordStart[w + 1];
    const postings = this.postings;
    const scratch = this.termScratch;
    let max = 0;
    for (let t = from; t < to; t++) {
      const it = postings[t]!;
      let b = 0;
      if (it.doc <= upTo) {
        const x = it.maxFreqNormUpTo(upTo, this.normInverses[t]!);
        if (x !== 0) {
          const weight = this.weights[t];
          b = weight - weight / (1 + x);
        }
      }
      if (b > max) max = b;
      scratch[t - from] = b;
      this.termBounds[t] = b;
    }
    this.bounds[w] = this.modes[w] === COMBINE ? this.combiners[w]!.combine(scratch, to - from) : max;
  }
}

const shared = new TermConjunction();
