/**
 * Builds per-segment scorers from a query tree. Shapes that allow dynamic pruning are flattened
 * into one disjunction of term scorers (sums of "or" term groups, best_fields over them, plain bool
 * should-only queries) so MaxScore and block-max skipping see every term at once.
 */
import type { BlockBufferPool } from '../codec/postings/postings-reader.js';
import type { SegmentView } from '../segment/snapshot.js';
import { BoolScorer } from './bool-scorer.js';
import { ConjunctionScorer } from './conjunction-scorer.js';
import { ConstantScoreScorer } from './constant-score-scorer.js';
import { DisjunctionScorer } from './disjunction-scorer.js';
import { DocBits } from './doc-set.js';
import { PhraseScorer } from './phrase-scorer.js';
import { ScoredDocsScorer } from './scored-docs-scorer.js';
import type { FieldTermsQuery, PhraseQuery, Query } from './query.js';
import { disMaxCombiner, groupedDisMaxCombiner, groupedSumOfDisMaxCombiner, sumCombiner } from './score-combiner.js';
import { NO_MORE_DOCS } from './scorer.js';
import type { Scorer } from './scorer.js';
import { TermScorer } from './term-scorer.js';

/** Per-term scoring constants, computed once per search over the whole snapshot. */
export interface TermWeight {
  readonly weight: number;
  readonly normInverse: Float64Array;
}

/** Looks up a term's weight for a boost; null when the term occurs in no doc of the snapshot. */
export type WeightOf = (field: string, term: string, boost: number) => TermWeight | null;

/** What building a search's scorers needs besides the query and the segment. */
export interface ScoringContext {
  readonly weightOf: WeightOf;
  /**
   * Lends the term iterators their block buffers; the scorers built must not be used after the
   * caller releases the pool to its mark from before the build. Null: iterators own their buffers.
   */
  readonly buffers: BlockBufferPool | null;
}

/**
 * Builds the scorer of a (rewritten) query over one segment: null when nothing in the segment can
 * match. Term weights come from `scoring.weightOf`, so scores are the same whichever segment a doc is in.
 * @throws Error on a fuzzy query: those are expanded by the searcher's rewrite before this.
 */
export function buildScorer(query: Query, segment: SegmentView, scoring: ScoringContext): Scorer | null {
  switch (query.kind) {
    case 'match_all':
      return ConstantScoreScorer.all(segment.reader.maxDoc, query.boost);
    case 'terms':
      return buildTermsScorer(query, segment, scoring);
    case 'dis_max':
      if (query.clauses.every((c) => c.kind === 'terms' && c.operator === 'or')) {
        return buildGroupedDisMax(query.clauses as readonly FieldTermsQuery[], query.tieBreaker, segment, scoring);
      }
      return buildCompound(query, segment, scoring);
    case 'sum':
      return buildCompound(query, segment, scoring);
    case 'bool':
      return buildBoolScorer(query, segment, scoring);
    case 'phrase':
      return buildPhraseScorer(query, segment, scoring);
    case 'prefix':
      return buildPrefixScorer(query.field, query.value, query.boost, segment);
    case 'fuzzy':
      throw new Error('fuzzy queries are rewritten before scoring');
    case 'knn':
      throw new Error('knn queries are rewritten before scoring');
    case 'scored_docs':
      return ScoredDocsScorer.forSegment(query.docs, query.scores, segment.docBase, segment.reader.maxDoc);
  }
}

/** A sum or dis_max of whole clause scorers ("or" term groups of a sum are flattened to terms). */
function buildCompound(query: Extract<Query, { kind: 'sum' | 'dis_max' }>, segment: SegmentView, scoring: ScoringContext): Scorer | null {
  const combiner = query.kind === 'sum' ? sumCombiner : disMaxCombiner(query.tieBreaker);
  const clauses: Scorer[] = [];
  for (const clause of query.clauses) {
    // A sum of "or" term groups is flattened into one sum of terms: more room for pruning.
    if (query.kind === 'sum' && clause.kind === 'terms' && clause.operator === 'or') {
      for (const term of clause.terms) {
        const s = termScorer(clause.field, term, clause.boost, segment, scoring);
        if (s !== null) clauses.push(s);
      }
      continue;
    }
    const s = buildScorer(clause, segment, scoring);
    if (s !== null) clauses.push(s);
  }
  if (clauses.length === 0) return null;
  if (clauses.length === 1 && query.kind === 'sum') return clauses[0];
  return new DisjunctionScorer(clauses, combiner);
}

