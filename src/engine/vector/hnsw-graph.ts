/**
 * A hierarchical navigable small-world graph (Malkov & Yashunin; the algorithm of hnswlib) over
 * the ordinals of a {@link VectorStore}, held in flat typed arrays rather than node objects:
 *
 * - `levels[ord]`: the node's top level (uint8).
 * - `level0`: (m0 + 1) int32 slots per node, m0 = 2m: the neighbour count, then the neighbours.
 * - `upperStart[ord]`: where the node's upper levels start in `upper` (-1 when it has none); each
 *   level 1..levels[ord] takes (m + 1) slots there, count first.
 *
 * Similarity is "larger is closer" (a dot product); the heaps and the neighbour-selection heuristic
 * (neighbour-selection.ts) are written for that. Graph search scores a node's whole unvisited
 * neighbourhood with one batch kernel call.
 */
import { NeighbourSelector } from './neighbour-selection.js';
import { ScoreHeap } from './score-heap.js';
import { VisitedSet } from './visited-set.js';
import type { PreparedQuery, RecordScorer, VectorStore } from './vector-store.js';
import type { PagedGraphLists } from './paged-graph-lists.js';

/** Construction parameters. */
export interface HnswParams {
  /** Neighbours per node on the upper levels (twice that on level 0). */
  m: number;
  /** Candidate list size while inserting. */
  efConstruction: number;
  /** Seed of the level assignment, so a build is reproducible. */
  seed: number;
}

/** The arrays a graph is made of, as the graph file stores them. */
export interface HnswArrays {
  m: number;
  count: number;
  entryPoint: number;
  maxLevel: number;
  levels: Uint8Array;
  level0: Int32Array;
  upperStart: Int32Array;
  upper: Int32Array;
}

/** Where a search leaves its results: ordinals and scores, best first. */
export interface SearchResults {
  ords: Int32Array;
  scores: Float32Array;
  count: number;
}

/** Graph search gave up because it scored more nodes than its visit limit (use exact search). */
export const VISIT_LIMIT_EXCEEDED = -1;

const MAX_LEVEL = 31;

/** The store of a paged graph until {@link HnswGraph.paged} sets the real one. */
const EMPTY_STORE: RecordScorer = {
  dim: 0,
  encoding: 'int8',
  count: 0,
  ids: new Int32Array(0),
  out: new Float32Array(0),
  prepareQuery: () => ({ ptr: 0, scale: 1 }),
  scoreIds: () => undefined,
  scoreRange: () => undefined,
  score: () => 0,
  vector: () => new Float32Array(0),
  record: () => new Uint8Array(0),
};

/** An HNSW graph over a vector store's ordinals. */
export class HnswGraph {
  readonly m: number;
  readonly m0: number;
  private levels: Uint8Array;
  private level0: Int32Array;
  private upperStart: Int32Array;
  private upper: Int32Array;
  private upperLength = 0;
  private size = 0;
  private entry = -1;
  private top = -1;
  private visited: VisitedSet;
  /** Level-0 lists and upper-level starts read through the block cache (null: all in memory). */
  private paged: PagedGraphLists | null = null;
  /** The records scored; a graph being built has them in memory ({@link builder}). */
  private store: RecordScorer;
  private readonly candidates = new ScoreHeap(256);
  private readonly results = new ScoreHeap(256);
  private resultOrds = new Int32Array(256);
  private resultScores = new Float32Array(256);
  private rng: number;
  /** Link selection while building; null for a graph read from a file (never extended). */
  private readonly selector: NeighbourSelector | null;
  private readonly levelMult: number;

  /** `builder` holds the vectors being inserted; null only for {@link HnswGraph.paged}. */
  constructor(
    private readonly builder: VectorStore | null,
    readonly params: HnswParams,
    capacity = 1024,
  ) {
    if (!Number.isInteger(params.m) || params.m < 2 || params.m > 512) throw new RangeError(`m must be an integer in [2, 512], got ${params.m}`);
    if (!Number.isInteger(params.efConstruction) || params.efConstruction < 1) throw new RangeError(`ef_construction must be a positive integer, got ${params.efConstruction}`);
    this.store = builder ?? EMPTY_STORE;
    this.m = params.m;
    this.m0 = 2 * params.m;
    this.levelMult = 1 / Math.log(params.m);
    this.selector = builder === null ? null : new NeighbourSelector(builder, this.m0);
    this.rng = params.seed >>> 0 || 0x9e3779b9;
    capacity = Math.max(1, capacity);
    this.levels = new Uint8Array(capacity);
    this.level0 = new Int32Array(capacity * (this.m0 + 1));
    this.upperStart = new Int32Array(capacity).fill(-1);
    this.upper = new Int32Array(Math.max(64, capacity >> 2));
    this.visited = new VisitedSet(capacity);
  }

