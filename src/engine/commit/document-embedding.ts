/**
 * Embedding at the edge of the write path: before a batch is logged, every semantic field whose
 * mapping names a model (`search.semantic.model`) gets the vector of its text when the document
 * did not bring one (pre-embedded input keeps its own). The write-ahead log then stores the vectors,
 * so a replay never calls a model again and a crash never loses paid-for embeddings.
 *
 * Texts go to each model in chunks of {@link EMBED_CHUNK} (the model splits a chunk into its own
 * `batch_size` calls, in its worker thread or over HTTP), so the event loop stays free and memory is
 * bounded by a chunk, whatever the size of the batch. A text[] field is embedded by its first value
 * (one vector per document and field; schema/semantic-values.ts). Identical texts of a batch are
 * embedded once. All or nothing: if a model fails, the batch is refused with `embedding_failed`
 * naming the model and field, and nothing of it is written.
 */
import type { Embedder } from '../embedder.js';
import { ErrorCode, YarrowError } from '../errors.js';
import type { ValidDocument } from '../schema/document.js';
import type { Mapping } from '../schema/mapping.js';

/** Most texts handed to a model at once. */
export const EMBED_CHUNK = 256;

/** One model-embedded field of the mapping. */
interface ModelField {
  readonly field: string;
  readonly model: string;
}

/**
 * The text of `field` that its model embeds: the first value, when it is a string with something
 * other than white space. A blank text has no vector (it would be a vector of nothing), so a
 * document with one is indexed without a vector for that field, as one without the field is.
 */
export function textToEmbed(doc: ValidDocument, field: string): string | null {
  const first = doc.values.get(field)?.[0];
  return typeof first === 'string' && first.trim() !== '' ? first : null;
}

/** Model-embedded fields per mapping, computed once. */
const fieldsOf = new WeakMap<Mapping, readonly ModelField[]>();

function modelFields(mapping: Mapping): readonly ModelField[] {
  let fields = fieldsOf.get(mapping);
  if (fields === undefined) {
    fields = mapping.fields.flatMap((f) => (f.semantic?.model == null ? [] : [{ field: f.name, model: f.semantic.model }]));
    fieldsOf.set(mapping, fields);
  }
  return fields;
}

/**
 * Returns `docs` with the missing vectors of model-embedded fields filled in (documents that need
 * nothing are returned as they are). Rejects with `embedding_failed` when a model is not loaded or
 * fails; the caller then writes nothing.
 */
export async function embedDocuments(docs: readonly ValidDocument[], mapping: Mapping, embedders: ReadonlyMap<string, Embedder>): Promise<readonly ValidDocument[]> {
  const fields = modelFields(mapping);
  if (fields.length === 0 || docs.length === 0) return docs;
  // doc index -> vectors added to it
  const added = new Map<number, Map<string, Float32Array>>();
  for (const { field, model } of fields) {
    const wanting: number[] = [];
    const texts: string[] = [];
    docs.forEach((doc, i) => {
      if (doc.vectors.has(field)) return;
      const text = textToEmbed(doc, field);
      if (text === null) return;
      wanting.push(i);
      texts.push(text);
    });
    if (wanting.length === 0) continue;
    const embedder = embedders.get(model);
    if (embedder === undefined) {
      throw new YarrowError(ErrorCode.embeddingFailed, `field "${field}" is embedded by model "${model}", which this process has not loaded (inference.embedding.${model}): nothing of the batch was written`, { field, model });
    }
    const vectors = await embedUnique(embedder, texts, field);
    wanting.forEach((docIndex, j) => {
      let map = added.get(docIndex);
      if (map === undefined) added.set(docIndex, (map = new Map<string, Float32Array>()));
      map.set(field, vectors[j]);
    });
  }
  if (added.size === 0) return docs;
  return docs.map((doc, i) => {
    const extra = added.get(i);
    return extra === undefined ? doc : { ...doc, vectors: new Map([...doc.vectors, ...extra]) };
  });
}

/** Embeds `texts` as documents, each distinct text once, chunk by chunk; one vector per text, in order. */
async function embedUnique(embedder: Embedder, texts: readonly string[], field: string): Promise<Float32Array[]> {
  const distinct = [...new Set(texts)];
  const byText = new Map<string, Float32Array>();
  for (let start = 0; start < distinct.length; start += EMBED_CHUNK) {
    const chunk = distinct.slice(start, start + EMBED_CHUNK);
    let vectors: Float32Array[];
    try {
      vectors = await embedder.embed(chunk, 'document');
    } catch (e) {
      throw new YarrowError(ErrorCode.embeddingFailed, `embedding model "${embedder.name}" failed on field "${field}": ${(e as Error).message}; nothing of the batch was written`, { field, model: embedder.name }, { cause: e });
    }
    if (vectors.length !== chunk.length) {
      throw new YarrowError(ErrorCode.embeddingFailed, `embedding model "${embedder.name}" returned ${vectors.length} vectors for ${chunk.length} texts of field "${field}"; nothing of the batch was written`, { field, model: embedder.name });
    }
    chunk.forEach((t, i) => byText.set(t, vectors[i]));
  }
  return texts.map((t) => byText.get(t)!);
}