/** best_fields over "or" term groups, flattened to one clause per term (see groupedDisMaxCombiner). */
function buildGroupedDisMax(groups: readonly FieldTermsQuery[], tieBreaker: number, segment: SegmentView, scoring: ScoringContext): Scorer | null {
  const clauses: Scorer[] = [];
  let termCount = 0;
  for (const group of groups) termCount += group.terms.length;
  // Sized for every term (typed, no list grown and copied): built per segment and query.
  const groupOf = new Int32Array(termCount);
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g];
    for (const term of group.terms) {
      const s = termScorer(group.field, term, group.boost, segment, scoring);
      if (s === null) continue;
      groupOf[clauses.length] = g;
      clauses.push(s);
    }
  }
  if (clauses.length === 0) return null;
  if (clauses.length === 1) return clauses[0];
  return new DisjunctionScorer(clauses, groupedDisMaxCombiner(groupOf.subarray(0, clauses.length), groups.length, tieBreaker));
}

function buildBoolScorer(query: Extract<Query, { kind: 'bool' }>, segment: SegmentView, scoring: ScoringContext): Scorer | null {
  if (isWordDisjunction(query)) return buildWordDisjunction(query.should, segment, scoring);
  const build = (qs: readonly Query[]): (Scorer | null)[] => qs.map((q) => buildScorer(q, segment, scoring));
  const must = build(query.must);
  const filter = build(query.filter);
  if (must.includes(null) || filter.includes(null)) return null;
  const should = build(query.should).filter((s): s is Scorer => s !== null);
  const mustNot = build(query.mustNot).filter((s): s is Scorer => s !== null);
  if (should.length < query.minimumShouldMatch) return null;
  const required = must.length + filter.length;
  // Only must_not clauses (or nothing): every doc is a candidate, scored 0.
  if (required === 0 && should.length === 0) filter.push(ConstantScoreScorer.all(segment.reader.maxDoc, 0));
  if (required === 0 && mustNot.length === 0 && query.minimumShouldMatch <= 1 && should.length > 1 && query.boost === 1) {
    // A plain disjunction: let MaxScore prune it.
    return new DisjunctionScorer(should, sumCombiner);
  }
  if (filter.length === 0 && should.length === 0 && mustNot.length === 0 && query.boost === 1) {
    // Only scored required clauses (an "and" cross_fields query): a plain conjunction, whose sum of
    // the clause scores in clause order is the bool's own.
    return must.length === 1 ? must[0] : new ConjunctionScorer(must as Scorer[]);
  }
  const scorer = new BoolScorer(must as Scorer[], filter as Scorer[], should, mustNot, query.minimumShouldMatch);
  return query.boost === 1 ? scorer : new BoostedScorer(scorer, query.boost);
}

/** A single term of one field, scored (not a filter): one clause of a flattened word group. */
function isSingleTerm(q: Query): q is FieldTermsQuery {
  return q.kind === 'terms' && q.operator === 'or' && q.terms.length === 1;
}

/**
 * A should-only bool whose clauses are words, each a single term or a dis_max of single terms over
 * fields: the shape of an "or" cross_fields query. It scores the sum over matching words of each
 * word's dis_max, which {@link buildWordDisjunction} flattens for MaxScore.
 */
function isWordDisjunction(query: Extract<Query, { kind: 'bool' }>): boolean {
  return query.must.length === 0 && query.filter.length === 0 && query.mustNot.length === 0 && query.boost === 1 &&
    query.minimumShouldMatch <= 1 && query.should.length > 0 &&
    query.should.every((w) => isSingleTerm(w) || (w.kind === 'dis_max' && w.clauses.every(isSingleTerm)));
}

/**
 * One disjunction of every (field, word) term, combined as a sum over words of each word's dis_max
 * (groupedSumOfDisMaxCombiner): the same scores as the nested bool of dis_max scorers, with room
 * for MaxScore to skip the docs of common terms that cannot make the top k.
 */
