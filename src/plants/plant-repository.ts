/**
 * Plants kept in a Yarrow index of their own (dogfooding the engine). A plant is a document with
 * `_id` = the id in decimal, `key` = a sortable spelling of the id (for listing in id order) and
 * the stored `name` and `tag`. Writes resolve once the engine has fsynced them to the write-ahead
 * log, so an acknowledged plant survives a crash. Reads see every write acknowledged before they
 * started: a read that finds writes not yet searchable refreshes the index first (one refresh
 * serves every read waiting at the time), which costs nothing while nobody writes.
 */
import { Index } from '../engine/index.js';
import type { Directory, Logger } from '../engine/index.js';
import { INT64_MIN } from './exact-integer.js';

/** A plant as stored and answered. */
export interface Plant {
  readonly id: bigint;
  readonly name: string;
  readonly tag?: string;
}

/** The plants index's mapping. */
export const PLANT_MAPPING = {
  fields: {
    _id: { type: 'id' },
    key: { type: 'text', search: false, sort: true, store: false },
    name: { type: 'text', required: true },
    tag: { type: 'text', filter: true },
  },
} as const;

/** The index name recorded in the manifest. */
export const PLANT_INDEX_NAME = 'plants';

/** The id shifted to 0..2^64-1 and zero-padded, so string order is numeric order. */
export function sortKey(id: bigint): string {
  return (id - INT64_MIN).toString().padStart(20, '0');
}

interface StoredPlant {
  readonly _id: string;
  readonly name?: unknown;
  readonly tag?: unknown;
}

function toPlant(hit: StoredPlant): Plant {
  const name = typeof hit.name === 'string' ? hit.name : '';
  return typeof hit.tag === 'string' ? { id: BigInt(hit._id), name, tag: hit.tag } : { id: BigInt(hit._id), name };
}

/** The plant store over one writable Index. */
export class PlantRepository {
  /** Writes acknowledged so far, and how many of them the searchable view covers. */
  private written = 0;
  private visible = 0;
  private refreshing: Promise<void> | null = null;

  private constructor(private readonly index: Index) {}

  /** Opens (or creates) the plants index in `dir`, replaying its write-ahead log. */
  static async open(dir: Directory, log: Logger): Promise<PlantRepository> {
    // No refresh timer: reads refresh on demand. A small WAL limit keeps restarts quick.
    const index = await Index.open(dir, { name: PLANT_INDEX_NAME, mapping: PLANT_MAPPING, logger: log, refreshIntervalMs: 0, writer: { maxWalBytes: 16 * 1024 * 1024 } });
    return new PlantRepository(index);
  }

  /** Stores `plant`, replacing any plant with its id; durable once resolved. */
  async put(plant: Plant): Promise<void> {
    const doc: Record<string, string> = { _id: plant.id.toString(), key: sortKey(plant.id), name: plant.name };
    if (plant.tag !== undefined) doc.tag = plant.tag;
    await this.index.upsert([doc]);
    this.written++;
  }

  /** The plant with `id`, or null. */
  async get(id: bigint): Promise<Plant | null> {
    await this.readable();
    const result = this.index.search({ filters: { include: { term: { _id: id.toString() } } }, size: 1, track_total_hits: false });
    return result.hits.length === 0 ? null : toPlant(result.hits[0]);
  }

  /** The first `limit` plants in ascending id order. */
  async list(limit: number): Promise<Plant[]> {
    await this.readable();
    const result = this.index.search({ sort: [{ key: 'asc' }], size: limit, track_total_hits: false });
    return result.hits.map((h) => toPlant(h as StoredPlant));
  }

  /** Deletes the plant with `id`; false when there was none. Durable once resolved. */
  async delete(id: bigint): Promise<boolean> {
    if ((await this.get(id)) === null) return false;
    await this.index.delete([id.toString()]);
    this.written++;
    return true;
  }

  /** Commits what is pending and releases the index. */
  async close(): Promise<void> {
    await this.index.close();
  }

  /** Resolves once every write acknowledged before the call is searchable. */
  private async readable(): Promise<void> {
    const needed = this.written;
    while (this.visible < needed) {
      if (this.refreshing === null) {
        const covers = this.written;
        this.refreshing = this.index
          .refresh()
          .then(() => { this.visible = Math.max(this.visible, covers); })
          .finally(() => { this.refreshing = null; });
      }
      await this.refreshing;
    }
  }
}
