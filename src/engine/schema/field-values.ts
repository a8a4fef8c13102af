/**
 * Per-field value checks: each mapped field's JSON value against its type (`_id`, scalars, arrays
 * for `[]` types, geopoints), normalised to what the writer indexes. Kept apart from the document
 * walk so plain fields and wildcard-mapped fields go through the same checks.
 */
import { parseIsoDate, parseIsoDateTime } from './date-time.js';
import type { BaseType, FieldMapping } from './field-table.js';
import { fail } from './invalid-document.js';
import type { DocumentLocation } from './invalid-document.js';
import type { SemanticMapping } from './text-options.js';

/** One normalised field value: text/id as strings, numbers (dates as epoch ms), booleans. */
export type FieldValue = string | number | boolean;

/** No values; shared and frozen so absent fields allocate nothing. */
export const noValues: readonly FieldValue[] = Object.freeze([]);
const int32Min = -2_147_483_648;
const int32Max = 2_147_483_647;
const float32Max = 3.4028234663852886e38;

/** A mapped field, compiled for the validation loop. */
export interface FieldPlan {
  readonly name: string;
  /** Path segments for dotted names, else null. */
  readonly path: readonly string[] | null;
  /** Whether `doc[name]` could reach a value on Object.prototype ("constructor", "toString"...). */
  readonly guarded: boolean;
  readonly baseType: BaseType;
  readonly type: string;
  readonly multi: boolean;
  readonly required: boolean;
  readonly store: boolean;
  /** The vector index of a semantic text field (its values may carry embeddings), else null. */
  readonly semantic: SemanticMapping | null;
}

/** Compiles a mapped field; `name` is the concrete name when a wildcard pattern maps the field. */
export function planOf(f: FieldMapping, name: string = f.name): FieldPlan {
  return {
    name,
    path: name.includes('.') ? name.split('.') : null,
    guarded: name in Object.prototype,
    baseType: f.baseType,
    type: f.type,
    multi: f.multi,
    required: f.required,
    store: f.store,
    semantic: f.semantic,
  };
}

/** Checks a field's value (undefined or null: none) and returns its normalised values. */
export function checkValue(v: unknown, fannedOut: boolean, f: FieldPlan, location: DocumentLocation | undefined): readonly FieldValue[] {
  if (v === undefined || v === null) {
    if (f.required) fail(location, f.name, f.type, v, null);
    return noValues;
  }
  if (f.baseType === 'geopoint') {
    checkGeopoint(v, f, location);
    return noValues;
  }
  if (!Array.isArray(v)) return [normalise(v, f, location)];
  if (!f.multi) fail(location, f.name, f.type, v, fannedOut ? 'repeated through an array of objects: map it as a [] type' : null);
  const out: FieldValue[] = [];
  for (const item of v as readonly unknown[]) if (item !== null) out.push(normalise(item, f, location));
  if (out.length === 0 && f.required) fail(location, f.name, f.type, v, 'empty');
  return out;
}

/** Checks `_id`: a non-empty string or a safe integer, as its string form; undefined when absent. */
export function readId(v: unknown, location: DocumentLocation | undefined): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') {
    if (v.length === 0) fail(location, '_id', 'string or integer', v, 'empty');
    return v;
  }
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) fail(location, '_id', 'string or integer', v, 'not an integer');
    if (!Number.isSafeInteger(v)) fail(location, '_id', 'string or integer', v, 'out of safe integer range');
    return String(v);
  }
  return fail(location, '_id', 'string or integer', v, null);
}

/** A geopoint is one `{ "lat": -90..90, "lon": -180..180 }` object (there is no geopoint[] type, as in Nixiesearch). */
function checkGeopoint(v: unknown, f: FieldPlan, location: DocumentLocation | undefined): void {
  if (!isObject(v)) fail(location, f.name, 'geopoint {"lat","lon"}', v, null);
  const { lat, lon } = v;
  if (typeof lat !== 'number' || lat < -90 || lat > 90) fail(location, `${f.name}.lat`, 'number from -90 to 90', lat, null);
  if (typeof lon !== 'number' || lon < -180 || lon > 180) fail(location, `${f.name}.lon`, 'number from -180 to 180', lon, null);
}

/** Checks one non-null, non-array value against the field's base type. */
function normalise(v: unknown, f: FieldPlan, location: DocumentLocation | undefined): FieldValue {
  const expected = f.baseType;
  switch (expected) {
    case 'text':
      if (typeof v === 'string') return v;
      break;
    case 'int':
      if (typeof v === 'number') {
        if (!Number.isInteger(v)) fail(location, f.name, expected, v, 'not an integer');
        if (v < int32Min || v > int32Max) fail(location, f.name, expected, v, 'out of int range');
        return v;
      }
      break;
    case 'long':
      if (typeof v === 'number') {
        if (!Number.isInteger(v)) fail(location, f.name, expected, v, 'not an integer');
        if (!Number.isSafeInteger(v)) fail(location, f.name, expected, v, 'out of long range');
        return v;
      }
      break;
    case 'float':
    case 'double':
      if (typeof v === 'number') {
        if (!Number.isFinite(v)) fail(location, f.name, expected, v, 'not finite');
        if (expected === 'float' && Math.abs(v) > float32Max) fail(location, f.name, expected, v, 'out of float range');
        return v;
      }
      break;
    case 'bool':
      if (typeof v === 'boolean') return v;
      break;
    case 'date':
      if (typeof v === 'string') {
        const ms = parseIsoDate(v);
        if (Number.isNaN(ms)) fail(location, f.name, expected, v, 'not a valid YYYY-MM-DD date');
        return ms;
      }
      break;
    case 'datetime':
      if (typeof v === 'string') {
        const ms = parseIsoDateTime(v);
        if (Number.isNaN(ms)) fail(location, f.name, expected, v, 'not a valid ISO-8601 date-time');
        return ms;
      }
      if (typeof v === 'number') {
        if (!Number.isSafeInteger(v)) fail(location, f.name, expected, v, 'not an integer of epoch milliseconds');
        return v;
      }
      break;
    case 'id':
      // Only `_id` has type id and it is read by readId; a hand-made mapping may still say so.
      if (typeof v === 'string') return v;
      break;
    case 'geopoint':
      // Validated by checkGeopoint before normalise is reached.
      break;
  }
  return fail(location, f.name, expected, v, null);
}

/** Whether a JSON value is an object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
