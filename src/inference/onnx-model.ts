/**
 * A local ONNX embedding model, run in a worker thread (src/inference/onnx-worker.ts) so the event
 * loop of the process that serves HTTP never waits for tokenizing or inference. Runtime:
 * onnxruntime-node (CPU binaries inside the npm package) with @huggingface/tokenizers (pure
 * JavaScript); measured against transformers.js, the same vectors load in 0.4 s instead of 5.4 s
 * with ~180 MB less memory (docs/inference.md).
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { InferenceError, InferenceErrorCode } from './inference-error.js';
import type { Pooling } from './model-defaults.js';
import type { ModelFiles } from './model-files.js';
import type { FromWorker, OnnxWorkerData, ToWorker } from './onnx-worker.js';
import type { TextModel } from './text-model.js';
import { MAX_BATCH_TOKENS } from './token-batches.js';

/** The npm package of the runtime. */
export const ONNX_RUNTIME_PACKAGE = 'onnxruntime-node';

/** How to run a local model. */
export interface OnnxModelOptions {
  readonly pooling: Pooling;
  readonly normalize: boolean;
  readonly maxTokens: number;
  readonly batchSize: number;
  /** Most padded tokens per model call; default {@link MAX_BATCH_TOKENS}. */
  readonly maxBatchTokens?: number;
  /** Inference threads; default: every core. */
  readonly threads?: number;
  /** Module the worker loads the runtime from; default {@link ONNX_RUNTIME_PACKAGE}. */
  readonly runtimeModule?: string;
}

interface Pending {
  readonly resolve: (v: Float32Array) => void;
  readonly reject: (e: Error) => void;
}

/** Starts the worker: built, a .js file; under tsx (tests, benches), its .ts source. */
function startWorker(workerData: OnnxWorkerData): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./onnx-worker.js', import.meta.url), { workerData });
  // tsx's --import hook does not reach worker threads: the worker registers it before loading the source.
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./onnx-worker.ts', import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); })`, { eval: true, workerData });
}

/** A loaded ONNX model and its worker thread. */
export class OnnxModel implements TextModel {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;
  private failure: Error | null = null;

  private constructor(
    private readonly name: string,
    private readonly worker: Worker,
    readonly dimensions: number,
  ) {
    worker.on('message', (m: FromWorker) => {
      if (m.type !== 'embedded' && m.type !== 'failed') return;
      const p = this.pending.get(m.id);
      if (p === undefined) return;
      this.pending.delete(m.id);
      this.updateRef();
      if (m.type === 'embedded') p.resolve(m.vectors);
      else p.reject(new InferenceError(InferenceErrorCode.inferenceFailed, name, `embedding model "${name}" failed: ${m.message}`));
    });
    const fail = (e: Error): void => {
      this.failure = new InferenceError(InferenceErrorCode.inferenceFailed, name, `embedding model "${name}": its worker stopped: ${e.message}`);
      for (const p of this.pending.values()) p.reject(this.failure);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!this.closed) fail(new Error(`exit code ${code}`));
    });
    this.updateRef();
  }

  /** Starts a worker and loads the model in it. */
  static async load(name: string, files: ModelFiles, options: OnnxModelOptions): Promise<OnnxModel> {
    const data: OnnxWorkerData = {
      onnxPath: files.onnxPath,
      tokenizerPath: join(files.dir, 'tokenizer.json'),
      tokenizerConfigPath: join(files.dir, 'tokenizer_config.json'),
      pooling: options.pooling,
      normalize: options.normalize,
      maxTokens: options.maxTokens,
      batchSize: options.batchSize,
      maxBatchTokens: options.maxBatchTokens ?? MAX_BATCH_TOKENS,
      threads: options.threads ?? availableParallelism(),
      runtimeModule: options.runtimeModule ?? ONNX_RUNTIME_PACKAGE,
    };
    const worker = startWorker(data);
    const loaded = await new Promise<FromWorker>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => { reject(new Error(`the model's worker exited with code ${code} while loading`)); });
    }).catch((e: unknown) => ({ type: 'load-failed', message: (e as Error).message, runtimeMissing: false }) as const);
    if (loaded.type === 'loaded') return new OnnxModel(name, worker, loaded.dimensions);
    await worker.terminate();
    if (loaded.type === 'load-failed' && loaded.runtimeMissing) {
      throw new InferenceError(
        InferenceErrorCode.modelUnavailable,
        name,
        `embedding model "${name}": the ONNX runtime is not installed (${loaded.message}). It is the optional dependency ${ONNX_RUNTIME_PACKAGE}: install it with \`ONNXRUNTIME_NODE_INSTALL=skip npm install ${ONNX_RUNTIME_PACKAGE}\`, or use an "openai" provider`,
      );
    }
    const reason = loaded.type === 'load-failed' ? loaded.message : `unexpected message ${loaded.type}`;
    throw new InferenceError(InferenceErrorCode.modelUnavailable, name, `embedding model "${name}": cannot load ${files.onnxPath}: ${reason}`);
  }

  /** Embeds `texts` in the worker. */
  async embedTexts(texts: readonly string[], urgent: boolean): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    if (this.failure !== null) throw this.failure;
    if (this.closed) throw new InferenceError(InferenceErrorCode.inferenceFailed, this.name, `embedding model "${this.name}" is closed`);
    const id = this.nextId++;
    const flat = await new Promise<Float32Array>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.updateRef();
      const message: ToWorker = { type: 'embed', id, texts, urgent };
      this.worker.postMessage(message);
    });
    const d = this.dimensions;
    // Copies, not views: a cached vector must not keep its whole batch's buffer alive.
    return Array.from({ length: texts.length }, (_, i) => flat.slice(i * d, (i + 1) * d));
  }

  /** Stops the worker after the queued jobs. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.worker.ref();
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => { resolve(); }));
    const message: ToWorker = { type: 'close' };
    this.worker.postMessage(message);
    await exited;
  }

  // An idle worker must not keep the process alive (a CLI run that forgets close() still exits).
  private updateRef(): void {
    if (this.pending.size > 0) this.worker.ref();
    else this.worker.unref();
  }
}
