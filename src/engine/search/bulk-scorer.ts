/**
 * Drives scorers over one segment into a {@link TopKCollector}, with dynamic pruning.
 *
 * Hits are counted exactly until `countUpTo` matches have been seen (Lucene's total hits
 * threshold); after that, pruning is allowed and the count becomes a lower bound.
 *
 * - {@link scoreWithBlockMax}: any scorer; skips each block range whose bound cannot beat the
 *   threshold (block-max WAND for a single term or a conjunction).
 * - {@link scoreConjunction}: a conjunction, block-max pruned per window as above, and per doc of
 *   the leading clause: a doc whose lead score plus the other clauses' window bounds cannot beat the
 *   threshold is passed over before the other clauses move to it (Lucene's block-max conjunction).
 * - {@link scoreMaxScore}: a disjunction of clauses combined by a monotone function (sum or
 *   dis_max): per window of blocks, clauses are split into "essential" ones, which alone can
 *   produce a competitive doc, and "non-essential" ones, only probed for candidates found by the
 *   essential ones while the candidate's bound still beats the threshold (Lucene's
 *   MaxScoreBulkScorer, after Turtle and Flood's MaxScore).
 */
import type { AcceptDocs } from './doc-set.js';
import type { ScoreCombiner } from './score-combiner.js';
import { BOUND_SLACK, NO_MORE_DOCS } from './scorer.js';
import type { Scorer } from './scorer.js';
import { scoreTermConjunction } from './term-conjunction.js';
import { scoreTermDisjunction } from './term-disjunction.js';
import type { TopKCollector } from './top-k-collector.js';

/** Shared state of one search across segments. */
export interface CollectContext {
  readonly collector: TopKCollector;
  /** Exact counting stops (and pruning starts) after this many hits. */
  readonly countUpTo: number;
}

/** Scores every doc of `scorer`, skipping non-competitive block ranges once counting is done. */
export function scoreWithBlockMax(scorer: Scorer, live: AcceptDocs | null, docBase: number, ctx: CollectContext): void {
  const collector = ctx.collector;
  let doc = scorer.nextDoc();
  let windowEnd = -1;
  let windowThreshold = NaN;
  while (doc !== NO_MORE_DOCS) {
    const threshold = collector.threshold;
    if (collector.totalHits >= ctx.countUpTo && threshold > -Infinity) {
      if (doc > windowEnd || threshold !== windowThreshold) {
        windowEnd = scorer.advanceShallow(doc);
        windowThreshold = threshold;
        if (scorer.maxScoreUpTo(windowEnd) * BOUND_SLACK <= threshold) {
          // Find the next window that can compete by shallow advances alone, so the blocks of the
          // windows skipped on the way are never decoded (Lucene's ImpactsDISI); only then move.
          let target: number;
          do {
            if (windowEnd === NO_MORE_DOCS) return;
            target = windowEnd + 1;
            windowEnd = scorer.advanceShallow(target);
          } while (scorer.maxScoreUpTo(windowEnd) * BOUND_SLACK <= threshold);
          doc = scorer.advance(target);
          continue;
        }
      }
    }
    if (live === null || live.isLive(doc)) {
      collector.totalHits++;
      const score = scorer.score();
      if (score > collector.threshold) collector.collect(docBase + doc, score);
    }
    doc = scorer.nextDoc();
  }
}

/**
 * Top-k over a conjunction: `clauses` by ascending cost (the first leads), `ordered` the same
 * clauses in the order their scores add up (so a doc's score is the conjunction scorer's own).
 * A conjunction of terms or unions of terms runs flat on their postings (term-conjunction.ts).
 */
export function scoreConjunction(
  clauses: readonly Scorer[],
  ordered: readonly Scorer[],
  live: AcceptDocs | null,
  docBase: number,
  ctx: CollectContext,
): void {
  if (!scoreTermConjunction(ordered, clauses, live, docBase, ctx)) scoreClauseConjunction(clauses, ordered, live, docBase, ctx);
}

