/**
 * The `inference:` config section in Nixiesearch's shape (NIXIESEARCH.md §1.7), as zod: the types
 * are inferred from it and the defaults live in it. It is the one schema of the section: the config
 * file's schema (src/config) plugs it in as `inference: inferenceSchema.optional()`, so a config is
 * validated once, and the models are opened from its output.
 *
 * Everything Nixiesearch 0.8 documents is accepted, so its configs load: `embedding.<name>` models
 * run (onnx, openai); `cohere` embeddings, `ranker` (cross-encoders) and `completion` (llama.cpp)
 * models are validated and kept, and a process that would need one says so when it opens models.
 * This module imports nothing but zod: loading a config never loads a model runtime.
 */
// A namespace import, not `{ z }`: esbuild then bundles only the parts used (not zod's ~40 locales), which halves the CLI's zod load (issue 17).
import * as z from 'zod';

/** Default `max_tokens`: longer inputs are truncated to this many tokens, special tokens included. */
export const DEFAULT_MAX_TOKENS = 512;
/** Default `batch_size`: texts per model call (onnx) or per request (openai). */
export const DEFAULT_BATCH_SIZE = 32;
/** Default in-memory cache size, in entries (Nixiesearch's `cache.memory.max_size`). */
export const DEFAULT_CACHE_ENTRIES = 32_768;
/** Default in-memory cache size, in bytes: keys are hashed, so an entry costs its vector plus ~100 bytes. */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
/** Default OpenAI endpoint (Nixiesearch's default). */
export const DEFAULT_OPENAI_ENDPOINT = 'https://api.openai.com/';
/** Environment variable holding the OpenAI API key by default. */
export const DEFAULT_OPENAI_KEY_ENV = 'OPENAI_API_KEY';

const durationPattern = /^(\d+(?:\.\d+)?)\s*(ms|s|m)$/;

/** A duration as Nixiesearch writes it (`2s`, `2000ms`, `1m`) or a number of milliseconds; parsed to ms. */
export const durationMs = z.union([
  z.number().positive(),
  z.string().regex(durationPattern, 'expected a duration like 2s, 500ms or 1m').transform((s) => {
    const [, value, unit] = durationPattern.exec(s.trim())!;
    return Number(value) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : 60_000);
  }),
]);

/** `cache`: `false`, or `{memory: {max_size, max_bytes}}` (on by default; `memory:` with nothing under it keeps the defaults). */
const cacheSchema = z
  .union([
    z.literal(false),
    z.literal(true).transform(() => ({ memory: { max_size: DEFAULT_CACHE_ENTRIES, max_bytes: DEFAULT_CACHE_BYTES } })),
    z.strictObject({
      memory: z
        .preprocess((v) => v ?? undefined, z.strictObject({
          /** Most entries kept (Nixiesearch's key). */
          max_size: z.number().int().positive().default(DEFAULT_CACHE_ENTRIES),
          /** Most bytes kept: vectors plus keys and bookkeeping. */
          max_bytes: z.number().int().positive().default(DEFAULT_CACHE_BYTES),
        }).optional())
        .transform((m) => m ?? { max_size: DEFAULT_CACHE_ENTRIES, max_bytes: DEFAULT_CACHE_BYTES })
        .default({ max_size: DEFAULT_CACHE_ENTRIES, max_bytes: DEFAULT_CACHE_BYTES }),
    }),
  ])
  .default({ memory: { max_size: DEFAULT_CACHE_ENTRIES, max_bytes: DEFAULT_CACHE_BYTES } });

/** `prompt`: text prepended to queries and to documents (e5: `query: ` / `passage: `). */
const promptSchema = z.strictObject({ query: z.string().default(''), doc: z.string().default('') });

/**
 * `device`: `cpu`, `cpu:<threads>` (Nixiesearch's way to set the inference threads), or a GPU
 * (`gpu`, `cuda`, `cuda:<n>`), which Nixiesearch configs name and which runs on the CPU here (the
 * CPU runtime is the one the npm package ships); opening the model logs that.
 */
const deviceSchema = z
  .string()
  .regex(/^(cpu|gpu|cuda)(:\d+)?$/, 'expected cpu, cpu:<threads>, gpu or cuda:<device>')
  .default('cpu');

/**
 * A local ONNX model. `model` is a hub handle (`org/name`, downloaded on first use into the cache
 * directory), an `http(s)://` URL of a directory holding the files, or a local directory (an
 * absolute path, `./relative`, or `file://`) with `model.onnx` and `tokenizer.json`.
 */
export const onnxEmbeddingSchema = z.strictObject({
  provider: z.literal('onnx'),
  model: z.string().min(1),
  /** The ONNX file inside the model, e.g. `onnx/model_qint8.onnx`; default: `model.onnx`, else the only `.onnx` file. */
  file: z.string().min(1).optional(),
  /** Default: read from the model's `1_Pooling/config.json`, else `mean`; `last` for decoder models (Qwen3). */
  pooling: z.enum(['cls', 'mean', 'last']).optional(),
  normalize: z.boolean().default(true),
  /** Default: the model's `config_sentence_transformers.json` prompts, else guessed from the name (e5, bge), else none. */
  prompt: promptSchema.optional(),
  max_tokens: z.number().int().min(8).max(8192).default(DEFAULT_MAX_TOKENS),
  batch_size: z.number().int().positive().max(1024).default(DEFAULT_BATCH_SIZE),
  device: deviceSchema,
  /** Accepted for Nixiesearch configs: texts are padded on the right and pooling reads real tokens only, so the side changes nothing. */
  padding_side: z.enum(['left', 'right']).optional(),
  cache: cacheSchema,
});

