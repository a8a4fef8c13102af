/**
 * Runs one merge on a worker thread (`merge-worker.ts`), so that the writer's event loop keeps
 * answering searches and requests while segments are decoded, remapped and encoded (issue 17:
 * search latency while indexing). This thread stays the only one that touches the directory: it
 * serves the worker's reads and writes the files the worker hands over, phase by phase, exactly as
 * a merge on this thread would, so durability and the files written are the same.
 */
import type { LiveDocs } from '../codec/live-docs/live-docs.js';
import type { Directory } from '../directory.js';
import type { SegmentInfo } from '../segment/segment-info.js';
import type { MergedSegment } from '../segment/segment-merger.js';
import { startEngineWorker, transferableBuffer } from './engine-worker.js';
import { foregroundGate } from './foreground-gate.js';
import type { MergeThreadMessage, MergeThreadRequest, MergeWorkerData } from './merge-worker.js';

/** A source of a threaded merge: its manifest entry and the live docs the merge starts from. */
export interface ThreadedMergeSource {
  readonly info: SegmentInfo;
  readonly liveDocs: LiveDocs;
}

/**
 * Merges `sources` into segment `name` on a new worker thread, reading them from `dir` and handing
 * each phase's files to `write`; resolves as `mergeSegments` does, once the worker is gone. The
 * worker runs at nice value `nice` (see `lowerThreadPriority`).
 */
export function mergeOnThread(
  dir: Directory,
  name: string,
  sources: readonly ThreadedMergeSource[],
  write: (files: ReadonlyMap<string, Uint8Array>) => Promise<void>,
  nice = 0,
): Promise<MergedSegment> {
  const worker = startEngineWorker('merge-worker', { nice, gate: foregroundGate().shared } satisfies MergeWorkerData);
  return new Promise<MergedSegment>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, merged?: MergedSegment): void => {
      if (settled) return;
      settled = true;
      void worker.terminate().finally(() => {
        if (error === null) resolve(merged!);
        else reject(error);
      });
    };
    const reply = (message: MergeThreadRequest, transfer: ArrayBuffer[] = []): void => {
      if (!settled) worker.postMessage(message, transfer);
    };
    worker.on('message', (message: MergeThreadMessage) => {
      switch (message.type) {
        case 'read': {
          const read = message.offset === undefined ? dir.readFile(message.name) : dir.readRange(message.name, message.offset, message.length ?? 0);
          read.then(
            (bytes) => {
              // Handed over, not cloned: a merge reads its sources whole, and on this thread both
              // the clone and the read bytes (garbage at once) counted against the heap limit that
              // brings on full collections while searches wait (issue 17).
              const own = transferableBuffer(bytes);
              reply({ type: 'data', id: message.id, bytes }, own === null ? [] : [own]);
            },
            (e: unknown) => { reply({ type: 'error', id: message.id, message: (e as Error).message }); },
          );
          return;
        }
        case 'write':
          write(new Map(message.files)).then(
            () => { reply({ type: 'written', id: message.id }); },
            // The write's own error (an I/O failure) is what the merge fails with.
            (e: unknown) => { finish(e as Error); },
          );
          return;
        case 'done':
          finish(null, { info: message.info, docMaps: message.docMaps });
          return;
        case 'failed':
          finish(new Error(`merge thread failed: ${message.message}`));
          return;
      }
    });
    worker.on('error', (e: Error) => { finish(e); });
    worker.on('exit', (code) => { finish(new Error(`merge thread exited (code ${code})`)); });
    worker.postMessage({
      type: 'merge',
      name,
      segments: sources.map((s) => ({ info: s.info, liveDocs: s.liveDocs.encode() })),
    } satisfies MergeThreadRequest);
  });
}