  /** A graph over `store` from stored arrays (a graph file). */
  static fromArrays(store: VectorStore, arrays: HnswArrays): HnswGraph {
    const g = new HnswGraph(store, { m: arrays.m, efConstruction: 1, seed: 1 }, 1);
    g.levels = arrays.levels;
    g.level0 = arrays.level0;
    g.upperStart = arrays.upperStart;
    g.upper = arrays.upper;
    g.upperLength = arrays.upper.length;
    g.size = arrays.count;
    g.entry = arrays.entryPoint;
    g.top = arrays.maxLevel;
    g.visited.reset(arrays.count);
    return g;
  }

  /**
   * A graph to search (never to extend) whose level-0 lists are read through a block cache and
   * whose vectors are `store`'s; `visited` is the cache's shared marks.
   */
  static paged(store: RecordScorer, head: { m: number; entryPoint: number; maxLevel: number }, lists: PagedGraphLists, visited: VisitedSet, level0: Int32Array): HnswGraph {
    const g = new HnswGraph(null, { m: head.m, efConstruction: 1, seed: 1 }, 1);
    g.store = store;
    g.paged = lists;
    g.level0 = level0;
    g.upper = lists.layout.upper;
    g.upperLength = g.upper.length;
    g.levels = new Uint8Array(0);
    g.size = lists.layout.nodes;
    g.entry = head.entryPoint;
    g.top = head.maxLevel;
    g.visited = visited;
    return g;
  }

  /** Number of nodes. */
  get count(): number {
    return this.size;
  }

  /** The graph's arrays, trimmed to its size, for the graph file. */
  arrays(): HnswArrays {
    return {
      m: this.m,
      count: this.size,
      entryPoint: this.entry,
      maxLevel: this.top,
      levels: this.levels.subarray(0, this.size),
      level0: this.level0.subarray(0, this.size * (this.m0 + 1)),
      upperStart: this.upperStart.subarray(0, this.size),
      upper: this.upper.subarray(0, this.upperLength),
    };
  }

  /** Neighbours of `ord` on `level` (a copy; for tests and checks). */
  neighbours(ord: number, level: number): number[] {
    const arr = this.listsOf(level);
    const at = this.listAt(ord, level);
    return Array.from(arr.subarray(at + 1, at + 1 + arr[at]));
  }

  /** The top level of `ord`. */
  levelOf(ord: number): number {
    return this.levels[ord];
  }

  /** Adds the store's next ordinal (which must be `count`) to the graph. */
  insert(ord: number): void {
    const builder = this.builder;
    const selector = this.selector;
    if (builder === null || selector === null) throw new Error('a graph read from a file cannot be extended');
    if (ord !== this.size || ord >= this.store.count) throw new RangeError(`insert ${ord}: the graph has ${this.size} nodes, the store ${this.store.count}`);
    this.ensureCapacity(ord + 1);
    const level = this.randomLevel();
    this.levels[ord] = level;
    this.level0[ord * (this.m0 + 1)] = 0;
    if (level > 0) {
      this.upperStart[ord] = this.upperLength;
      const need = this.upperLength + level * (this.m + 1);
      if (need > this.upper.length) this.upper = grow32(this.upper, Math.max(need, this.upper.length * 2));
      this.upper.fill(0, this.upperLength, need);
      this.upperLength = need;
    } else {
      this.upperStart[ord] = -1;
    }
    this.size = ord + 1;
    if (this.entry < 0) {
      this.entry = ord;
      this.top = level;
      return;
    }
    const q = builder.ordQuery(ord);
    let cur = this.entry;
    let curScore = this.store.score(q, cur);
    for (let l = this.top; l > level; l--) [cur, curScore] = this.greedy(q, cur, curScore, l);
    const selected = new Int32Array(this.m0 + 1);
    for (let l = Math.min(level, this.top); l >= 0; l--) {
      const found = this.searchLayer(q, cur, curScore, this.params.efConstruction, l, null, Infinity);
      const ords = this.resultOrds.slice(0, found);
      const scores = this.resultScores.slice(0, found);
      cur = ords[0];
      curScore = scores[0];
      const n = selector.selectDiverse(ords, scores, found, this.m, selected);
      const arr = this.listsOf(l);
      const at = this.listAt(ord, l);
      arr[at] = n;
      arr.set(selected.subarray(0, n), at + 1);
      for (let i = 0; i < n; i++) this.link(selector, selected[i], ord, l);
    }
    if (level > this.top) {
      this.entry = ord;
      this.top = level;
    }
  }

  /**
   * The `k` best nodes for `q` (at most `ef` considered), accepted by `accept` (which sees
   * ordinals; null accepts all). Returns the result count, or {@link VISIT_LIMIT_EXCEEDED} when
   * more than `visitLimit` nodes were scored (the caller then scans exactly).
   */
  search(q: PreparedQuery, k: number, ef: number, accept: ((ord: number) => boolean) | null, visitLimit: number, out: SearchResults): number {
    if (this.size === 0 || k <= 0) return 0;
    let cur = this.entry;
    let curScore = this.store.score(q, cur);
    for (let l = this.top; l > 0; l--) [cur, curScore] = this.greedy(q, cur, curScore, l);
    const found = this.searchLayer(q, cur, curScore, Math.max(ef, k), 0, accept, visitLimit);
    if (found === VISIT_LIMIT_EXCEEDED) return found;
    const n = Math.min(k, found);
    out.ords.set(this.resultOrds.subarray(0, n));
    out.scores.set(this.resultScores.subarray(0, n));
    out.count = n;
    return n;
  }

