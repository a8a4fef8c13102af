/**
 * The decoded stored-fields blocks a search process keeps: loading a hit costs decoding its block
 * (up to the hit), and the same documents come back query after query (popular queries, the next
 * page, highlighting after loading), so recently decoded blocks are kept in one least-recently-used
 * pool per thread, bounded by bytes, shared by every open stored-fields file.
 */
import { BoundedLru } from '../../bounded-lru.js';
import type { Lz4Cursor } from './lz4-block.js';

/** Default budget of a thread's pool: 512 blocks of the writer's default 16 KiB. */
export const DEFAULT_DECODED_BLOCK_BYTES = 8 * 1024 * 1024;

/** One block of a stored-fields file, decoded in full or up to the documents read so far. */
export interface DecodedBlock {
  /** The block's number in its file. */
  readonly block: number;
  /** The decoded bytes (allocated to the block's full decoded length). */
  readonly data: Uint8Array;
  /** Offset in `data` of each document of the block, plus the end; null until the header is read. */
  starts: Uint32Array | null;
  /** Where decoding stopped (null once the block is decoded in full). */
  cursor: BlockCursor | null;
}

/**
 * Where the decoding of a block stopped, with the block's compressed bytes to resume from
 * (`src` counts from their start). They are a view of the file when the file is in memory, a copy
 * read by position otherwise, dropped with the cursor once the block is decoded in full.
 */
export interface BlockCursor extends Lz4Cursor {
  readonly input: Uint8Array;
}

/**
 * A least-recently-used map of decoded blocks, bounded by their decoded bytes (a block still being
 * decoded also holds its compressed bytes, which LZ4 keeps at about its decoded size or less).
 */
export class DecodedBlockCache extends BoundedLru<number, DecodedBlock> {
  /** @param maxBytes decoded bytes held at most; a block larger than this is never kept. */
  constructor(maxBytes = DEFAULT_DECODED_BLOCK_BYTES) {
    super(maxBytes, (block) => block.data.length);
  }
}

/**
 * Keys of the thread's pool: each opened file reserves a range of one key per block, so keys
 * never collide and a closed file's blocks just age out.
 */
let nextKey = 0;

/** Reserves `blocks` consecutive cache keys for one file; returns the first. */
export function reserveBlockKeys(blocks: number): number {
  const first = nextKey;
  nextKey += blocks;
  return first;
}

/** The pool of decoded blocks of this thread. */
export const sharedDecodedBlocks = new DecodedBlockCache();
