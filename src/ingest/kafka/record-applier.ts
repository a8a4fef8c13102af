/**
 * Applies fetched records to the index in offset order: runs of documents become one upsert
 * (up to a few thousand documents), runs of tombstones one delete, so a delete never overtakes the
 * upsert before it nor the other way round. Positions advance only after a partition's records
 * are all written (the caller rolls the index back if anything fails).
 */
import type { BatchSource, DocumentLocation } from '../../engine/index.js';
import { decodeMessage } from './message-decoder.js';
import type { PartitionFetch } from './partition-fetcher.js';

/** The index operations the applier needs. */
export interface ApplyTarget {
  upsert(docs: readonly unknown[], source: BatchSource): Promise<unknown>;
  delete(ids: readonly string[]): Promise<void>;
}

/** What one round applied. */
export interface ApplyResult {
  /** Records indexed (documents, batches, tombstones). */
  readonly messages: number;
  /** Whether any position moved (records or control markers), i.e. there is something to commit. */
  readonly advanced: boolean;
}

const MAX_UPSERT_DOCS = 5000;

/**
 * Writes `fetched` and moves `positions` past what was written.
 * @throws YarrowError(ErrorCode.invalidDocument) naming topic, partition, offset and field of the
 *   first record the index rejects; positions are then left as they were for that partition.
 */
export async function applyFetches(target: ApplyTarget, fetched: readonly PartitionFetch[], positions: Map<number, bigint>): Promise<ApplyResult> {
  let messages = 0;
  let advanced = false;
  const pending = new Pending(target);
  for (const f of fetched) {
    for (const record of f.records) {
      const decoded = decodeMessage(record);
      if (decoded.kind === 'upsert') await pending.upsert(decoded.docs, decoded.locations);
      else if (decoded.kind === 'delete') await pending.delete(decoded.id);
      messages++;
    }
    // Flushing per partition keeps positions honest: a position never covers an unwritten record.
    await pending.flush();
    const before = positions.get(f.partition);
    if (before === undefined || f.nextOffset > before) {
      positions.set(f.partition, f.nextOffset);
      advanced = true;
    }
  }
  return { messages, advanced };
}

/** Buffers consecutive operations of one kind. */
class Pending {
  private docs: unknown[] = [];
  private locations: DocumentLocation[] = [];
  private deletes: string[] = [];

  constructor(private readonly target: ApplyTarget) {}

  async upsert(docs: readonly unknown[], locations: readonly DocumentLocation[]): Promise<void> {
    if (this.deletes.length > 0) await this.flush();
    for (let i = 0; i < docs.length; i++) {
      this.docs.push(docs[i]);
      this.locations.push(locations[i]);
    }
    if (this.docs.length >= MAX_UPSERT_DOCS) await this.flush();
  }

  async delete(id: string): Promise<void> {
    if (this.docs.length > 0) await this.flush();
    this.deletes.push(id);
  }

  async flush(): Promise<void> {
    if (this.docs.length > 0) {
      const docs = this.docs;
      const locations = this.locations;
      this.docs = [];
      this.locations = [];
      await this.target.upsert(docs, { locations });
    }
    if (this.deletes.length > 0) {
      const ids = this.deletes;
      this.deletes = [];
      await this.target.delete(ids);
    }
  }
}
