/**
 * Document validation: checks one parsed JSON value against a mapping and normalises its values
 * for the writer. This is on the indexing hot path, so each mapping is compiled once into a flat
 * field plan (cached per mapping) and the per-document loop allocates only its results.
 */
import { ErrorCode, YarrowError } from '../errors.js';
import type { ErrorDetails } from '../errors.js';
import { parseIsoDate, parseIsoDateTime } from './date-time.js';
import type { BaseType, Mapping } from './mapping.js';

/** One normalised field value: text/id as strings, numbers (dates as epoch ms), booleans. */
export type FieldValue = string | number | boolean;

/** A validated document. */
export interface ValidDocument {
  /** The document's `_id` as a string, or undefined when absent (the writer generates one). */
  readonly id: string | undefined;
  /**
   * Field name -> normalised values, for every mapped field (`_id` included), possibly empty:
   * strings for text/id, numbers for int/long/float/double, booleans for bool, epoch milliseconds
   * for date/datetime. Unmapped fields are dropped.
   */
  readonly values: ReadonlyMap<string, readonly FieldValue[]>;
  /**
   * The stored subset of the original document: `_id` (as its string form) and the original JSON
   * values of fields with `store: true`, ready for JSON. Dotted fields read from nested objects are
   * stored nested the same way.
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

const plans = new WeakMap<Mapping, readonly FieldPlan[]>();

function compile(mapping: Mapping): readonly FieldPlan[] {
  let plan = plans.get(mapping);
  if (plan === undefined) {
    plan = mapping.fields
      .filter((f) => f.name !== '_id')
      .map((f) => ({
        name: f.name,
        path: f.name.includes('.') ? f.name.split('.') : null,
        guarded: f.name in Object.prototype,
        baseType: f.baseType,
        type: f.type,
        multi: f.multi,
        required: f.required,
        store: f.store,
      }));
    plans.set(mapping, plan);
  }
  return plan;
}

/**
 * Validates one parsed JSON value against the mapping (SPEC §3) and normalises its values.
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
  for (const f of plan) {
    let v: unknown;
    let nested = false;
    if (f.path === null || Object.hasOwn(doc, f.name)) v = f.guarded && !Object.hasOwn(doc, f.name) ? undefined : doc[f.name];
    else {
      v = readNested(doc, f.path, location);
      nested = true;
    }
    if (v === undefined || v === null) {
      if (f.required) fail(location, f.name, f.type, v, null);
      values.set(f.name, noValues);
      continue;
    }
    let out: FieldValue[];
    if (Array.isArray(v)) {
      if (!f.multi) fail(location, f.name, f.type, v, null);
      const items: readonly unknown[] = v;
      out = [];
      for (const item of items) if (item !== null) out.push(normalise(item, f, location));
      if (out.length === 0 && f.required) fail(location, f.name, f.type, v, 'empty');
    } else {
      out = [normalise(v, f, location)];
    }
    values.set(f.name, out);
    if (f.store) {
      if (nested) storeNested(stored, f.path!, v);
      else stored[f.name] = v;
    }
  }
  return { id, values, stored };
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

/** Follows `path` through nested objects; a missing or null step means no value. */
function readNested(doc: Record<string, unknown>, path: readonly string[], location: DocumentLocation | undefined): unknown {
  let current = doc;
  const last = path.length - 1;
  for (let i = 0; i < last; i++) {
    const step = path[i];
    const next = Object.hasOwn(current, step) ? current[step] : undefined;
    if (next === undefined || next === null) return undefined;
    if (typeof next !== 'object' || Array.isArray(next)) fail(location, path.slice(0, i + 1).join('.'), 'object', next, null);
    current = next as Record<string, unknown>;
  }
  const key = path[last];
  return Object.hasOwn(current, key) ? current[key] : undefined;
}

function storeNested(stored: Record<string, unknown>, path: readonly string[], v: unknown): void {
  let target = stored;
  const last = path.length - 1;
  for (let i = 0; i < last; i++) {
    const step = path[i];
    let next = target[step] as Record<string, unknown> | undefined;
    if (next === undefined) {
      next = {};
      target[step] = next;
    }
    target = next;
  }
  target[path[last]] = v;
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
