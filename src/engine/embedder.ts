/**
 * The `Embedder` port: how the engine turns text into vectors without knowing where the model runs.
 * `src/inference` implements it (a local ONNX model, an OpenAI-compatible endpoint, a cache in
 * front of either); the engine only calls it. No I/O here: this file is a contract.
 */

/**
 * What a text is embedded as. Asymmetric models (e5, bge) embed a query and a passage with
 * different prompt prefixes, so a search embeds its query text as `query` and indexing embeds field
 * values as `document`.
 */
export type EmbedKind = 'query' | 'document';

/**
 * A text embedding model.
 *
 * Contract:
 * - `embed(texts, kind)` resolves to one vector per text, in the same order, each of length
 *   {@link Embedder.dimensions}; an empty `texts` resolves to `[]`.
 * - The same text and kind give the same vector (to floating-point noise) for the life of the model:
 *   callers may cache vectors, and the write-ahead log stores them so a replay never re-embeds.
 * - Implementations bound their own memory and never block the event loop for long: callers may
 *   pass large batches.
 * - Failures reject with an error whose message is one readable line (model missing, endpoint
 *   down, wrong dimension); nothing is partially returned.
 */
export interface Embedder {
  /** The model's name as configured (`inference.embedding.<name>`). */
  readonly name: string;
  /** Length of every vector this model returns. */
  readonly dimensions: number;
  /** Embeds `texts` as `kind`, one vector per text, in order. */
  embed(texts: readonly string[], kind: EmbedKind): Promise<Float32Array[]>;
}
