/**
 * Document validation: checks one parsed JSON value against a mapping and normalises its values
 * for the writer. This is on the indexing hot path, so each mapping is compiled once into a flat
 * field plan (cached per mapping) and the per-document loop allocates only its results.
 */
import { ErrorCode, YarrowError } from '../errors.js';
import type { ErrorDetails } from '../errors.js';
import { parseIsoDate, parseIsoDateTime } from './date-time.js';
import { isWildcardName } from './field-name.js';
import type { BaseType, FieldMapping, Mapping } from './field-table.js';

/** One normalised field value: text/id as strings, numbers (dates as epoch ms), booleans. */
export type FieldValue = string | number | boolean;

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
}

/** Where a document came from, for error messages. */
export interface DocumentLocation {
  source?: string;
  /** 1-based line in a JSONL source. */
  line?: number;
  /** 1-based position of the document in its batch. */
  ordinal?: number;
  /** Byte offset of the document in its source. */
  offset?: number;
}

const noValues: readonly FieldValue[] = Object.freeze([]);
const int32Min = -2_147_483_648;
const int32Max = 2_147_483_647;
const float32Max = 3.4028234663852886e38;

/** A mapped field, compiled for the validation loop. */
interface FieldPlan {
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
}

/** A mapping compiled for validation: its plain fields, and its wildcard patterns when it has any. */
interface Plan {
  readonly fields: readonly FieldPlan[];
  /** Names of the plain fields; null when the mapping has no wildcards (then no walk is needed). */
  readonly plain: ReadonlySet<string> | null;
}

const plans = new WeakMap<Mapping, Plan>();

