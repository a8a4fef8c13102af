/**
 * A bounded in-memory cache of embeddings (text -> vector), least recently used first out, bounded
 * both by entries and by bytes. Keys are SHA-256 digests of the exact text the model saw (prompt
 * included), so a 10 kB document costs the cache as little as a 3-word query, and queries and
 * documents share it: a document indexed twice, or a query that is also a title, is embedded once.
 */
import { createHash } from 'node:crypto';
import { BoundedLru } from '../engine/bounded-lru.js';

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
  private readonly entries: BoundedLru<string, Float32Array>;
  private hits = 0;
  private misses = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number,
  ) {
    this.entries = new BoundedLru(maxBytes, (vector) => vector.byteLength + ENTRY_OVERHEAD, maxEntries);
  }

  /** The cache key of `text`. */
  static keyOf(text: string): string {
    return createHash('sha256').update(text).digest('base64');
  }

  /** The vector cached under `key`, made the most recently used; undefined on a miss. */
  get(key: string): Float32Array | undefined {
    const v = this.entries.get(key);
    if (v === undefined) this.misses++;
    else this.hits++;
    return v;
  }

  /** Caches `vector` under `key`, evicting the least recently used entries past either bound. */
  set(key: string, vector: Float32Array): void {
    this.entries.set(key, vector);
  }

  /** Current size and hit counts. */
  stats(): EmbeddingCacheStats {
    return { entries: this.entries.size, bytes: this.entries.bytes, hits: this.hits, misses: this.misses };
  }
}