  /** Moves greedily to the best neighbour on `level` until none is better. */
  private greedy(q: PreparedQuery, cur: number, curScore: number, level: number): [number, number] {
    const store = this.store;
    for (let changed = true; changed; ) {
      changed = false;
      const arr = this.listsOf(level);
      const at = this.listAt(cur, level);
      const n = arr[at];
      const ids = store.ids;
      for (let i = 0; i < n; i++) ids[i] = arr[at + 1 + i];
      store.scoreIds(q, n);
      const out = store.out;
      for (let i = 0; i < n; i++) {
        if (out[i] > curScore) {
          curScore = out[i];
          cur = ids[i];
          changed = true;
        }
      }
    }
    return [cur, curScore];
  }

  /**
   * Best-first search of one level from `start` (hnswlib's searchBaseLayerST): results into
   * resultOrds/resultScores, best first; returns their count or VISIT_LIMIT_EXCEEDED. Rejected
   * nodes are walked through but never returned.
   */
  private searchLayer(q: PreparedQuery, start: number, startScore: number, ef: number, level: number, accept: ((ord: number) => boolean) | null, visitLimit: number): number {
    const store = this.store;
    const epoch = this.visited.begin(this.size, this.levels.length);
    const visited = this.visited.marks;
    const candidates = this.candidates;
    const results = this.results;
    candidates.clear();
    results.clear();
    visited[start] = epoch;
    let scored = 1;
    let lowerBound = -Infinity;
    if (accept === null || accept(start)) {
      results.push(startScore, start);
      lowerBound = startScore;
    }
    candidates.push(-startScore, start);
    while (candidates.size > 0) {
      const bestScore = -candidates.topScore();
      if (bestScore < lowerBound && (results.size >= ef || accept === null)) break;
      const c = candidates.pop();
      const arr = this.listsOf(level);
      const at = this.listAt(c, level);
      const n = arr[at];
      const ids = store.ids;
      let fresh = 0;
      for (let i = 0; i < n; i++) {
        const nb = arr[at + 1 + i];
        if (visited[nb] !== epoch) {
          visited[nb] = epoch;
          ids[fresh++] = nb;
        }
      }
      if (fresh === 0) continue;
      scored += fresh;
      if (scored > visitLimit) return VISIT_LIMIT_EXCEEDED;
      store.scoreIds(q, fresh);
      const out = store.out;
      for (let i = 0; i < fresh; i++) {
        const s = out[i];
        if (results.size < ef || s > lowerBound) {
          const nb = ids[i];
          candidates.push(-s, nb);
          if (accept === null || accept(nb)) {
            results.push(s, nb);
            if (results.size > ef) results.pop();
          }
          if (results.size > 0) lowerBound = results.topScore();
        }
      }
    }
    if (this.resultOrds.length < results.size) {
      this.resultOrds = new Int32Array(results.size * 2);
      this.resultScores = new Float32Array(results.size * 2);
    }
    return results.drainDescending(this.resultOrds, this.resultScores);
  }

  /** Adds `ord` to the neighbours of `node` on `level`, re-selecting them when the list is full. */
  private link(selector: NeighbourSelector, node: number, ord: number, level: number): void {
    const arr = this.listsOf(level);
    const at = this.listAt(node, level);
    const max = level === 0 ? this.m0 : this.m;
    const n = arr[at];
    if (n < max) {
      arr[at + 1 + n] = ord;
      arr[at] = n + 1;
      return;
    }
    selector.reselect(arr, at, node, ord, max);
  }

  /** The array holding the neighbour lists of `level` (read again after an insert grows it). */
  private listsOf(level: number): Int32Array {
    return level === 0 ? this.level0 : this.upper;
  }

  /** Where the neighbour list of `ord` on `level` starts in {@link listsOf}(level): count, then ordinals. */
  private listAt(ord: number, level: number): number {
    const paged = this.paged;
    if (paged === null) return level === 0 ? ord * (this.m0 + 1) : this.upperStart[ord] + (level - 1) * (this.m + 1);
    return level === 0 ? paged.level0At(ord) : paged.upperStartOf(ord) + (level - 1) * (this.m + 1);
  }

  private randomLevel(): number {
    // mulberry32: small, fast, and seeded so that the same input builds the same graph.
    let t = (this.rng = (this.rng + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const u = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return Math.min(MAX_LEVEL, Math.floor(-Math.log(1 - u) * this.levelMult));
  }

  private ensureCapacity(n: number): void {
    const cap = this.levels.length;
    if (n <= cap) return;
    const next = Math.max(n, cap * 2);
    const levels = new Uint8Array(next);
    levels.set(this.levels);
    this.levels = levels;
    this.level0 = grow32(this.level0, next * (this.m0 + 1));
    const starts = new Int32Array(next).fill(-1);
    starts.set(this.upperStart);
    this.upperStart = starts;
    this.visited.reset(next);
  }
}

function grow32(a: Int32Array, size: number): Int32Array {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}
