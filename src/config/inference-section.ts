/**
 * The `inference:` section (NIXIESEARCH.md §1.7): embedding, ranker and completion models by name.
 * Both config shapes accept it. This is the config's own typed schema of the documented keys; the
 * inference layer (src/inference/inference-config.ts, in progress on another branch) owns what the
 * values mean, and its schema replaces `inferenceSchema` here once it lands (one import).
 */
import { z } from 'zod';

/** `cache: false` or `{ memory: { max_size } }` (Nixiesearch's embedding cache). */
const cacheSchema = z.union([
  z.boolean(),
  z.strictObject({ memory: z.strictObject({ max_size: z.number().int().positive().optional() }).nullable().optional() }),
]);

/** `2000ms`, `2s`, or a number of milliseconds. */
const durationSchema = z.union([z.string().regex(/^\d+(ms|s|m|h|d)$/, 'expected a duration such as 2000ms or 2s'), z.number().nonnegative()]);

const promptSchema = z.strictObject({ query: z.string().optional(), doc: z.string().optional() });

/** One embedding model: onnx (default), openai or cohere, with the keys each documents. */
const embeddingSchema = z.strictObject({
  provider: z.enum(['onnx', 'openai', 'cohere']).default('onnx'),
  model: z.string().min(1),
  file: z.string().min(1).optional(),
  max_tokens: z.number().int().positive().optional(),
  batch_size: z.number().int().positive().optional(),
  pooling: z.enum(['cls', 'mean', 'last']).optional(),
  normalize: z.boolean().optional(),
  prompt: promptSchema.optional(),
  device: z.string().min(1).optional(),
  padding_side: z.enum(['left', 'right']).optional(),
  cache: cacheSchema.optional(),
  endpoint: z.string().min(1).optional(),
  timeout: durationSchema.optional(),
  dimensions: z.number().int().positive().nullable().optional(),
  retry: z.number().int().nonnegative().optional(),
});

const rankerSchema = z.strictObject({
  provider: z.enum(['onnx']).default('onnx'),
  model: z.string().min(1),
  file: z.string().min(1).optional(),
  max_tokens: z.number().int().positive().optional(),
  batch_size: z.number().int().positive().optional(),
  device: z.string().min(1).optional(),
  padding_side: z.enum(['left', 'right']).optional(),
  prompt: z.string().optional(),
  logits_processor: z.enum(['sigmoid', 'noop']).optional(),
});

const completionSchema = z.strictObject({
  provider: z.enum(['llamacpp']),
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

/** The `inference` section. Model names are free-form keys that fields reference. */
export const inferenceSchema = z.strictObject({
  embedding: z.record(z.string(), embeddingSchema).default({}),
  ranker: z.record(z.string(), rankerSchema).default({}),
  completion: z.record(z.string(), completionSchema).default({}),
});

/** The validated `inference` section. */
export type InferenceConfig = z.output<typeof inferenceSchema>;
