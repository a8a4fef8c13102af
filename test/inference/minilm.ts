/**
 * The real model the inference tests run: all-MiniLM-L6-v2 as ONNX, laid out by
 * scripts/models/fetch-minilm.sh (CI runs it). Without it the tests fail, saying so; none skips.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { onnxEmbeddingSchema } from '../../src/inference/index.js';
import type { OnnxEmbeddingConfig } from '../../src/inference/index.js';

/** The model directory. */
export const MINILM_DIR = fileURLToPath(new URL('../../.tools/models/all-MiniLM-L6-v2', import.meta.url));

/** Files the hub-shaped test servers serve (what the fetch script lays out). */
export const MINILM_FILES = ['model.onnx', 'tokenizer.json', 'tokenizer_config.json', 'config.json', 'special_tokens_map.json', '1_Pooling/config.json', 'config_sentence_transformers.json', 'modules.json'];

/** The model directory; throws a clear message when the fetch script has not run. */
export function minilmDir(): string {
  for (const f of ['model.onnx', 'tokenizer.json']) {
    if (!existsSync(`${MINILM_DIR}/${f}`)) {
      throw new Error(`the test model is missing (${MINILM_DIR}/${f}): run \`bash scripts/models/fetch-minilm.sh\` once (CI does, in .ci/run)`);
    }
  }
  return MINILM_DIR;
}

/** An onnx config for the local model, with overrides. */
export function minilmConfig(overrides: Record<string, unknown> = {}): OnnxEmbeddingConfig {
  return onnxEmbeddingSchema.parse({ provider: 'onnx', model: minilmDir(), ...overrides });
}

/** Dot product (a cosine for normalised vectors). */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** L2 norm. */
export function norm(a: Float32Array): number {
  return Math.sqrt(dot(a, a));
}