/** {@link scoreConjunction} through the clause scorers, whatever they are. */
export function scoreClauseConjunction(
  clauses: readonly Scorer[],
  ordered: readonly Scorer[],
  live: AcceptDocs | null,
  docBase: number,
  ctx: CollectContext,
): void {
  const collector = ctx.collector;
  const n = clauses.length;
  const lead = clauses[0];
  let windowEnd = -1;
  let windowThreshold = NaN;
  /** Sum of the window bounds of every clause but the lead. */
  let restBound = Infinity;
  let doc = lead.nextDoc();
  outer: while (doc !== NO_MORE_DOCS) {
    /** The lead's score of `doc` once computed (NaN before): scored once, not again in the sum. */
    let leadScore = NaN;
    const threshold = collector.threshold;
    if (collector.totalHits >= ctx.countUpTo && threshold > -Infinity) {
      if (doc > windowEnd || threshold !== windowThreshold) {
        windowThreshold = threshold;
        let start = doc;
        for (;;) {
          windowEnd = NO_MORE_DOCS;
          for (let i = 0; i < n; i++) {
            const end = clauses[i].advanceShallow(start);
            if (end < windowEnd) windowEnd = end;
          }
          const leadBound = lead.maxScoreUpTo(windowEnd);
          restBound = 0;
          for (let i = 1; i < n; i++) restBound += clauses[i].maxScoreUpTo(windowEnd);
          if ((leadBound + restBound) * BOUND_SLACK > threshold) break;
          // Nothing in this window can compete: on to the next, by shallow advances only.
          if (windowEnd === NO_MORE_DOCS) return;
          start = windowEnd + 1;
        }
        if (start > doc) {
          doc = lead.advance(start);
          continue;
        }
      }
      // The lead's own score first: most docs of a frequent lead cannot compete whatever the others add.
      leadScore = lead.score();
      if ((leadScore + restBound) * BOUND_SLACK <= threshold) {
        doc = lead.nextDoc();
        continue;
      }
    }
    for (let i = 1; i < n; i++) {
      const c = clauses[i];
      const d = c.doc < doc ? c.advance(doc) : c.doc;
      if (d !== doc) {
        doc = lead.advance(d);
        continue outer;
      }
    }
    if (live === null || live.isLive(doc)) {
      collector.totalHits++;
      let score = 0;
      for (let i = 0; i < n; i++) {
        const c = ordered[i];
        score += c === lead && !Number.isNaN(leadScore) ? leadScore : c.score();
      }
      if (score > collector.threshold) collector.collect(docBase + doc, score);
    }
    doc = lead.nextDoc();
  }
}

/**
 * Top-k over a disjunction of `clauses` combined by `combiner`, with MaxScore pruning. A
 * disjunction of terms runs flat on their postings (term-disjunction.ts).
 */
export function scoreMaxScore(
  clauses: readonly Scorer[],
  combiner: ScoreCombiner,
  live: AcceptDocs | null,
  docBase: number,
  ctx: CollectContext,
): void {
  if (!scoreTermDisjunction(clauses, combiner, live, docBase, ctx)) scoreClauseMaxScore(clauses, combiner, live, docBase, ctx);
}

