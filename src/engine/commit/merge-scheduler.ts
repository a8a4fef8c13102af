/**
 * The merge scheduler: runs the merges the (pure) merge policy plans, one at a time and in the
 * background. JavaScript runs them on one thread anyway, so running several at once would only add
 * up their memory. A merge writes its segment outside the writer's mutex and swaps it in under the
 * mutex, carrying over deletes that happened meanwhile; each finished merge plans the next.
 */
import { LiveDocs } from '../codec/live-docs/live-docs.js';
import type { Directory } from '../directory.js';
import { yieldToEventLoop } from '../event-loop.js';
import type { Logger } from '../logger.js';
import type { SegmentInfo } from '../segment/segment-info.js';
import { segmentName } from '../segment/segment-component.js';
import { mergeSegments } from '../segment/segment-merger.js';
import type { MergeSource } from '../segment/segment-merger.js';
import { SegmentReader } from '../segment/segment-reader.js';
import type { SegmentLoad } from '../segment/segment-reader.js';
import { planForcedMerge, planMerges } from './merge-policy.js';
import type { MergePolicyOptions } from './merge-policy.js';
import type { Mutex } from './mutex.js';
import { mergeOnThread } from './merge-thread.js';
import type { LiveSegment, SegmentRegistry } from './segment-registry.js';

/** What the scheduler needs from the writer it serves. */
export interface MergeHost {
  readonly dir: Directory;
  readonly log: Logger;
  readonly mutex: Mutex;
  readonly registry: SegmentRegistry;
  readonly policy: Partial<MergePolicyOptions>;
  readonly segmentLoad: SegmentLoad;
  /** Whether merges run on a worker thread (see `WriterOptions.mergeThread`). */
  readonly mergeThread: boolean;
  /** Nice value of a merge thread (see `WriterOptions.backgroundNice`). */
  readonly backgroundNice: number;
  /** Whether merges may start (false once closing, closed or failed). */
  canMerge(): boolean;
  /** Whether a forced merge may go on (false once closing, closed or failed; true with merges off). */
  canForceMerge(): boolean;
  /** Whether a finished merge may still be swapped in (false once closed or failed). */
  isLive(): boolean;
  allocateSegmentId(): number;
  deleteLater(name: string): void;
  /** Called under the mutex after a merge was swapped in. */
  merged(): void;
  writeFiles(files: ReadonlyMap<string, Uint8Array>): Promise<void>;
  /** A merge thread wrote `files` to the directory itself (they are fsynced by the commit, as written ones). */
  wroteOnThread(files: ReadonlyMap<string, Uint8Array>): void;
}

/** Runs one merge at a time for a writer; see the module comment. */
export class MergeScheduler {
  /** The merge running now, if any; it never rejects. */
  private running: Promise<boolean> | null = null;

  constructor(private readonly host: MergeHost) {}

