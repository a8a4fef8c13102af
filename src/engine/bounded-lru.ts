/**
 * A least-recently-used map bounded by the bytes its values cost (and optionally by entries): the
 * one eviction rule the engine's and the embedding model's in-memory caches share. A `Map`
 * iterates in insertion order, so re-inserting an entry on a hit moves it to the young end and
 * the first entry is always the oldest.
 */
export class BoundedLru<K, V> {
  private readonly entries = new Map<K, V>();
  private used = 0;

  /**
   * @param maxBytes bytes held at most; a value costing more is never kept
   * @param costOf the bytes one value costs
   * @param maxEntries entries held at most
   */
  constructor(
    readonly maxBytes: number,
    private readonly costOf: (value: V) => number,
    readonly maxEntries = Number.POSITIVE_INFINITY,
  ) {}

  /** Bytes held now. */
  get bytes(): number {
    return this.used;
  }

  /** Number of entries held now. */
  get size(): number {
    return this.entries.size;
  }

  /** The value cached under `key`, now the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** Caches `value` under `key` as the most recently used, evicting the oldest entries past either bound. */
  set(key: K, value: V): void {
    const cost = this.costOf(value);
    if (cost > this.maxBytes) return;
    this.delete(key);
    this.entries.set(key, value);
    this.used += cost;
    for (const [k, v] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.used <= this.maxBytes) break;
      this.entries.delete(k);
      this.used -= this.costOf(v);
    }
  }

  /** Drops the entry under `key`, if any. */
  delete(key: K): void {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.used -= this.costOf(old);
  }

  /** Drops every entry. */
  clear(): void {
    this.entries.clear();
    this.used = 0;
  }
}
