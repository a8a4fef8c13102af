/**
 * A binary min-heap of (score, ordinal) pairs on typed arrays: no object per entry on the search
 * path. Graph search keeps two: the results (worst on top, so it can be evicted) and the
 * candidates (best first, stored with negated scores).
 */
export class ScoreHeap {
  private scores: Float32Array;
  private ords: Int32Array;
  private n = 0;

  constructor(capacity = 64) {
    this.scores = new Float32Array(capacity);
    this.ords = new Int32Array(capacity);
  }

  /** Number of entries. */
  get size(): number {
    return this.n;
  }

  /** Removes every entry. */
  clear(): void {
    this.n = 0;
  }

  /** Smallest score (undefined behaviour when empty). */
  topScore(): number {
    return this.scores[0];
  }

  /** Ordinal of the smallest score. */
  topOrd(): number {
    return this.ords[0];
  }

  /** Adds an entry. */
  push(score: number, ord: number): void {
    if (this.n === this.scores.length) this.growTo(this.n * 2);
    const s = this.scores;
    const o = this.ords;
    let i = this.n++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (s[parent] <= score) break;
      s[i] = s[parent];
      o[i] = o[parent];
      i = parent;
    }
    s[i] = score;
    o[i] = ord;
  }

  /** Removes the smallest entry; returns its ordinal. */
  pop(): number {
    const s = this.scores;
    const o = this.ords;
    const top = o[0];
    const last = --this.n;
    const score = s[last];
    const ord = o[last];
    let i = 0;
    while (true) {
      let c = 2 * i + 1;
      if (c >= last) break;
      if (c + 1 < last && s[c + 1] < s[c]) c++;
      if (s[c] >= score) break;
      s[i] = s[c];
      o[i] = o[c];
      i = c;
    }
    s[i] = score;
    o[i] = ord;
    return top;
  }

  /**
   * Empties the heap into `ords`/`scores`, best (largest score) first; returns the count.
   */
  drainDescending(ords: Int32Array, scores: Float32Array): number {
    const count = this.n;
    for (let i = count - 1; i >= 0; i--) {
      scores[i] = this.scores[0];
      ords[i] = this.pop();
    }
    return count;
  }

  private growTo(capacity: number): void {
    const s = new Float32Array(capacity);
    s.set(this.scores);
    const o = new Int32Array(capacity);
    o.set(this.ords);
    this.scores = s;
    this.ords = o;
  }
}
