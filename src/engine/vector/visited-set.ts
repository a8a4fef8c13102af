/**
 * The visited marks of graph search: one uint32 per node holding the epoch of the search that last
 * reached it. Starting a search bumps the epoch instead of clearing the array, so a search costs
 * nothing per node it does not touch; the array is cleared only when the epoch wraps.
 */

/** Visited marks for the nodes of one graph, reused by every search on it. */
export class VisitedSet {
  private array: Uint32Array;
  private epoch = 0;

  /** Marks for `capacity` nodes. */
  constructor(capacity: number) {
    this.array = new Uint32Array(capacity);
  }

  /**
   * The marks, indexed by ordinal: a node is visited when its mark equals the epoch that
   * {@link begin} returned. Read it after `begin`, which may replace it; search loops hold it in a
   * local so the hot path indexes a typed array, not a getter.
   */
  get marks(): Uint32Array {
    return this.array;
  }

  /**
   * Starts a search over `size` nodes and returns its epoch. When the marks are too short (the
   * graph grew since) they are replaced by `capacity` of them, so growth is not paid per search.
   */
  begin(size: number, capacity: number): number {
    if (this.array.length < size) this.array = new Uint32Array(Math.max(size, capacity));
    if (++this.epoch === 0xffffffff) {
      this.array.fill(0);
      this.epoch = 1;
    }
    return this.epoch;
  }

  /** Forgets every mark and makes room for `capacity` nodes (the graph's arrays grew). */
  reset(capacity: number): void {
    this.array = new Uint32Array(capacity);
    this.epoch = 0;
  }
}
