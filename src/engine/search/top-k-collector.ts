/**
 * Keeps the best k hits in a binary min-heap over typed arrays: the root is the worst kept hit
 * (lowest score; among equal scores the later doc). Docs are offered in increasing global doc
 * order, so a new doc that ties the root never displaces it: ties keep index order, and a scorer
 * may skip any range whose score bound is <= {@link TopKCollector.threshold}.
 */
export class TopKCollector {
  private readonly scores: Float64Array;
  private readonly docs: Float64Array;
  private size = 0;
  /** Matching live docs seen (exact while counting is on). */
  totalHits = 0;
  /**
   * Score a doc must exceed to enter; -Infinity until k hits are kept. A field kept up to date by
   * {@link collect} rather than a getter: the pruning loops read it for every candidate, and a
   * double returned from a call that is not inlined is a heap allocation each time.
   */
  threshold = -Infinity;

  constructor(readonly k: number) {
    this.scores = new Float64Array(Math.max(k, 1));
    this.docs = new Float64Array(Math.max(k, 1));
  }

  /** Offers a hit; `doc` is the global doc (segment base + doc id). */
  collect(doc: number, score: number): void {
    const k = this.k;
    if (k === 0) return;
    if (this.size < k) {
      let i = this.size++;
      // Sift up.
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(score, doc, this.scores[parent], this.docs[parent])) break;
        this.scores[i] = this.scores[parent]!;
        this.docs[i] = this.docs[parent]!;
        i = parent;
      }
      this.scores[i] = score;
      this.docs[i] = doc;
      if (this.size === k) this.threshold = this.scores[0];
      return;
    }
    if (score <= this.scores[0]) return;
    // Replace the root and sift down.
    let i = 0;
    const n = this.size;
    while (true) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && worse(this.scores[r], this.docs[r], this.scores[l], this.docs[l])) c = r;
      if (!worse(this.scores[c], this.docs[c], score, doc)) break;
      this.scores[i] = this.scores[c]!;
      this.docs[i] = this.docs[c]!;
      i = c;
    }
    this.scores[i] = score;
    this.docs[i] = doc;
    this.threshold = this.scores[0];
  }

  /** The kept hits, best first: by score descending, then doc ascending. */
  results(): { doc: number; score: number }[] {
    const out: { doc: number; score: number }[] = [];
    if (this.size > 64) {
      for (let i = 0; i < this.size; i++) out.push({ doc: this.docs[i], score: this.scores[i] });
      return out.sort((a, b) => b.score - a.score || a.doc - b.doc);
    }
    // An insertion sort for the usual small k (docs are distinct, so the order is the same total
    // one): the built-in sort's set-up is garbage on every search.
    for (let i = 0; i < this.size; i++) {
      const hit = { doc: this.docs[i], score: this.scores[i] };
      let j = out.length;
      out.push(hit);
      for (; j > 0 && (out[j - 1].score < hit.score || (out[j - 1].score === hit.score && out[j - 1].doc > hit.doc)); j--) out[j] = out[j - 1];
      out[j] = hit;
    }
    return out;
  }
}

/** Whether hit a ranks below hit b. */
function worse(scoreA: number, docA: number, scoreB: number, docB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && docA > docB);
}
