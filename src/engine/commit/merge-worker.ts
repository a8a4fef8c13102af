/**
 * The merge thread's entry point (a `worker_threads` worker started by `merge-thread.ts` for one
 * merge): it runs `mergeSegments` on segments it reads through the writer's directory, so that
 * decoding, remapping and encoding a merge never hold the writer's event loop. Given the directory's
 * files (`workerData.files`, a local directory), it reads the sources and writes each phase's files
 * itself, at its idle priority, and still hands the written bytes to the writer's thread (which
 * opens the merged segment from them and fsyncs the files at its commit). Otherwise every read and
 * write is a message to the writer's thread, which owns the directory (S3 or memory) and writes the
 * files as the single-threaded merge would.
 *
 * Protocol (`merge-thread.ts` is the other side), on the worker's parent port:
 * - in: `{ type: 'merge', name, segments }` once, with each source's info and encoded live docs;
 * - out: `{ type: 'read', id, name, offset?, length? }` answered by `{ type: 'data', id, bytes }`
 *   or `{ type: 'error', id, message }`; `{ type: 'write', id, files }` (bytes transferred)
 *   answered by `{ type: 'written', id }` or `{ type: 'error', id, message }` (`written: true` in
 *   the request: this thread wrote them, the writer's thread only takes note);
 * - out, last: `{ type: 'done', info, docMaps }` or `{ type: 'failed', message }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { LiveDocs } from '../codec/live-docs/live-docs.js';
import type { Appender, Directory, Lock } from '../directory.js';
import type { SegmentInfo } from '../segment/segment-info.js';
import { mergeSegments } from '../segment/segment-merger.js';
import { SegmentReader } from '../segment/segment-reader.js';
import { becomeBackgroundThread, loadThreadFiles, threadFailure, transferableFiles } from './engine-worker.js';
import type { BackgroundThreadData, ThreadFailure, ThreadFileAccess } from './engine-worker.js';

/** What the thread is started with. */
export type MergeWorkerData = BackgroundThreadData;

/** What the writer's thread sends. */
export type MergeThreadRequest =
  | { readonly type: 'merge'; readonly name: string; readonly segments: readonly { readonly info: SegmentInfo; readonly liveDocs: Uint8Array }[] }
  | { readonly type: 'data'; readonly id: number; readonly bytes: Uint8Array }
  | { readonly type: 'written'; readonly id: number }
  | { readonly type: 'error'; readonly id: number; readonly message: string };

/** What the merge thread sends. */
export type MergeThreadMessage =
  | { readonly type: 'read'; readonly id: number; readonly name: string; readonly offset?: number; readonly length?: number }
  | { readonly type: 'write'; readonly id: number; readonly files: readonly (readonly [string, Uint8Array])[]; readonly written?: boolean }
  | { readonly type: 'done'; readonly info: SegmentInfo; readonly docMaps: readonly Int32Array[] }
  | ({ readonly type: 'failed' } & ThreadFailure);

const port = parentPort as MessagePort;
const data = workerData as MergeWorkerData | null;
becomeBackgroundThread(data);
/** The directory's files, when this thread reads and writes them itself (a failed load: through the port). */
const threadFiles = loadThreadFiles(data?.files).catch(() => null);
const waiting = new Map<number, { resolve: (bytes: Uint8Array | null) => void; reject: (e: Error) => void }>();
let nextId = 0;

function ask(message: MergeThreadMessage & { readonly id: number }, transfer: ArrayBuffer[] = []): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    waiting.set(message.id, { resolve, reject });
    port.postMessage(message, transfer);
  });
}

/** The writer's directory as the merge sees it: reads and writes go through the parent port. */
const remote: Directory = {
  list: () => unsupported('list'),
  exists: () => unsupported('exists'),
  readFile: async (name) => (await ask({ type: 'read', id: nextId++, name }))!,
  readRange: async (name, offset, length) => (await ask({ type: 'read', id: nextId++, name, offset, length }))!,
  writeFile: () => unsupported('writeFile'),
  sync: () => unsupported('sync'),
  rename: () => unsupported('rename'),
  delete: () => unsupported('delete'),
  openAppender: (): Promise<Appender> => unsupported('openAppender'),
  obtainLock: (): Promise<Lock> => unsupported('obtainLock'),
  describe: () => 'the writer\'s directory (through the merge thread\'s port)',
};

/** The directory as the merge sees it when this thread reads the files itself (`files`). */
function readingFrom(files: ThreadFileAccess): Directory {
  const read = (name: string, offset?: number, length?: number): Promise<Uint8Array> => {
    try {
      return Promise.resolve(files.read(name, offset, length));
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  };
  return { ...remote, readFile: (name) => read(name), readRange: (name, offset, length) => read(name, offset, length) };
}

function unsupported(op: string): Promise<never> {
  return Promise.reject(new Error(`the merge thread does not ${op}`));
}

port.on('message', (message: MergeThreadRequest) => {
  switch (message.type) {
    case 'merge':
      void merge(message.name, message.segments);
      return;
    case 'data':
    case 'written': {
      const waiter = waiting.get(message.id);
      waiting.delete(message.id);
      waiter?.resolve(message.type === 'data' ? message.bytes : null);
      return;
    }
    case 'error': {
      const waiter = waiting.get(message.id);
      waiting.delete(message.id);
      waiter?.reject(new Error(message.message));
      return;
    }
  }
});

async function merge(name: string, segments: readonly { readonly info: SegmentInfo; readonly liveDocs: Uint8Array }[]): Promise<void> {
  try {
    const files = await threadFiles;
    const dir = files === null ? remote : readingFrom(files);
    const sources = segments.map(({ info, liveDocs }) => ({
      maxDoc: info.maxDoc,
      liveDocs: LiveDocs.decode(liveDocs, `${info.name} live docs`),
      open: (load: Parameters<typeof SegmentReader.open>[3]) => SegmentReader.open(dir, info, undefined, load),
    }));
    const merged = await mergeSegments(name, sources, async (phase) => {
      files?.write(phase);
      await ask({ type: 'write', id: nextId++, files: [...phase], written: files !== null }, transferableFiles(phase));
    });
    port.postMessage({ type: 'done', info: merged.info, docMaps: merged.docMaps } satisfies MergeThreadMessage);
  } catch (e) {
    port.postMessage({ type: 'failed', ...threadFailure(e) } satisfies MergeThreadMessage);
  }
}
