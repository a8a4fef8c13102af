/**
 * Runs one merge on a worker thread (`merge-worker.ts`), so that the writer's event loop keeps
 * answering searches and requests while segments are decoded, remapped and encoded (issue 17:
 * search latency while indexing). Given a local directory (`hasThreadFiles`), the worker reads the
 * sources and writes each phase's files itself, at its idle priority (`storage/thread-files.ts`),
 * and hands the written bytes over; otherwise this thread serves the worker's reads and writes the
 * files the worker hands over. Either way the files written are the same, written phase by phase as
 * a merge on this thread would, and fsynced by the writer's commit: durability is unchanged.
 */
import type { LiveDocs } from '../codec/live-docs/live-docs.js';
import type { Directory } from '../directory.js';
import type { SegmentInfo } from '../segment/segment-info.js';
import type { MergedSegment } from '../segment/segment-merger.js';
import { hasThreadFiles, startEngineWorker, threadFailureError, transferableBuffer } from './engine-worker.js';
import { foregroundGate } from './foreground-gate.js';
import type { MergeThreadMessage, MergeThreadRequest, MergeWorkerData } from './merge-worker.js';

/** A source of a threaded merge: its manifest entry and the live docs the merge starts from. */
export interface ThreadedMergeSource {
  readonly info: SegmentInfo;
  readonly liveDocs: LiveDocs;
}

/**
 * Merges `sources` into segment `name` on a new worker thread, reading them from `dir` and handing
 * each phase's files to `write` (`onThread` when the worker wrote them to `dir` itself); resolves as
 * `mergeSegments` does, once the worker is gone. The worker runs at nice value `nice` (see
 * `lowerThreadPriority`).
 */
export function mergeOnThread(
  dir: Directory,
  name: string,
  sources: readonly ThreadedMergeSource[],
  write: (files: ReadonlyMap<string, Uint8Array>, onThread: boolean) => Promise<void>,
  nice = 0,
): Promise<MergedSegment> {
  const data: MergeWorkerData = { nice, gate: foregroundGate().shared, ...(hasThreadFiles(dir) ? { files: dir.threadFiles() } : {}) };
  const worker = startEngineWorker('merge-worker', data);
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
          write(new Map(message.files), message.written === true).then(
            () => { reply({ type: 'written', id: message.id }); },
            // The write's own error (an I/O failure) is what the merge fails with.
            (e: unknown) => { finish(e as Error); },
          );
          return;
        case 'done':
          finish(null, { info: message.info, docMaps: message.docMaps });
          return;
        case 'failed':
          finish(threadFailureError('merge thread failed', message));
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
