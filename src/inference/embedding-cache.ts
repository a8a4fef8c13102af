/**
 * A bounded in-memory cache of embeddings (text -> vector), least recently used first out, bounded
 * both by entries and by bytes. Keys are SHA-256 digests of the exact text the model saw (prompt
 * included), so a 10 kB document costs the cache as little as a 3-word query, and queries and
 * documents share it: a document indexed twice, or a query that is also a title, is embedded once.
 */
import { createHash } from 'node:crypto';

/** Bytes an entry costs besides its vector: the 44-character key, the Map slot, the typed-array header. */
const ENTRY_OVERHEAD = 200;

/** Figures of a cache, for tests and metrics. */
export interface EmbeddingCacheStats {
  readonly entries: number;
  readonly bytes: number;
  readonly hits: number;
  readonly misses: number;
}

/** An LRU map from texts to vectors. */
export class EmbeddingCache {
  // A Map iterates in insertion order: re-inserting on a hit moves the entry to the young end.
  private readonly entries = new Map<string, Float32Array>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number,
  ) {}

  /** The cache key of `text`. */
  static keyOf(text: string): string {
    return createHash('sha256').update(text).digest('base64');
  }

  /** The vector cached under `key`, made the most recently used; undefined on a miss. */
  get(key: string): Float32Array | undefined {
    const v = this.entries.get(key);
    if (v === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, v);
    return v;
  }

  /** Caches `vector` under `key`, evicting the least recently used entries past either bound. */
  set(key: string, vector: Float32Array): void {
    const cost = vector.byteLength + ENTRY_OVERHEAD;
    if (cost > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= old.byteLength + ENTRY_OVERHEAD;
    }
    this.entries.set(key, vector);
    this.bytes += cost;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, Float32Array];
      this.entries.delete(oldestKey);
      this.bytes -= oldest.byteLength + ENTRY_OVERHEAD;
    }
  }

  /** Current size and hit counts. */
  stats(): EmbeddingCacheStats {
    return { entries: this.entries.size, bytes: this.bytes, hits: this.hits, misses: this.misses };
  }
}
