/**
 * The most frequent candidates of some key ranges, in decreasing count, without visiting the
 * ranges: a segment tree over the counts answers "which index has the largest count in [lo, hi)"
 * in O(log n), and a heap of ranges keyed by their maximum yields candidates one by one, each pop
 * splitting its range in two around the index it returns. The k best of a prefix that matches a
 * million candidates cost about 2k range queries.
 */

/** Arg-max segment tree over a count array; ties go to the lower index (the smaller key). */
export class RangeMax {
  private readonly size: number;
  private readonly tree: Int32Array;

  constructor(private readonly counts: Uint32Array) {
    let size = 1;
    while (size < counts.length) size <<= 1;
    this.size = size;
    const tree = new Int32Array(2 * size).fill(-1);
    for (let i = 0; i < counts.length; i++) tree[size + i] = i;
    for (let node = size - 1; node >= 1; node--) tree[node] = this.better(tree[2 * node], tree[2 * node + 1]);
    this.tree = tree;
  }

  /** Index of the largest count in `[lo, hi)` (the lowest such index), or -1 when empty. */
  argMax(lo: number, hi: number): number {
    let best = -1;
    let l = lo + this.size;
    let r = hi + this.size;
    while (l < r) {
      if ((l & 1) === 1) best = this.better(best, this.tree[l++]);
      if ((r & 1) === 1) best = this.better(best, this.tree[--r]);
      l >>= 1;
      r >>= 1;
    }
    return best;
  }

  private better(a: number, b: number): number {
    if (a < 0) return b;
    if (b < 0) return a;
    const ca = this.counts[a];
    const cb = this.counts[b];
    return cb > ca || (cb === ca && b < a) ? b : a;
  }
}

/** Yields the indexes of some disjoint ranges in decreasing count (ties: lower index first). */
export class RankedRanges {
  // Heap of ranges, as parallel arrays: [lo, hi) and the arg-max of each.
  private readonly lo: number[] = [];
  private readonly hi: number[] = [];
  private readonly top: number[] = [];

  constructor(
    private readonly max: RangeMax,
    private readonly counts: Uint32Array,
    ranges: readonly (readonly [number, number])[],
  ) {
    for (const [lo, hi] of ranges) this.push(lo, hi);
  }

  /** The count of the next index, an upper bound of every later one; -1 when exhausted. */
  peekCount(): number {
    return this.top.length === 0 ? -1 : this.counts[this.top[0]];
  }

  /** The next index, or -1 when exhausted. */
  next(): number {
    if (this.top.length === 0) return -1;
    const at = this.top[0];
    const lo = this.lo[0];
    const hi = this.hi[0];
    this.popRoot();
    this.push(lo, at);
    this.push(at + 1, hi);
    return at;
  }

  private push(lo: number, hi: number): void {
    if (lo >= hi) return;
    const at = this.max.argMax(lo, hi);
    let i = this.top.length;
    this.lo.push(lo);
    this.hi.push(hi);
    this.top.push(at);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private popRoot(): void {
    const last = this.top.length - 1;
    this.swap(0, last);
    this.lo.pop();
    this.hi.pop();
    this.top.pop();
    let i = 0;
    const n = this.top.length;
    while (true) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < n && this.before(l, best)) best = l;
      if (r < n && this.before(r, best)) best = r;
      if (best === i) return;
      this.swap(i, best);
      i = best;
    }
  }

  private before(a: number, b: number): boolean {
    const ca = this.counts[this.top[a]];
    const cb = this.counts[this.top[b]];
    return ca > cb || (ca === cb && this.top[a] < this.top[b]);
  }

  private swap(a: number, b: number): void {
    [this.lo[a], this.lo[b]] = [this.lo[b], this.lo[a]];
    [this.hi[a], this.hi[b]] = [this.hi[b], this.hi[a]];
    [this.top[a], this.top[b]] = [this.top[b], this.top[a]];
  }
}
