/**
 * The worker thread that runs a local ONNX model. onnxruntime-node's `session.run()` holds the
 * calling thread for the whole inference (measured: the event loop stalls for the full batch), so
 * tokenizing, inference and pooling all happen here and the main thread only posts texts and
 * receives vectors (transferred, not copied).
 *
 * Jobs are served one sub-batch at a time, urgent jobs (queries) first: a query waits for at most
 * one sub-batch of documents, not for a whole bulk load. The runtime's CPU memory arena is off: with
 * it on, peak RSS reached 1.5 GB on 32 x 256-token batches; off, about 0.3 GB, at the same speed.
 */
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { Tokenizer as HfTokenizer } from '@huggingface/tokenizers';
import type { InferenceSession, Tensor, TypedTensor } from 'onnxruntime-node';
import type { Pooling } from './model-defaults.js';
import { normalizeRow, poolInto } from './pooling.js';
import { buildInputs, encodeTruncated, planSubBatches } from './token-batches.js';
import type { SubBatch, TextTokenizer, TokenIds } from './token-batches.js';

const Tokenizer = HfTokenizer as unknown as new (tokenizerJson: object, tokenizerConfig: object) => TextTokenizer;

/** What the worker is started with. */
export interface OnnxWorkerData {
  readonly onnxPath: string;
  readonly tokenizerPath: string;
  readonly tokenizerConfigPath: string;
  readonly pooling: Pooling;
  readonly normalize: boolean;
  readonly maxTokens: number;
  readonly batchSize: number;
  /** Most padded tokens per model call. */
  readonly maxBatchTokens: number;
  readonly threads: number;
  /** Module to load the runtime from (`onnxruntime-node`). */
  readonly runtimeModule: string;
}

/** Messages to the worker. */
export type ToWorker = { readonly type: 'embed'; readonly id: number; readonly texts: readonly string[]; readonly urgent: boolean } | { readonly type: 'close' };

/** Messages from the worker. */
export type FromWorker =
  | { readonly type: 'loaded'; readonly dimensions: number; readonly inputs: readonly string[]; readonly outputs: readonly string[] }
  | { readonly type: 'load-failed'; readonly message: string; readonly runtimeMissing: boolean }
  | { readonly type: 'embedded'; readonly id: number; readonly vectors: Float32Array }
  | { readonly type: 'failed'; readonly id: number; readonly message: string }
  | { readonly type: 'closed' };

type OrtModule = typeof import('onnxruntime-node');

interface Job {
  readonly id: number;
  readonly urgent: boolean;
  readonly encoded: TokenIds[];
  readonly batches: SubBatch[];
  next: number;
  out: Float32Array;
}

const data = workerData as OnnxWorkerData;
const port = parentPort!;