/** Any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, vLLM, llama.cpp server, TEI). */
export const openAiEmbeddingSchema = z.strictObject({
  provider: z.literal('openai'),
  model: z.string().min(1),
  /** Base URL; `/v1/embeddings` is appended unless the path already ends with `/embeddings`. */
  endpoint: z.url({ protocol: /^https?$/ }).default(DEFAULT_OPENAI_ENDPOINT),
  /** Requested vector length (matryoshka models); also checked on every answer. Default (or `null`): the length of a probe embedding. */
  dimensions: z
    .number()
    .int()
    .positive()
    .max(65_536)
    .nullish()
    .transform((d) => d ?? undefined),
  timeout: durationMs.default(2000),
  /** Retries after a failed request (timeouts, connection errors, 429 and 5xx); 4xx answers are not retried. */
  retry: z.number().int().min(0).max(10).default(1),
  batch_size: z.number().int().positive().max(2048).default(DEFAULT_BATCH_SIZE),
  /** Name of the environment variable with the API key (sent as `Authorization: Bearer`); unset or empty means no key. */
  api_key_env: z.string().min(1).default(DEFAULT_OPENAI_KEY_ENV),
  cache: cacheSchema,
});

/**
 * Cohere's embedding API (Nixiesearch's third provider): validated so its configs load; opening
 * one says to use an OpenAI-compatible endpoint instead (Yarrow has no Cohere client).
 */
export const cohereEmbeddingSchema = z.strictObject({
  provider: z.literal('cohere'),
  model: z.string().min(1),
  endpoint: z.url({ protocol: /^https?$/ }).optional(),
  timeout: durationMs.default(2000),
  retry: z.number().int().min(0).max(10).default(1),
  batch_size: z.number().int().positive().max(2048).default(DEFAULT_BATCH_SIZE),
  cache: cacheSchema,
});

/** Adds `provider: onnx` to an object that names none (Nixiesearch's default provider). */
function defaultProvider(v: unknown): unknown {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !('provider' in v) ? { ...v, provider: 'onnx' } : v;
}

/** One `inference.embedding.<name>` entry; `provider` defaults to `onnx`. */
export const embeddingModelSchema = z.preprocess(defaultProvider, z.discriminatedUnion('provider', [onnxEmbeddingSchema, openAiEmbeddingSchema, cohereEmbeddingSchema]));

/** `ranker.<name>`: an ONNX cross-encoder (Nixiesearch's `cross_encoder` query). Validated and kept; not run yet. */
export const rankerModelSchema = z.preprocess(
  defaultProvider,
  z.strictObject({
    provider: z.literal('onnx'),
    model: z.string().min(1),
    file: z.string().min(1).optional(),
    max_tokens: z.number().int().min(8).max(8192).default(DEFAULT_MAX_TOKENS),
    batch_size: z.number().int().positive().max(1024).default(DEFAULT_BATCH_SIZE),
    device: deviceSchema,
    padding_side: z.enum(['left', 'right']).optional(),
    prompt: z.string().optional(),
    logits_processor: z.enum(['sigmoid', 'noop']).optional(),
  }),
);

/** `completion.<name>`: a llama.cpp model for RAG answers. Validated and kept; not run yet. */
export const completionModelSchema = z.strictObject({
  provider: z.literal('llamacpp'),
  model: z.string().min(1),
  file: z.string().min(1).optional(),
  system: z.string().optional(),
  options: z
    .strictObject({
      threads: z.number().int().positive().optional(),
      gpu_layers: z.number().int().nonnegative().optional(),
      cont_batching: z.boolean().optional(),
      flash_attn: z.boolean().optional(),
      seed: z.number().int().optional(),
    })
    .optional(),
});

/**
 * Model names: used in URLs (`/inference/embedding/<name>`, percent-encoded) and mappings
 * (`semantic: {model: <name>}`). Nixiesearch allows any key; a slash or a space would make a URL
 * path ambiguous or a config hard to read, so those are refused.
 */
const modelNamePattern = /^[^\s/]{1,128}$/;

const modelName = z.string().regex(modelNamePattern, 'model names are 1 to 128 characters without spaces or "/"');

/** The `inference` section. */
export const inferenceSchema = z.strictObject({
  embedding: z.record(modelName, embeddingModelSchema).default({}),
  ranker: z.record(modelName, rankerModelSchema).default({}),
  completion: z.record(modelName, completionModelSchema).default({}),
});

/** A validated `inference` section with every default filled in. */
export type InferenceConfig = z.output<typeof inferenceSchema>;
/** One embedding model's config. */
export type EmbeddingModelConfig = z.output<typeof embeddingModelSchema>;
/** An `onnx` model's config. */
export type OnnxEmbeddingConfig = z.output<typeof onnxEmbeddingSchema>;
/** A `cohere` model's config (accepted, not served). */
export type CohereEmbeddingConfig = z.output<typeof cohereEmbeddingSchema>;
/** An `openai` model's config. */
export type OpenAiEmbeddingConfig = z.output<typeof openAiEmbeddingSchema>;
/** A model's `cache` setting. */
export type EmbeddingCacheConfig = z.output<typeof cacheSchema>;
