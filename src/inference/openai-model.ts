/**
 * An OpenAI-compatible embeddings endpoint (`POST <endpoint>/v1/embeddings`, as OpenAI, Ollama,
 * vLLM, llama.cpp's server and TEI answer it): texts go in batches of `batch_size`, each request
 * bounded by `timeout` and retried `retry` times on timeouts, connection errors, 429 and 5xx with
 * exponential back-off. Every answer is checked: one finite vector per input, each of the
 * configured length, so a misconfigured endpoint fails loudly instead of filling an index with
 * vectors of the wrong model.
 */
import { InferenceError, InferenceErrorCode, reasonOf } from './inference-error.js';
import type { OpenAiEmbeddingConfig } from './inference-config.js';
import type { TextModel } from './text-model.js';

/** First back-off before a retry, doubled on each further one. */
const FIRST_BACKOFF_MS = 100;

/** The URL requests go to: `/v1/embeddings` appended unless the endpoint already names it. */
export function embeddingsUrl(endpoint: string): string {
  const base = endpoint.replace(/\/+$/, '');
  if (base.endsWith('/embeddings')) return base;
  if (base.endsWith('/v1')) return `${base}/embeddings`;
  return `${base}/v1/embeddings`;
}

class RetryableError extends Error {}

/** A remote model behind an OpenAI-compatible API. */
export class OpenAiModel implements TextModel {
  private readonly url: string;
  private readonly key: string | undefined;

  private constructor(
    private readonly name: string,
    private readonly config: OpenAiEmbeddingConfig,
    public dimensions: number,
  ) {
    this.url = embeddingsUrl(config.endpoint);
    const key = process.env[config.api_key_env];
    this.key = key === undefined || key === '' ? undefined : key;
  }

  /** Connects; without configured `dimensions`, embeds one probe text to learn them. */
  static async open(name: string, config: OpenAiEmbeddingConfig): Promise<OpenAiModel> {
    const model = new OpenAiModel(name, config, config.dimensions ?? 0);
    if (config.dimensions === undefined) {
      const [probe] = await model.request(['dimension probe'], 'probe').catch((e: unknown) => {
        throw new InferenceError(InferenceErrorCode.modelUnavailable, name, (e as Error).message, { cause: e });
      });
      model.dimensions = probe.length;
    }
    return model;
  }

  /** Embeds `texts`, `batch_size` per request. */
  async embedTexts(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.config.batch_size) {
      out.push(...(await this.request(texts.slice(i, i + this.config.batch_size), 'embed')));
    }
    return out;
  }

  /** Nothing to release: requests hold no connection between calls. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  private fail(message: string, cause?: unknown): InferenceError {
    return new InferenceError(InferenceErrorCode.inferenceFailed, this.name, `embedding model "${this.name}" (${this.url}): ${message}`, cause === undefined ? undefined : { cause });
  }

  private async request(texts: readonly string[], purpose: 'probe' | 'embed'): Promise<Float32Array[]> {
    const body = JSON.stringify({
      model: this.config.model,
      input: texts,
      encoding_format: 'float',
      ...(this.config.dimensions === undefined ? {} : { dimensions: this.config.dimensions }),
    });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.key !== undefined) headers.authorization = `Bearer ${this.key}`;
    let last: Error = new Error('no attempt made');
    for (let attempt = 0; attempt <= this.config.retry; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, FIRST_BACKOFF_MS * 2 ** (attempt - 1)));
      try {
        return this.parse(await this.once(body, headers), texts.length, purpose);
      } catch (e) {
        if (!(e instanceof RetryableError)) throw e;
        last = e;
      }
    }
    const tries = this.config.retry + 1;
    throw this.fail(`${last.message} (${tries} ${tries === 1 ? 'attempt' : 'attempts'}, timeout ${this.config.timeout} ms each)`, last);
  }

  private async once(body: string, headers: Record<string, string>): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(this.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(this.config.timeout) });
    } catch (e) {
      const name = (e as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new RetryableError(`no answer within ${this.config.timeout} ms`);
      throw new RetryableError(`cannot connect: ${reasonOf(e)}`);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      throw new RetryableError(`the answer was cut: ${reasonOf(e)}`);
    }
    if (res.status === 429 || res.status >= 500) throw new RetryableError(`HTTP ${res.status}: ${text.slice(0, 200)}`);
    if (!res.ok) throw this.fail(`HTTP ${res.status}${res.status === 401 ? ` (is ${this.config.api_key_env} set?)` : ''}: ${text.slice(0, 200)}`);
    try {
      return JSON.parse(text);
    } catch {
      throw this.fail(`the answer is not JSON: ${text.slice(0, 100)}`);
    }
  }

  private parse(json: unknown, count: number, purpose: 'probe' | 'embed'): Float32Array[] {
    const data = (json as { data?: unknown } | null)?.data;
    if (!Array.isArray(data) || data.length !== count) {
      throw this.fail(`expected {"data": [...]} with ${count} embeddings, got ${Array.isArray(data) ? `${data.length}` : 'no data array'}`);
    }
    const out = new Array<Float32Array>(count);
    data.forEach((item: unknown, i) => {
      const { embedding, index } = (item ?? {}) as { embedding?: unknown; index?: unknown };
      const at = typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < count ? index : i;
      if (!Array.isArray(embedding) || !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw this.fail(`data[${i}].embedding is not an array of finite numbers`);
      }
      if (purpose === 'embed' && embedding.length !== this.dimensions) {
        throw this.fail(`answered a vector of ${embedding.length} dimensions, expected ${this.dimensions} (dimensions in the config, or the model's length at startup): is "model" the right model?`);
      }
      out[at] = Float32Array.from(embedding as number[]);
    });
    return out;
  }
}
