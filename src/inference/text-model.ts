/**
 * What a provider implements: a model that embeds exact texts (prompts already applied). The
 * {@link EmbeddingModel} in front of it adds prompts, the cache and the engine's `Embedder` port.
 */

/** A provider's model: local ONNX or a remote endpoint. */
export interface TextModel {
  /** Length of every vector. */
  readonly dimensions: number;
  /**
   * One vector per text, in order. `urgent` work (a query someone waits for) runs before queued
   * bulk work (documents) where the provider can reorder.
   */
  embedTexts(texts: readonly string[], urgent: boolean): Promise<Float32Array[]>;
  /** Releases the model (threads, sessions, sockets). */
  close(): Promise<void>;
}
