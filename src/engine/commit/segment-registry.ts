/**
 * The writer's segment registry: the segments of the index as the writer sees them (committed,
 * flushed since, merged since), their live docs, and the snapshots published from them. Each
 * published snapshot holds references on its files (see `file-refs.ts`), so a file a search still
 * reads is never deleted under it. Not thread-safe on its own: the writer's mutex serialises it.
 */
import { LiveDocs } from '../codec/live-docs/live-docs.js';
import type { Directory } from '../directory.js';
import type { TimeSlicer } from '../event-loop.js';
import { liveDocsGenerationOf } from '../index-files.js';
import type { SegmentInfo } from '../segment/segment-info.js';
import { segmentBytes } from '../segment/segment-info.js';
import { SegmentReader } from '../segment/segment-reader.js';
import type { SegmentLoad } from '../segment/segment-reader.js';
import { Snapshot } from '../segment/snapshot.js';
import type { FileRefs } from './file-refs.js';
import { hashIdsInto, IdFilter } from './id-filter.js';
import type { SegmentStats } from './merge-policy.js';

/** Ids hashed between two checks of the time slice (~0.1-0.3 ms of hashing). */
const HASH_BATCH = 1024;

/** A segment as the writer tracks it. */
export interface LiveSegment {
  info: SegmentInfo;
  readonly reader: SegmentReader;
  liveDocs: LiveDocs;
  /** Deletes not yet written to a live docs file. */
  liveDirty: boolean;
  /** Files fsync'd (a segment flushed by a refresh is not until the next commit). */
  durable: boolean;
  /** Deletion generation of its live docs file. */
  delGen: number;
  merging: boolean;
}

/** The deletion generation of a segment's live docs file (0 when it has none). */
export function liveDocsGeneration(info: SegmentInfo): number {
  return info.liveDocs === null ? 0 : liveDocsGenerationOf(info.liveDocs.name);
}

/** Opens a committed segment for the writer, reusing `known` readers (segment files never change). */
export async function openCommittedSegment(dir: Directory, info: SegmentInfo, load: SegmentLoad, known?: SegmentReader): Promise<LiveSegment> {
  const reader = known ?? (await SegmentReader.open(dir, info, undefined, load));
  const liveDocs = await reader.readLiveDocs(dir, info);
  return { info, reader, liveDocs, liveDirty: false, durable: true, delGen: liveDocsGeneration(info), merging: false };
}

/** The segments and the published snapshot; see the module comment. */
export class SegmentRegistry {
  private current: Snapshot;
  private generation = 0;
  /** Id filters by segment reader (segment files never change; a reader lives as long as its segment's). */
  private readonly idFilters = new WeakMap<SegmentReader, IdFilter>();

  constructor(
    private segments: LiveSegment[],
    private readonly refs: FileRefs,
  ) {
    this.current = this.publish();
  }

  /** The segments, in index order. */
  get all(): readonly LiveSegment[] {
    return this.segments;
  }

  /** The latest published snapshot, acquired for the caller (release it when done). */
  acquireSnapshot(): Snapshot {
    return this.current.acquire();
  }

  /** Live docs in the latest snapshot. */
  get liveCount(): number {
    return this.current.liveCount;
  }

  /** Readers of the latest snapshot by segment name (to reuse on rollback). */
  readersByName(): Map<string, SegmentReader> {
    return new Map(this.current.segments.map((view) => [view.reader.name, view.reader]));
  }

  /** Appends a newly flushed or merged segment. */
  add(segment: LiveSegment): void {
    this.segments.push(segment);
  }

  /** Replaces the whole list (rollback to a commit). */
  reset(segments: LiveSegment[]): void {
    this.segments = segments;
  }

  /** Replaces merged `sources` by `merged`, at the position of the first source. */
  replaceMerged(sources: readonly LiveSegment[], merged: LiveSegment): void {
    const position = this.segments.indexOf(sources[0]);
    this.segments = this.segments.filter((s) => !sources.includes(s));
    this.segments.splice(Math.min(position, this.segments.length), 0, merged);
  }

  /** Whether every one of `sources` is still registered (a rollback may have replaced them). */
  holdsAll(sources: readonly LiveSegment[]): boolean {
    return sources.every((s) => this.segments.includes(s));
  }

