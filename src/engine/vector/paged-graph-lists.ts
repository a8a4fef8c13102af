/**
 * The neighbour lists of an HNSW graph file read by position: level 0 (one fixed-width list per
 * node, the bulk of the file) through the shared {@link BlockCache}, in pages of whole lists; the
 * upper levels (about one node in m has any) stay in memory, indexed by a sorted table of their
 * nodes rather than a per-node array, so what stays resident is a small fraction of the graph.
 */
import type { RandomAccessFile } from '../directory.js';
import type { BlockCache, CachedFile } from './block-cache.js';

/** Where a graph file's level-0 lists are, and its upper levels in memory. */
export interface PagedGraphLayout {
  nodes: number;
  m: number;
  /** File position of node 0's level-0 list. */
  level0Position: number;
  /** The upper-level lists, as the file stores them. */
  upper: Int32Array;
  /** Nodes with upper levels, ascending, and where each one's lists start in `upper`. */
  upperNodes: Int32Array;
  upperStarts: Int32Array;
}

/** Level-0 lists through the cache; upper-level starts by binary search. */
export class PagedGraphLists {
  /** int32 slots per level-0 list (count, then 2m neighbours). */
  readonly width: number;
  private readonly perPage: number;
  private readonly file: CachedFile;

  constructor(
    private readonly cache: BlockCache,
    file: RandomAccessFile,
    readonly layout: PagedGraphLayout,
  ) {
    this.width = 2 * layout.m + 1;
    this.perPage = Math.floor(cache.pageSize / (this.width * 4));
    if (this.perPage < 1) throw new RangeError(`a ${this.width * 4}-byte neighbour list does not fit a ${cache.pageSize}-byte cache page`);
    this.file = cache.register(file, Math.ceil(layout.nodes / this.perPage));
  }

  /** Index in the cache's int32 view of `ord`'s level-0 list (valid until the cache's next batch). */
  level0At(ord: number): number {
    const page = Math.floor(ord / this.perPage);
    const first = page * this.perPage;
    const n = Math.min(this.perPage, this.layout.nodes - first);
    const bytes = this.width * 4;
    this.cache.newBatch();
    const at = this.cache.page(this.file, page, this.layout.level0Position + first * bytes, n * bytes);
    return (at >> 2) + (ord - first) * this.width;
  }

  /** Where `ord`'s upper-level lists start in `upper`, -1 when it has none. */
  upperStartOf(ord: number): number {
    const nodes = this.layout.upperNodes;
    let lo = 0;
    let hi = nodes.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = nodes[mid];
      if (v === ord) return this.layout.upperStarts[mid];
      if (v < ord) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
