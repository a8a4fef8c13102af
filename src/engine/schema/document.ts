/**
 * Document validation: checks one parsed JSON value against a mapping and normalises its values
 * for the writer. This is on the indexing hot path, so each mapping is compiled once into a flat
 * field plan (cached per mapping) and the per-document loop allocates only its results. Value
 * checks are in field-values.ts, nested and wildcard fields in nested-fields.ts, and the error in
 * invalid-document.ts; the names other modules use are re-exported here.
 */
import { ErrorCode, YarrowError } from '../errors.js';
import { isWildcardName } from './field-name.js';
import type { Mapping } from './field-table.js';
import { checkValue, noValues, planOf, readId } from './field-values.js';
import type { FieldPlan, FieldValue } from './field-values.js';
import { describeJsonType, locationPrefix } from './invalid-document.js';
import type { DocumentLocation } from './invalid-document.js';
import { addWildcardFields, project, readPath } from './nested-fields.js';
import { splitEmbedding } from './semantic-values.js';

export type { FieldValue } from './field-values.js';
export { describeJsonType } from './invalid-document.js';
export type { DocumentLocation } from './invalid-document.js';

/** A validated document. */
export interface ValidDocument {
  /** The document's `_id` as a string, or undefined when absent (the writer generates one). */
  readonly id: string | undefined;
  /**
   * Field name -> normalised values, for every mapped field (`_id` included), possibly empty, and
   * for every document field a wildcard pattern maps (under its concrete dotted name): strings for
   * text/id, numbers for int/long/float/double, booleans for bool, epoch milliseconds for
   * date/datetime; geopoints are validated and stored but not indexed (no values). Unmapped fields
   * are dropped.
   */
  readonly values: ReadonlyMap<string, readonly FieldValue[]>;
  /**
   * The stored subset of the original document: `_id` (as its string form) and the original JSON
   * values of fields with `store: true`, ready for JSON. Dotted fields read from nested objects
   * (and arrays of objects) are stored in the same nesting, so validating the stored form again
   * gives the same values.
   */
  readonly stored: Record<string, unknown>;
  /**
   * Semantic field name -> the document's vector for it (one per field; see semantic-values.ts
   * for `text[]`): pre-embedded input, or filled by the embedder before the write-ahead log. A
   * field without a vector (no text, or text not embedded yet) is absent.
   */
  readonly vectors: ReadonlyMap<string, Float32Array>;
}

/** No vectors; shared so documents without semantic fields allocate nothing. */
export const noVectors: ReadonlyMap<string, Float32Array> = new Map();

/** A mapping compiled for validation: its plain fields, and its wildcard patterns when it has any. */
interface Plan {
  readonly fields: readonly FieldPlan[];
  /** Names of the plain fields; null when the mapping has no wildcards (then no walk is needed). */
  readonly plain: ReadonlySet<string> | null;
}

const plans = new WeakMap<Mapping, Plan>();

function compile(mapping: Mapping): Plan {
  let plan = plans.get(mapping);
  if (plan === undefined) {
    const fields = mapping.fields.filter((f) => f.name !== '_id' && !isWildcardName(f.name)).map((f) => planOf(f));
    plan = { fields, plain: mapping.hasWildcards ? new Set(mapping.fields.map((f) => f.name)) : null };
    plans.set(mapping, plan);
  }
  return plan;
}

/**
 * Validates one parsed JSON value against the mapping (SPEC §3) and normalises its values. Nested
 * objects are read through dotted names, arrays of objects give repeated values (the field must
 * be a `[]` type), and document fields matching a wildcard field get its mapping.
 * @throws YarrowError(ErrorCode.invalidDocument) with `{ ...location, field, expected, actual }`
 *   and a one-line message such as `line 12: field "year": expected int, got string ("1999")`.
 */
export function validateDocument(mapping: Mapping, raw: unknown, location?: DocumentLocation): ValidDocument {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    const actual = describeJsonType(raw);
    throw new YarrowError(ErrorCode.invalidDocument, `${locationPrefix(location)}expected a JSON object, got ${actual}`, {
      ...location,
      expected: 'object',
      actual,
    });
  }
  const doc = raw as Record<string, unknown>;
  const plan = compile(mapping);
  const id = readId(Object.hasOwn(doc, '_id') ? doc._id : undefined, location);
  const values = new Map<string, readonly FieldValue[]>();
  values.set('_id', id === undefined ? noValues : [id]);
  const stored: Record<string, unknown> = {};
  if (id !== undefined) stored._id = id;
  let vectors: Map<string, Float32Array> | null = null;
  for (const f of plan.fields) {
    if (f.path === null || Object.hasOwn(doc, f.name)) {
      let v = f.guarded && !Object.hasOwn(doc, f.name) ? undefined : doc[f.name];
      if (f.semantic !== null && typeof v === 'object' && v !== null) {
        // Pre-embedded: the text is indexed and stored as plain text, the embedding kept apart.
        const split = splitEmbedding(v, f.name, f.semantic.dim, location);
        v = split.text;
        if (split.vector !== undefined) (vectors ??= new Map()).set(f.name, split.vector);
      }
      values.set(f.name, checkValue(v, false, f, location));
      if (f.store && v !== undefined && v !== null) stored[f.name] = v;
      continue;
    }
    const found: unknown[] = [];
    const fannedOut = readPath(doc, f.path, 0, found, location);
    const v = fannedOut ? found.flat() : found[0];
    values.set(f.name, checkValue(v, fannedOut, f, location));
    if (f.store && v !== undefined && v !== null) project(stored, doc, f.path, 0);
  }
  if (plan.plain !== null) addWildcardFields(mapping, plan.plain, doc, values, stored, location);
  return { id, values, stored, vectors: vectors ?? noVectors };
}