function post(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

async function load(): Promise<{ ort: OrtModule; session: InferenceSession; tokenizer: TextTokenizer; specialIds: Set<number>; dims: number } | null> {
  let ort: OrtModule;
  try {
    ort = (await import(data.runtimeModule)) as OrtModule;
  } catch (e) {
    post({ type: 'load-failed', message: (e as Error).message.split('\n')[0], runtimeMissing: true });
    return null;
  }
  try {
    const tokenizerJson: unknown = JSON.parse(await readFile(data.tokenizerPath, 'utf8'));
    let tokenizerConfig: unknown = {};
    try {
      tokenizerConfig = JSON.parse(await readFile(data.tokenizerConfigPath, 'utf8'));
    } catch {
      // tokenizer_config.json is optional: tokenizer.json carries the vocabulary and the pipeline.
    }
    const tokenizer = new Tokenizer(tokenizerJson as object, tokenizerConfig as object);
    const specialIds = new Set([...tokenizer.get_added_tokens_decoder()].filter(([, t]) => t.special).map(([id]) => id));
    const session = await ort.InferenceSession.create(data.onnxPath, {
      intraOpNumThreads: data.threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      enableCpuMemArena: false,
    });
    for (const name of session.inputNames) {
      if (!['input_ids', 'attention_mask', 'token_type_ids'].includes(name)) throw new Error(`the model takes an input "${name}" that Yarrow does not feed (it feeds input_ids, attention_mask, token_type_ids)`);
    }
    const meta = session.outputMetadata[0] as { shape?: readonly (number | string)[] } | undefined;
    const last = meta?.shape?.[meta.shape.length - 1];
    let dims = typeof last === 'number' ? last : 0;
    const state = { ort, session, tokenizer, specialIds, dims };
    if (dims === 0) dims = (await embedBatch(state, [encodeTruncated(tokenizer, specialIds, 'dimension probe', data.maxTokens)], { rows: [0], seq: 0 })).length;
    post({ type: 'loaded', dimensions: dims, inputs: session.inputNames, outputs: session.outputNames });
    return { ...state, dims };
  } catch (e) {
    post({ type: 'load-failed', message: (e as Error).message.split('\n')[0], runtimeMissing: false });
    return null;
  }
}

type State = NonNullable<Awaited<ReturnType<typeof load>>>;

/** Runs one sub-batch; returns its pooled vectors, row-major. */
async function embedBatch(state: Omit<State, 'dims'> & { dims: number }, encoded: readonly TokenIds[], planned: SubBatch): Promise<Float32Array> {
  const batch = planned.seq === 0 ? { rows: planned.rows, seq: Math.max(1, ...planned.rows.map((r) => encoded[r].length)) } : planned;
  const { ids, mask, types, lengths } = buildInputs(encoded, batch);
  const shape = [batch.rows.length, batch.seq];
  const feeds: Record<string, Tensor> = {};
  const { ort, session } = state;
  for (const name of session.inputNames) {
    feeds[name] = new ort.Tensor('int64', name === 'input_ids' ? ids : name === 'attention_mask' ? mask : types, shape);
  }
  const result = await session.run(feeds);
  const output = result[session.outputNames[0]] as TypedTensor<'float32'>;
  const rows = batch.rows.length;
  try {
    if (output.dims.length === 2) {
      // An export that pools inside the graph (sentence_embedding).
      const dims = output.dims[1];
      const out = Float32Array.from(output.data);
      if (data.normalize) for (let r = 0; r < rows; r++) normalizeRow(out, r * dims, dims);
      return out;
    }
    const dims = output.dims[2];
    const out = new Float32Array(rows * dims);
    poolInto(out, output.data, rows, output.dims[1], dims, lengths, data.pooling, data.normalize);
    return out;
  } finally {
    for (const t of Object.values(result)) t.dispose();
  }
}

async function serve(state: State): Promise<void> {
  const queue: Job[] = [];
  // An object, not a let: the message handler sets it between awaits.
  const control = { closing: false };
  let wake: (() => void) | null = null;
  port.on('message', (message: ToWorker) => {
    if (message.type === 'close') {
      control.closing = true;
    } else {
      try {
        const encoded = message.texts.map((t) => encodeTruncated(state.tokenizer, state.specialIds, t, data.maxTokens));
        queue.push({ id: message.id, urgent: message.urgent, encoded, batches: planSubBatches(encoded, data.batchSize, data.maxBatchTokens), next: 0, out: new Float32Array(encoded.length * state.dims) });
      } catch (e) {
        post({ type: 'failed', id: message.id, message: `tokenizing failed: ${(e as Error).message}` });
      }
    }
    wake?.();
  });
  for (;;) {
    if (queue.length === 0) {
      if (control.closing) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = null;
      continue;
    }
    const at = Math.max(0, queue.findIndex((j) => j.urgent));
    const job = queue[at];
    const batch = job.batches[job.next++];
    try {
      const vectors = await embedBatch(state, job.encoded, batch);
      batch.rows.forEach((row, r) => {
        job.out.set(vectors.subarray(r * state.dims, (r + 1) * state.dims), row * state.dims);
      });
      if (job.next === job.batches.length) {
        queue.splice(at, 1);
        post({ type: 'embedded', id: job.id, vectors: job.out }, [job.out.buffer as ArrayBuffer]);
      }
    } catch (e) {
      queue.splice(at, 1);
      post({ type: 'failed', id: job.id, message: (e as Error).message.split('\n')[0] });
    }
    // Let new jobs (and a query that jumps the queue) in between sub-batches.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await state.session.release();
  post({ type: 'closed' });
  port.close();
}

const loaded = await load();
if (loaded !== null) await serve(loaded);
