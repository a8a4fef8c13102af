/**
 * The one {@link BlockCache} of a process: every segment reader's vector fields share it, so the
 * budget bounds the process, not each segment. Created on first use with the configured options
 * (a process sets them at start-up, before it opens an index; readers opened before a change keep
 * the cache they opened with).
 */
import { BlockCache, type BlockCacheOptions, type BlockCacheStats } from './block-cache.js';

let options: BlockCacheOptions = {};
let shared: BlockCache | null = null;

/**
 * Sets the options of the process's vector cache (budget, page size); the next reader opened
 * gets a cache built with them.
 */
export function configureVectorCache(next: BlockCacheOptions): void {
  options = { ...next };
  shared = null;
}

/** The process's vector cache. */
export function sharedVectorCache(): BlockCache {
  shared ??= new BlockCache(options);
  return shared;
}

/** Counters of the process's vector cache, or null before any vector field was opened. */
export function vectorCacheStats(): BlockCacheStats | null {
  return shared?.stats() ?? null;
}