  /**
   * Deletes older copies of `ids` from the registered segments (copy-on-write live docs). It runs
   * next to searches: the lookups run in time slices, then the deletes found are applied in one
   * go, so no one ever sees a segment's deletes half applied. Each segment's id filter
   * (`id-filter.ts`, built on first need) rules out nearly every id it does not hold, so only the
   * rest pay a term-dictionary lookup. The caller holds the writer's mutex: the segment list stays
   * as it is while this yields.
   *
   * A refresh comes here in the same turn of the event loop as it opened the new segment, and the
   * ids of a refresh (~10k a batch of `_index`) take milliseconds to hash: so this yields first, and
   * hashes in slices too (issue 17: search p99 while indexing).
   */
  async deleteIds(ids: Iterable<string>, slicer: TimeSlicer): Promise<void> {
    const list = [...ids];
    if (list.length === 0) return;
    await slicer.yield();
    const hashes = new Uint32Array(list.length * 2);
    for (let from = 0; from < list.length; from += HASH_BATCH) {
      if (slicer.due()) await slicer.yield();
      hashIdsInto(list, from, Math.min(list.length, from + HASH_BATCH), hashes);
    }
    const found: [LiveSegment, number[]][] = [];
    for (const seg of this.segments) {
      const filter = await this.idFilter(seg, slicer);
      const docs: number[] = [];
      for (let i = 0; i < list.length; i++) {
        if (!filter.mightContain(hashes, i)) continue;
        if (slicer.due()) await slicer.yield();
        for (const doc of seg.reader.docsWithId(list[i])) docs.push(doc);
      }
      if (docs.length > 0) found.push([seg, docs]);
      if (slicer.due()) await slicer.yield();
    }
    for (const [seg, docs] of found) {
      let cloned = false;
      for (const doc of docs) {
        if (!seg.liveDocs.isLive(doc)) continue;
        if (!cloned) {
          seg.liveDocs = seg.liveDocs.clone();
          cloned = true;
        }
        seg.liveDocs.delete(doc);
        seg.liveDirty = true;
      }
    }
  }

  /** Gives a new segment's reader the id filter its writer built (see `IdFilterBuilder`). */
  useIdFilter(reader: SegmentReader, filter: IdFilter): void {
    this.idFilters.set(reader, filter);
  }

  /** The id filter of a segment, built (in `slicer`'s time slices) on first need. */
  private async idFilter(seg: LiveSegment, slicer: TimeSlicer): Promise<IdFilter> {
    let filter = this.idFilters.get(seg.reader);
    if (filter === undefined) {
      filter = await IdFilter.build(seg.reader, seg.info.maxDoc, slicer);
      this.idFilters.set(seg.reader, filter);
    }
    return filter;
  }

  /** Drops segments whose docs are all deleted; returns whether any was dropped. */
  dropFullyDeleted(): boolean {
    const keep = this.segments.filter((s) => s.liveDocs.liveCount > 0 || s.merging);
    if (keep.length === this.segments.length) return false;
    this.segments = keep;
    return true;
  }

  /** Sizes and live counts of the segments not being merged, for the merge policy. */
  mergeCandidates(): SegmentStats[] {
    return this.segments
      .filter((s) => !s.merging)
      .map((s) => ({ name: s.info.name, maxDoc: s.info.maxDoc, liveDocs: s.liveDocs.liveCount, sizeBytes: segmentBytes(s.info) }));
  }

  /** The registered segment named `name`. */
  byName(name: string): LiveSegment {
    const found = this.segments.find((s) => s.info.name === name);
    if (found === undefined) throw new Error(`no segment ${name} in the registry`);
    return found;
  }

  /** Publishes the current segments; the new snapshot takes its file references before the old one drops its own. */
  republish(): void {
    const previous = this.current;
    this.current = this.publish();
    previous.release();
  }

  /** Drops the registry's own reference on the last snapshot (closing). */
  release(): void {
    this.current.release();
  }

  private publish(): Snapshot {
    const segments = this.segments.map((s) => ({ reader: s.reader, liveDocs: s.liveDocs }));
    const files = this.segments.flatMap((s) => s.info.files.map((f) => f.name));
    this.refs.incRef(files);
    return new Snapshot(++this.generation, segments, () => { this.refs.decRef(files); });
  }
}