  /** Resolves once no merge is running (waiting through merges that chain on). */
  async idle(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  /** Starts the next merge the policy wants, if none is running. */
  maybeMerge(): void {
    const host = this.host;
    if (!host.canMerge() || this.running !== null) return;
    const plans = planMerges(host.registry.mergeCandidates(), host.policy);
    if (plans.length === 0) return;
    const plan = plans[0];
    const sources = plan.segments.map((n) => host.registry.byName(n));
    for (const s of sources) s.merging = true;
    const task = this.run(sources).then(
      () => true,
      (e: unknown) => {
        host.log.error(`merge of ${plan.segments.join(',')} failed: ${(e as Error).message}`);
        for (const s of sources) s.merging = false;
        return false;
      },
    );
    this.running = task;
    void task.then((succeeded) => {
      this.running = null;
      // After a failure the next refresh or commit plans again, rather than retrying in a loop.
      if (succeeded) this.maybeMerge();
    });
  }

  /**
   * Merges until at most `maxSegments` segments remain and none has deleted docs
   * ({@link planForcedMerge}), one merge at a time and taking turns with the background merges.
   * Rejects with the error of a failed merge. Stops early when the writer starts closing, and
   * after as many rounds as there were segments (deletes that keep arriving cannot keep it going).
   */
  async forceMerge(maxSegments: number): Promise<void> {
    const host = this.host;
    let rounds = host.registry.mergeCandidates().length + 1;
    while (rounds-- > 0) {
      await this.idle();
      if (!host.canForceMerge()) return;
      // Nothing can start a merge between idle() and `running` being set: this part is synchronous.
      const plan = planForcedMerge(host.registry.mergeCandidates(), maxSegments);
      if (plan === null) return;
      const sources = plan.segments.map((n) => host.registry.byName(n));
      for (const s of sources) s.merging = true;
      let failure: unknown = null;
      const task = this.run(sources).then(
        () => true,
        (e: unknown) => {
          failure = e;
          for (const s of sources) s.merging = false;
          return false;
        },
      );
      this.running = task;
      await task;
      this.running = null;
      if (failure !== null) throw failure as Error;
    }
  }

  private async run(sources: LiveSegment[]): Promise<void> {
    const host = this.host;
    // Let the caller's turn finish before the CPU-heavy part.
    await yieldToEventLoop();
    // A merge planned before close() began still runs: close() waits for it before its last commit.
    if (!host.isLive()) {
      for (const s of sources) s.merging = false;
      return;
    }
    const startLive = sources.map((s) => s.liveDocs);
    const name = segmentName(host.allocateSegmentId());
    const { reader, info, docMaps } = await this.writeMerged(name, sources, startLive);
    await host.mutex.run(() => {
      if (!host.isLive() || !host.registry.holdsAll(sources)) {
        // A rollback (or close) replaced the sources meanwhile: the merge result is obsolete.
        for (const file of info.files) host.deleteLater(file.name);
        return;
      }
      // Carry over deletes that happened while merging.
      const liveDocs = LiveDocs.allLive(info.maxDoc);
      sources.forEach((s, i) => {
        const map = docMaps[i];
        for (let d = 0; d < map.length; d++) if (map[d] >= 0 && !s.liveDocs.isLive(d)) liveDocs.delete(map[d]);
      });
      host.registry.replaceMerged(sources, {
        info,
        reader,
        liveDocs,
        liveDirty: liveDocs.liveCount < info.maxDoc,
        durable: false,
        delGen: 0,
        merging: false,
      });
      host.log.debug(`merged ${sources.map((s) => s.info.name).join(',')} into ${name}`, { docs: info.maxDoc });
      host.merged();
    });
  }

  /**
   * Merges and writes the merged segment, returning only what outlives the merge: the source
   * readers opened for it and the merged files' bytes are garbage once this returns. A source held
   * by an id-only reader is opened phase by phase (verifying checksums) and dropped after.
   */
  private async writeMerged(
    name: string,
    segments: readonly LiveSegment[],
    liveDocs: readonly LiveDocs[],
  ): Promise<{ reader: SegmentReader; info: SegmentInfo; docMaps: readonly Int32Array[] }> {
    const host = this.host;
    const sources: MergeSource[] = segments.map((s, i) => ({
      maxDoc: s.info.maxDoc,
      liveDocs: liveDocs[i],
      open: async (load) => (s.reader.searchable ? s.reader : SegmentReader.open(host.dir, s.info, undefined, load)),
    }));
    const written = new Map<string, Uint8Array>();
    try {
      const write = async (files: ReadonlyMap<string, Uint8Array>, onThread = false): Promise<void> => {
        for (const [file, bytes] of files) written.set(file, bytes);
        if (onThread) host.wroteOnThread(files);
        else await host.writeFiles(files);
      };
      const { info, docMaps } = host.mergeThread
        ? await mergeOnThread(host.dir, name, segments.map((s, i) => ({ info: s.info, liveDocs: liveDocs[i] })), write, host.backgroundNice)
        : await mergeSegments(name, sources, write);
      // Opened from the bytes just written, as a refresh opens its flushed segment: reading them
      // back would allocate the whole segment a second time on this thread.
      const reader = await SegmentReader.open(host.dir, info, written, host.segmentLoad);
      return { reader, info, docMaps };
    } catch (e) {
      for (const file of written.keys()) host.deleteLater(file);
      throw e;
    }
  }
}
