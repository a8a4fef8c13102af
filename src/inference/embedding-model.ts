/**
 * The engine's `Embedder` over a provider's {@link TextModel}: adds the model's prompt prefixes,
 * answers repeated texts from the shared {@link EmbeddingCache}, embeds each distinct missing text
 * once, and sends queries ahead of queued documents.
 */
import type { EmbedKind, Embedder } from '../engine/embedder.js';
import { EmbeddingCache } from './embedding-cache.js';
import type { Prompts } from './model-defaults.js';
import type { TextModel } from './text-model.js';

/** What a text is embedded as: the engine's kinds, or `raw` (no prompt; `/inference/embedding`'s default). */
export type EmbedInputKind = EmbedKind | 'raw';

/** An embedding model ready to use. */
export class EmbeddingModel implements Embedder {
  constructor(
    readonly name: string,
    /** `onnx` or `openai`. */
    readonly provider: string,
    private readonly model: TextModel,
    readonly prompt: Prompts,
    /** Null when the config says `cache: false`. */
    readonly cache: EmbeddingCache | null,
  ) {}

  get dimensions(): number {
    return this.model.dimensions;
  }

  /** One vector per text, in order; cached vectors are shared, callers must not modify them. */
  async embed(texts: readonly string[], kind: EmbedInputKind): Promise<Float32Array[]> {
    const prefix = kind === 'query' ? this.prompt.query : kind === 'document' ? this.prompt.doc : '';
    const out = new Array<Float32Array>(texts.length);
    const cache = this.cache;
    // Distinct texts to embed, and where each one's vector goes.
    const missing = new Map<string, { text: string; at: number[] }>();
    texts.forEach((t, i) => {
      const text = prefix + t;
      const key = cache === null ? text : EmbeddingCache.keyOf(text);
      const hit = cache?.get(key);
      if (hit !== undefined) {
        out[i] = hit;
        return;
      }
      const entry = missing.get(key);
      if (entry === undefined) missing.set(key, { text, at: [i] });
      else entry.at.push(i);
    });
    if (missing.size === 0) return out;
    const entries = [...missing];
    const vectors = await this.model.embedTexts(entries.map(([, e]) => e.text), kind === 'query');
    entries.forEach(([key, e], j) => {
      cache?.set(key, vectors[j]);
      for (const i of e.at) out[i] = vectors[j];
    });
    return out;
  }

  /** Releases the provider's model. */
  close(): Promise<void> {
    return this.model.close();
  }
}
