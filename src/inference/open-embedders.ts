/**
 * Turns the `inference.embedding` config into loaded models: resolves each `onnx` model's files
 * (downloading a hub handle or URL into the cache directory on first use), reads its pooling and
 * prompts where the config is silent, starts its worker; connects each `openai` model.
 */
import { EmbeddingCache } from './embedding-cache.js';
import { EmbeddingModel } from './embedding-model.js';
import { InferenceError, InferenceErrorCode } from './inference-error.js';
import type { EmbeddingCacheConfig, EmbeddingModelConfig, InferenceConfig, OnnxEmbeddingConfig } from './inference-config.js';
import { modelDefaults } from './model-defaults.js';
import { modelFiles } from './model-files.js';
import { MODEL_LOCATION_FORMS, parseModelLocation } from './model-location.js';
import { OnnxModel } from './onnx-model.js';
import { OpenAiModel } from './openai-model.js';

/** Where and how models load. */
export interface OpenEmbeddersOptions {
  /** Root of downloaded models (`<cacheDir>/models/...`); Nixiesearch's `core.cache.dir`. */
  readonly cacheDir: string;
  /** Hub base URL; default `HF_ENDPOINT`, else https://huggingface.co. */
  readonly hubEndpoint?: string;
  /** Inference threads per local model; default: every core. */
  readonly threads?: number;
  /** Most padded tokens per local model call (bounds the runtime's memory); default 1024. */
  readonly maxBatchTokens?: number;
  /** Module the ONNX worker loads its runtime from (default `onnxruntime-node`). */
  readonly runtimeModule?: string;
  /** Progress lines (downloads, loads), for the log. */
  readonly log?: (line: string) => void;
}

function cacheOf(config: EmbeddingCacheConfig): EmbeddingCache | null {
  return config === false ? null : new EmbeddingCache(config.memory.max_size, config.memory.max_bytes);
}

/** Loads one model. */
export async function openEmbedder(name: string, config: EmbeddingModelConfig, options: OpenEmbeddersOptions): Promise<EmbeddingModel> {
  if (config.provider === 'openai') {
    const model = await OpenAiModel.open(name, config);
    return new EmbeddingModel(name, 'openai', model, { query: '', doc: '' }, cacheOf(config.cache));
  }
  if (config.provider === 'cohere') {
    throw new InferenceError(
      InferenceErrorCode.modelUnavailable,
      name,
      `embedding model "${name}": provider cohere is not supported; Cohere's models are reachable through an OpenAI-compatible endpoint (provider: openai, endpoint: ...)`,
    );
  }
  return openOnnx(name, config, options);
}

async function openOnnx(name: string, config: OnnxEmbeddingConfig, options: OpenEmbeddersOptions): Promise<EmbeddingModel> {
  const location = parseModelLocation(config.model);
  if (location === null) {
    throw new InferenceError(InferenceErrorCode.modelUnavailable, name, `embedding model "${name}": cannot read model "${config.model}": expected ${MODEL_LOCATION_FORMS}`);
  }
  const started = performance.now();
  const files = await modelFiles(name, location, config.file, {
    cacheDir: options.cacheDir,
    ...(options.hubEndpoint === undefined ? {} : { hubEndpoint: options.hubEndpoint }),
    onDownload: (url) => options.log?.(`embedding model "${name}": downloading ${url}`),
  });
  const defaults = await modelDefaults(files.dir, config.model);
  const pooling = config.pooling ?? defaults.pooling;
  const prompt = config.prompt ?? defaults.prompt;
  const cpuThreads = /^cpu:(\d+)$/.exec(config.device)?.[1];
  if (!config.device.startsWith('cpu')) options.log?.(`embedding model "${name}": device ${config.device} requested; running on the CPU (the runtime installed is onnxruntime-node's CPU build)`);
  const threads = cpuThreads === undefined ? options.threads : Number(cpuThreads);
  const model = await OnnxModel.load(name, files, {
    pooling,
    normalize: config.normalize,
    maxTokens: config.max_tokens,
    batchSize: config.batch_size,
    ...(threads === undefined ? {} : { threads }),
    ...(options.maxBatchTokens === undefined ? {} : { maxBatchTokens: options.maxBatchTokens }),
    ...(options.runtimeModule === undefined ? {} : { runtimeModule: options.runtimeModule }),
  });
  options.log?.(`embedding model "${name}": loaded ${files.onnxPath} in ${Math.round(performance.now() - started)} ms (${model.dimensions} dimensions, ${pooling} pooling${config.normalize ? ', normalized' : ''})`);
  return new EmbeddingModel(name, 'onnx', model, prompt, cacheOf(config.cache));
}

/** Loads every model of `config`; on a failure, closes the ones already loaded and rethrows. */
export async function openEmbedders(config: InferenceConfig, options: OpenEmbeddersOptions): Promise<Map<string, EmbeddingModel>> {
  const models = new Map<string, EmbeddingModel>();
  try {
    for (const [name, model] of Object.entries(config.embedding)) models.set(name, await openEmbedder(name, model, options));
  } catch (e) {
    await closeEmbedders(models);
    throw e;
  }
  return models;
}

/** Closes every model. */
export async function closeEmbedders(models: ReadonlyMap<string, EmbeddingModel>): Promise<void> {
  await Promise.all([...models.values()].map((m) => m.close()));
}
