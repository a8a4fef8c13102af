/**
 * The value of a semantic text field (`search.semantic`), in Nixiesearch's pre-embedded form:
 * `{"title": {"text": "...", "embedding": [0.1, ...]}}` next to plain `{"title": "..."}`. The text
 * goes on to the ordinary text checks (lexical index, stored fields); the embedding becomes the
 * document's vector for the field. A `text[]` field takes a list of such values (or strings) and
 * keeps ONE vector per document: the embedding of its first value that has one. (Nixiesearch
 * indexes every value as a block-join child and scores by the best; one vector per document keeps
 * the per-segment docId -> vector mapping one-to-one, and the first value is the one a `text[]`
 * field usually leads with, such as a title before its alternates.)
 */
import { fail } from './invalid-document.js';
import type { DocumentLocation } from './invalid-document.js';
import { isObject } from './field-values.js';

/** A semantic field's value split into its text part and its vector (undefined: none given). */
export interface SemanticValue {
  readonly text: unknown;
  readonly vector: Float32Array | undefined;
}

/**
 * Splits a semantic field's JSON value. `dim` is the field's dimension when the mapping fixes it
 * (`dim: N`), null when a model decides it (then only the values are checked here; the writer
 * checks the length against the field's dimension).
 */
export function splitEmbedding(v: unknown, field: string, dim: number | null, location: DocumentLocation | undefined): SemanticValue {
  if (isObject(v)) return splitOne(v, field, dim, location);
  if (!Array.isArray(v)) return { text: v, vector: undefined };
  let vector: Float32Array | undefined;
  const texts: unknown[] = [];
  for (const item of v as readonly unknown[]) {
    if (!isObject(item)) {
      texts.push(item);
      continue;
    }
    const one = splitOne(item, field, dim, location);
    if (one.text !== undefined) texts.push(one.text);
    vector ??= one.vector;
  }
  return { text: texts, vector };
}

function splitOne(o: Record<string, unknown>, field: string, dim: number | null, location: DocumentLocation | undefined): SemanticValue {
  for (const key of Object.keys(o)) {
    if (key !== 'text' && key !== 'embedding') fail(location, `${field}.${key}`, 'only "text" and "embedding" in a pre-embedded value', o[key], null);
  }
  const vector = o.embedding === undefined || o.embedding === null ? undefined : readVector(o.embedding, `${field}.embedding`, dim, location);
  return { text: o.text ?? undefined, vector };
}

/** Checks an embedding: an array of `dim` finite numbers (any positive length when dim is null). */
export function readVector(raw: unknown, field: string, dim: number | null, location: DocumentLocation | undefined): Float32Array {
  const expected = dim === null ? 'an array of numbers' : `an array of ${dim} numbers`;
  if (!Array.isArray(raw)) return fail(location, field, expected, raw, null);
  const list = raw as readonly unknown[];
  if ((dim !== null && list.length !== dim) || list.length === 0) fail(location, field, expected, raw, `${list.length} numbers`);
  const vector = new Float32Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (typeof x !== 'number') fail(location, `${field}[${i}]`, 'number', x, null);
    if (!Number.isFinite(x) || Math.abs(x) > 3.4028234663852886e38) fail(location, `${field}[${i}]`, 'finite number', x, 'not finite');
    vector[i] = x;
  }
  return vector;
}