function buildWordDisjunction(words: readonly Query[], segment: SegmentView, scoring: ScoringContext): Scorer | null {
  const clauses: Scorer[] = [];
  let termCount = 0;
  for (const word of words) termCount += word.kind === 'dis_max' ? word.clauses.length : 1;
  // Typed arrays sized up front, loops rather than closures: built per segment and query.
  const groupOf = new Int32Array(termCount);
  // A single-term word has no other clauses, so its tie breaker does not matter.
  const tieBreakers = new Float64Array(words.length);
  for (let g = 0; g < words.length; g++) {
    const word = words[g];
    if (word.kind === 'dis_max') {
      tieBreakers[g] = word.tieBreaker;
      for (const t of word.clauses as readonly FieldTermsQuery[]) addWordTerm(t, g);
    } else {
      addWordTerm(word as FieldTermsQuery, g);
    }
  }
  if (clauses.length === 0) return null;
  if (clauses.length === 1) return clauses[0];
  return new DisjunctionScorer(clauses, groupedSumOfDisMaxCombiner(groupOf.subarray(0, clauses.length), tieBreakers));

  function addWordTerm(t: FieldTermsQuery, g: number): void {
    const s = termScorer(t.field, t.terms[0], t.boost, segment, scoring);
    if (s === null) return;
    groupOf[clauses.length] = g;
    clauses.push(s);
  }
}

function buildPhraseScorer(query: PhraseQuery, segment: SegmentView, scoring: ScoringContext): Scorer | null {
  if (query.terms.length === 0) return null;
  const norms = segment.reader.fieldNorms(query.field);
  if (norms === undefined) return null;
  const postings = [];
  let weight = 0;
  // An exact phrase occurs at most as often as its rarest term; a sloppy sweep finds at most one
  // window per position it visits.
  let maxFreq = query.slop === 0 ? Infinity : 0;
  let minNorm = 0;
  let normInverse: Float64Array | null = null;
  for (const term of query.terms) {
    const info = segment.reader.termInfo(query.field, term);
    const w = scoring.weightOf(query.field, term, query.boost);
    if (info === undefined || w === null) return null;
    postings.push(segment.reader.postings(info, scoring.buffers));
    weight += w.weight;
    normInverse = w.normInverse;
    maxFreq = query.slop === 0 ? Math.min(maxFreq, info.maxFreq) : maxFreq + info.maxFreq;
    minNorm = Math.max(minNorm, info.minNorm);
  }
  return new PhraseScorer(postings, query.positions, query.slop, norms, weight, normInverse!, maxFreq, minNorm);
}

function buildPrefixScorer(field: string, prefix: string, boost: number, segment: SegmentView): Scorer | null {
  const bits = new DocBits(segment.reader.maxDoc);
  let cost = 0;
  for (const entry of segment.reader.terms.terms(field, prefix)) {
    if (!entry.term.startsWith(prefix)) break;
    const it = segment.reader.postings(entry);
    for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) bits.bits[d] = 1;
    cost += entry.docFreq;
  }
  return cost === 0 ? null : new ConstantScoreScorer(bits, segment.reader.maxDoc, boost, cost);
}

function buildTermsScorer(query: FieldTermsQuery, segment: SegmentView, scoring: ScoringContext): Scorer | null {
  const scorers: Scorer[] = [];
  for (const term of query.terms) {
    const s = termScorer(query.field, term, query.boost, segment, scoring);
    if (s === null) {
      if (query.operator === 'and') return null;
      continue;
    }
    scorers.push(s);
  }
  if (scorers.length === 0) return null;
  if (scorers.length === 1) return scorers[0];
  return query.operator === 'and' ? new ConjunctionScorer(scorers) : new DisjunctionScorer(scorers, sumCombiner);
}

function termScorer(field: string, term: string, boost: number, segment: SegmentView, scoring: ScoringContext): Scorer | null {
  const info = segment.reader.termInfo(field, term);
  if (info === undefined) return null;
  const w = scoring.weightOf(field, term, boost);
  const norms = segment.reader.fieldNorms(field);
  if (w === null || norms === undefined) return null;
  return new TermScorer(segment.reader.postings(info, scoring.buffers), norms, w.weight, w.normInverse, info.maxFreq, info.minNorm);
}

/** Multiplies a scorer's scores (and bounds) by a boost. */
class BoostedScorer implements Scorer {
  constructor(
    private readonly inner: Scorer,
    private readonly boost: number,
  ) {}
  get doc(): number {
    return this.inner.doc;
  }
  get cost(): number {
    return this.inner.cost;
  }
  get maxScore(): number {
    return this.inner.maxScore * this.boost;
  }
  nextDoc(): number {
    return this.inner.nextDoc();
  }
  advance(target: number): number {
    return this.inner.advance(target);
  }
  score(): number {
    return this.inner.score() * this.boost;
  }
  advanceShallow(target: number): number {
    return this.inner.advanceShallow(target);
  }
  maxScoreUpTo(upTo: number): number {
    return this.inner.maxScoreUpTo(upTo) * this.boost;
  }
}