function planOf(f: FieldMapping, name: string = f.name): FieldPlan {
  return {
    name,
    path: name.includes('.') ? name.split('.') : null,
    guarded: name in Object.prototype,
    baseType: f.baseType,
    type: f.type,
    multi: f.multi,
    required: f.required,
    store: f.store,
  };
}

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
    throw new YarrowError(ErrorCode.invalidDocument, `${prefix(location)}expected a JSON object, got ${actual}`, {
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
  for (const f of plan.fields) {
    if (f.path === null || Object.hasOwn(doc, f.name)) {
      const v = f.guarded && !Object.hasOwn(doc, f.name) ? undefined : doc[f.name];
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
  return { id, values, stored };
}

/** Checks a field's value (undefined or null: none) and returns its normalised values. */
function checkValue(v: unknown, fannedOut: boolean, f: FieldPlan, location: DocumentLocation | undefined): readonly FieldValue[] {
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

/**
 * Collects the values at `path` below `node` into `out`, following objects and fanning out over
 * arrays of objects; returns whether it fanned out (then every value found is one repetition).
 */
function readPath(node: Record<string, unknown>, path: readonly string[], i: number, out: unknown[], location: DocumentLocation | undefined): boolean {
  const key = path[i];
  const next = Object.hasOwn(node, key) ? node[key] : undefined;
  if (next === undefined || next === null) return false;
  if (i === path.length - 1) {
    out.push(next);
    return false;
  }
  if (Array.isArray(next)) {
    for (const item of next as readonly unknown[]) {
      if (item === null) continue;
      if (typeof item !== 'object' || Array.isArray(item)) fail(location, path.slice(0, i + 1).join('.'), 'object', item, null);
      readPath(item as Record<string, unknown>, path, i + 1, out, location);
    }
    return true;
  }
  if (typeof next !== 'object') fail(location, path.slice(0, i + 1).join('.'), 'object', next, null);
  return readPath(next as Record<string, unknown>, path, i + 1, out, location);
}

/** Copies the value at `path` from `source` into `target`, keeping its objects and arrays of objects. */
function project(target: Record<string, unknown>, source: Record<string, unknown>, path: readonly string[], i: number): void {
  const key = path[i];
  const v = Object.hasOwn(source, key) ? source[key] : undefined;
  if (v === undefined || v === null) return;
  if (i === path.length - 1) {
    target[key] = v;
    return;
  }
  if (Array.isArray(v)) {
    const items = v as readonly unknown[];
    let copy = target[key] as unknown[] | undefined;
    if (!Array.isArray(copy)) {
      copy = items.map((item) => (isObject(item) ? {} : null));
      target[key] = copy;
    }
    items.forEach((item, j) => {
      if (isObject(item)) project(copy[j] as Record<string, unknown>, item, path, i + 1);
    });
    return;
  }
  if (!isObject(v)) return;
  let child = target[key] as Record<string, unknown> | undefined;
  if (child === undefined) {
    child = {};
    target[key] = child;
  }
  project(child, v, path, i + 1);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A document field a wildcard maps: its dotted path and the values found there. */
interface WildcardHit {
  readonly path: readonly string[];
  readonly values: unknown[];
  fannedOut: boolean;
}

/**
 * Walks the document's fields (nested objects as dotted names, arrays of objects as repetitions)
 * and gives each one a wildcard pattern matches, and no plain field maps, that pattern's mapping.
 */
function addWildcardFields(
  mapping: Mapping,
  plain: ReadonlySet<string>,
  doc: Record<string, unknown>,
  values: Map<string, readonly FieldValue[]>,
  stored: Record<string, unknown>,
  location: DocumentLocation | undefined,
): void {
  const hits = new Map<string, WildcardHit>();
  // `segments` is the path to `node`, pushed and popped as the walk descends (keys may contain dots).
  const segments: string[] = [];
  const walk = (node: Record<string, unknown>, prefix: string, fannedOut: boolean): void => {
    for (const key of Object.keys(node)) {
      if (prefix === '' && key === '_id') continue;
      const v = node[key];
      if (v === undefined || v === null) continue;
      const name = prefix === '' ? key : `${prefix}.${key}`;
      if (plain.has(name)) continue;
      const object = isObject(v);
      const objects = !object && isObjectArray(v);
      const field = mapping.field(name);
      if (field !== undefined && (field.baseType === 'geopoint' || !(object || objects))) {
        let hit = hits.get(name);
        if (hit === undefined) {
          hit = { path: [...segments, key], values: [], fannedOut };
          hits.set(name, hit);
        }
        hit.values.push(v);
        if (hit.values.length > 1) hit.fannedOut = true;
      } else if (object || objects) {
        segments.push(key);
        if (object) walk(v, name, fannedOut);
        else for (const item of v) if (isObject(item)) walk(item, name, true);
        segments.pop();
      }
    }
  };
  walk(doc, '', false);
  for (const [name, hit] of hits) {
    const field = mapping.field(name)!;
    const f = planOf(field, name);
    const v = hit.fannedOut ? hit.values.flat() : hit.values[0];
    values.set(name, checkValue(v, hit.fannedOut, f, location));
    if (f.store) project(stored, doc, hit.path, 0);
  }
}

function isObjectArray(v: unknown): v is readonly unknown[] {
  return Array.isArray(v) && v.length > 0 && (v as readonly unknown[]).every((item) => item === null || isObject(item)) && (v as readonly unknown[]).some(isObject);
}

function readId(v: unknown, location: DocumentLocation | undefined): string | undefined {
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

/**
 * Names the JSON type of a value as error details do: `string`, `number`, `boolean`, `array`,
 * `object`, `null`, or `missing` for undefined.
 */
export function describeJsonType(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

const maxPreview = 40;

/** Throws the invalid-document error; `note` qualifies a value of the right JSON type but wrong content. */
function fail(location: DocumentLocation | undefined, field: string, expected: string, v: unknown, note: string | null): never {
  const type = describeJsonType(v);
  let actual = type;
  let got = type;
  if (typeof v === 'number') {
    actual = note === null ? type : `number ${v} (${note})`;
    got = note === null ? `number (${v})` : actual;
  } else if (note !== null) {
    actual = `${type} (${note})`;
    got = typeof v === 'string' ? `string (${preview(v)}, ${note})` : actual;
  } else if (typeof v === 'string') {
    got = `string (${preview(v)})`;
  } else if (typeof v === 'boolean') {
    got = `boolean (${v})`;
  }
  const details: ErrorDetails = { ...location, field, expected, actual };
  throw new YarrowError(ErrorCode.invalidDocument, `${prefix(location)}field "${field}": expected ${expected}, got ${got}`, details);
}

function preview(s: string): string {
  return JSON.stringify(s.length > maxPreview ? `${s.slice(0, maxPreview)}…` : s);
}

/** "movies.jsonl, line 12: " from whatever the location holds. */
function prefix(location: DocumentLocation | undefined): string {
  if (location === undefined) return '';
  const parts: string[] = [];
  if (location.source !== undefined) parts.push(location.source);
  if (location.line !== undefined) parts.push(`line ${location.line}`);
  if (location.ordinal !== undefined) parts.push(`document ${location.ordinal}`);
  if (location.offset !== undefined && location.line === undefined) parts.push(`offset ${location.offset}`);
  return parts.length === 0 ? '' : `${parts.join(', ')}: `;
}
