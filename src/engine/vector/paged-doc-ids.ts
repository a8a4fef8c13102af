/**
 * The ordinal -> docId table of a vectors file, read by position through the shared
 * {@link BlockCache}. When every document of the segment has a vector the table is the identity
 * and nothing is read at all (the reader detects that at open).
 */
import type { RandomAccessFile } from '../directory.js';
import type { BlockCache, CachedFile } from './block-cache.js';

/** docIds[ord] on storage. */
export class PagedDocIds {
  private readonly perPage: number;
  private readonly file: CachedFile;

  constructor(
    private readonly cache: BlockCache,
    file: RandomAccessFile,
    private readonly count: number,
    /** File position of docIds[0]. */
    private readonly position: number,
  ) {
    this.perPage = cache.pageSize >> 2;
    this.file = cache.register(file, Math.ceil(count / this.perPage));
  }

  /** The docId of ordinal `ord`. */
  get(ord: number): number {
    const page = Math.floor(ord / this.perPage);
    const first = page * this.perPage;
    const n = Math.min(this.perPage, this.count - first);
    // A new batch: callers (filters during a graph walk) run between scoring batches.
    this.cache.newBatch();
    const at = this.cache.page(this.file, page, this.position + first * 4, n * 4);
    return this.cache.i32[(at >> 2) + ord - first];
  }
}
