/**
 * `POST /inference/embedding/<model>` as in Nixiesearch: `{"input": [{"text", "type"}]}` answers
 * `{"output": [{"embedding": [...]}], "took": <ms>}`. `type` is `query` or `document` (the model's
 * prompt prefix is applied) or `raw` (the default: the text as given); Nixiesearch 0.8 ignores it.
 * Embedding goes through the model's cache, like the engine's own embeddings.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EmbeddingModel, EmbedInputKind } from '../../inference/index.js';
import { InferenceError } from '../../inference/inference-error.js';
import { HttpError, HttpErrorType } from '../http-status.js';
import { readWholeBody } from '../request-body.js';
import type { RouteContext } from '../route-context.js';

/** Most inputs in one request: bounds the vectors held for one answer. */
export const MAX_EMBEDDING_INPUTS = 4096;

const KINDS: readonly EmbedInputKind[] = ['query', 'document', 'raw'];

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

function invalid(message: string, field: string, expected: string, actual: string): HttpError {
  return new HttpError(HttpErrorType.invalidRequest, message, { field, expected, actual });
}

/** The texts and kinds of a request body; 400 naming the field otherwise. */
export function parseEmbeddingRequest(text: string): { texts: string[]; kinds: EmbedInputKind[] } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw invalid(`the request is not valid JSON: ${(e as Error).message}`, '', 'a JSON object', 'invalid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('the request must be a JSON object', '', 'object', typeName(body));
  const input = (body as { input?: unknown }).input;
  if (!Array.isArray(input)) throw invalid('input must be an array of {"text", "type"} objects', 'input', 'array', typeName(input));
  if (input.length > MAX_EMBEDDING_INPUTS) throw invalid(`input has ${input.length} items; at most ${MAX_EMBEDDING_INPUTS} per request`, 'input', `at most ${MAX_EMBEDDING_INPUTS} items`, `${input.length} items`);
  const texts: string[] = [];
  const kinds: EmbedInputKind[] = [];
  input.forEach((item: unknown, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalid(`input[${i}] must be an object {"text", "type"}`, `input[${i}]`, 'object', typeName(item));
    const { text: t, type } = item as { text?: unknown; type?: unknown };
    if (typeof t !== 'string') throw invalid(`input[${i}].text must be a string`, `input[${i}].text`, 'string', typeName(t));
    if (type !== undefined && !KINDS.includes(type as EmbedInputKind)) throw invalid(`input[${i}].type must be one of ${KINDS.join(', ')}`, `input[${i}].type`, KINDS.join(' | '), JSON.stringify(type));
    texts.push(t);
    kinds.push((type as EmbedInputKind | undefined) ?? 'raw');
  });
  return { texts, kinds };
}

/** Embeds `texts`, one model call per kind present, answers in input order. */
async function embedByKind(model: EmbeddingModel, texts: readonly string[], kinds: readonly EmbedInputKind[]): Promise<Float32Array[]> {
  const out = new Array<Float32Array>(texts.length);
  for (const kind of KINDS) {
    const at = kinds.flatMap((k, i) => (k === kind ? [i] : []));
    if (at.length === 0) continue;
    const vectors = await model.embed(at.map((i) => texts[i]), kind);
    at.forEach((i, j) => (out[i] = vectors[j]));
  }
  return out;
}

/** Registers the inference endpoint over the configured embedding models. */
export function registerInferenceRoutes(app: FastifyInstance, ctx: RouteContext, models: ReadonlyMap<string, EmbeddingModel>): void {
  app.post('/inference/embedding/:model', { config: { auth: 'read' } }, async (request: FastifyRequest<{ Params: { model: string } }>) => {
    const started = performance.now();
    const model = models.get(request.params.model);
    if (model === undefined) {
      const known = [...models.keys()];
      throw new HttpError(HttpErrorType.notFound, `no embedding model "${request.params.model}" (configured in inference.embedding: ${known.length === 0 ? 'none' : known.join(', ')})`, { model: request.params.model });
    }
    const raw = request.body as Readable | undefined;
    const text = raw === undefined ? '' : (await readWholeBody(raw, request.headers, ctx.bodyLimit)).toString('utf8');
    const { texts, kinds } = parseEmbeddingRequest(text);
    let vectors: Float32Array[];
    try {
      vectors = await embedByKind(model, texts, kinds);
    } catch (e) {
      if (e instanceof InferenceError) throw new HttpError(HttpErrorType.unavailable, e.message, { model: e.model, code: e.code });
      throw e;
    }
    return { output: vectors.map((v) => ({ embedding: Array.from(v) })), took: Math.round(performance.now() - started) };
  });
}