/** {@link scoreMaxScore} through the clause scorers and the combiner, whatever they are. */
export function scoreClauseMaxScore(
  clauses: readonly Scorer[],
  combiner: ScoreCombiner,
  live: AcceptDocs | null,
  docBase: number,
  ctx: CollectContext,
): void {
  const n = clauses.length;
  const collector = ctx.collector;
  const bounds = new Float64Array(n);
  const partial = new Float64Array(n);
  /** Clause indexes by ascending window bound; order[essentialFrom..] are the essential ones. */
  const order = Array.from({ length: n }, (_, i) => i);
  let essentialFrom = 0;
  for (const c of clauses) c.nextDoc();

  while (true) {
    const windowStart = minDoc(clauses);
    if (windowStart === NO_MORE_DOCS) return;
    const threshold = collector.threshold;
    let upTo: number;
    if (collector.totalHits < ctx.countUpTo || threshold === -Infinity) {
      // Counting exactly: a one-doc window where every clause is essential.
      upTo = windowStart;
      essentialFrom = 0;
    } else {
      upTo = windowEnd(windowStart, essentialFrom);
      for (let i = 0; i < n; i++) {
        const c = clauses[i];
        bounds[i] = c.doc === NO_MORE_DOCS ? 0 : c.maxScoreUpTo(upTo) * BOUND_SLACK;
      }
      sortByBound(order, bounds);
      // The longest prefix (by ascending bound) whose clauses together cannot beat the threshold.
      essentialFrom = 0;
      partial.fill(0);
      while (essentialFrom < n) {
        // By clause index: a combiner may group clauses (per-field sums under a dis_max).
        partial[order[essentialFrom]] = bounds[order[essentialFrom]];
        if (combiner.exceeds(partial, n, threshold)) break;
        essentialFrom++;
      }
      if (essentialFrom === n) {
        if (upTo === NO_MORE_DOCS) return;
        for (const c of clauses) if (c.doc <= upTo) c.advance(upTo + 1);
        continue;
      }
    }
    while (true) {
      let candidate = NO_MORE_DOCS;
      for (let e = essentialFrom; e < n; e++) {
        const d = clauses[order[e]].doc;
        if (d < candidate) candidate = d;
      }
      if (candidate > upTo || candidate === NO_MORE_DOCS) break;
      if (live === null || live.isLive(candidate)) scoreCandidate(candidate, essentialFrom);
      for (let e = essentialFrom; e < n; e++) {
        const c = clauses[order[e]];
        if (c.doc === candidate) c.nextDoc();
      }
    }
    // Docs of this window matched only by non-essential clauses cannot compete.
    if (upTo === NO_MORE_DOCS) return;
    for (let i = 0; i < essentialFrom; i++) {
      const c = clauses[order[i]];
      if (c.doc <= upTo) c.advance(upTo + 1);
    }
  }

  /**
   * Window end for a window starting at `windowStart` (Lucene's MaxScoreBulkScorer): the nearest
   * block end of the clauses essential in the previous window only, since a rare non-essential
   * clause's block boundary would otherwise cut every window short (its bound may span several
   * blocks), and at least 32 docs per such clause, so that the bounds and the split are not
   * recomputed every few docs. Every clause's bounds start at the window (advanceShallow).
   */
  function windowEnd(windowStart: number, previousEssentialFrom: number): number {
    const lead = Math.min(previousEssentialFrom, n - 1);
    let end = NO_MORE_DOCS;
    for (let i = 0; i < n; i++) {
      const c = clauses[order[i]];
      if (c.doc === NO_MORE_DOCS) continue;
      const blockEnd = c.advanceShallow(windowStart);
      if (i >= lead && blockEnd < end) end = blockEnd;
    }
    const leads = n - lead;
    if (leads > 1 && end !== NO_MORE_DOCS) end = Math.max(end, windowStart + 32 * leads - 1);
    return end;
  }

  function scoreCandidate(candidate: number, essentialFrom: number): void {
    // `partial` holds the score of each clause already evaluated (0 if it does not match) and the
    // bound of each non-essential clause not probed yet; probing replaces one bound at a time.
    for (let i = 0; i < essentialFrom; i++) partial[order[i]] = bounds[order[i]];
    for (let e = essentialFrom; e < n; e++) {
      const idx = order[e];
      const c = clauses[idx];
      partial[idx] = c.doc === candidate ? c.score() : 0;
    }
    // Probe non-essential clauses, highest bound first, while the doc can still compete.
    for (let i = essentialFrom - 1; i >= 0; i--) {
      if (!combiner.exceeds(partial, n, collector.threshold)) return;
      const idx = order[i];
      const c = clauses[idx];
      if (c.doc < candidate) c.advance(candidate);
      partial[idx] = c.doc === candidate ? c.score() : 0;
    }
    collector.totalHits++;
    const score = combiner.combine(partial, n);
    if (score > collector.threshold) collector.collect(docBase + candidate, score);
  }
}

/** Sorts clause indexes by ascending bound (insertion sort: a handful of clauses, mostly in order already). */
function sortByBound(order: number[], bounds: Float64Array): void {
  for (let i = 1; i < order.length; i++) {
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

function minDoc(clauses: readonly Scorer[]): number {
  let min = NO_MORE_DOCS;
  for (const c of clauses) if (c.doc < min) min = c.doc;
  return min;
}
