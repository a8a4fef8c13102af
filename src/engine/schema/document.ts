/**
 * Document validation: checks one parsed JSON document against a mapping and normalises its
 * values for the writer. Errors name the location (source, line or ordinal), the field, the
 * expected and the actual type, in one readable line.
 */
import { ErrorCode, YarrowError } from '../errors.js';
import type { BaseType, FieldMapping, Mapping } from './mapping.js';

type Value = string | number | boolean;

/** A validated document. */
export interface ValidDocument {
  /** The document's id, or undefined when it has none (the writer generates one). */
  readonly id: string | undefined;
  /** Normalised values per mapped field (strings, numbers, booleans; dates as epoch ms). */
  readonly values: ReadonlyMap<string, readonly Value[]>;
  /** The stored subset of the original document, ready for JSON. */
  readonly stored: Record<string, unknown>;
}

/** Where a document came from. */
export interface DocumentLocation {
  readonly source?: string;
  readonly line?: number;
  readonly ordinal?: number;
  readonly offset?: number;
}

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/** The JSON type name of a value, as error messages print it. */
export function describeJsonType(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Validates `raw` against `mapping`. */
export function validateDocument(mapping: Mapping, raw: unknown, location: DocumentLocation = {}): ValidDocument {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw docError(location, undefined, 'object', describeJsonType(raw), raw);
  }
  const doc = raw as Record<string, unknown>;
  let id: string | undefined;
  const rawId = doc._id;
  if (rawId !== undefined && rawId !== null) {
    if (typeof rawId === 'string' && rawId.length > 0) id = rawId;
    else if (typeof rawId === 'number' && Number.isSafeInteger(rawId)) id = String(rawId);
    else throw docError(location, '_id', 'id (non-empty string or integer)', describeJsonType(rawId), rawId);
  }
  const values = new Map<string, Value[]>();
  const stored: Record<string, unknown> = {};
  if (id !== undefined) stored._id = id;
  for (const field of mapping.fields) {
    if (field.baseType === 'id') continue;
    const v = field.name.includes('.') ? readPath(doc, field.name) : doc[field.name];
    if (v === undefined || v === null) {
      if (field.required) throw docError(location, field.name, field.type, 'missing', v);
      continue;
    }
    const out: Value[] = [];
    if (Array.isArray(v)) {
      if (!field.multi) throw docError(location, field.name, field.type, 'array', v);
      for (const item of v) if (item !== null) out.push(convert(field, item, location));
    } else {
      out.push(convert(field, v, location));
    }
    if (field.required && out.length === 0) throw docError(location, field.name, field.type, 'empty array', v);
    values.set(field.name, out);
    if (field.store) stored[field.name] = v;
  }
  return { id, values, stored };
}

function convert(field: FieldMapping, v: unknown, location: DocumentLocation): Value {
  const base: BaseType = field.baseType;
  switch (base) {
    case 'text':
      if (typeof v === 'string') return v;
      break;
    case 'int':
      if (typeof v === 'number' && Number.isInteger(v)) {
        if (v >= INT_MIN && v <= INT_MAX) return v;
        throw docError(location, field.name, 'int', `number ${v} (out of int range)`, v);
      }
      break;
    case 'long':
      if (typeof v === 'number' && Number.isInteger(v)) {
        if (Number.isSafeInteger(v)) return v;
        throw docError(location, field.name, 'long', `number ${v} (beyond 2^53, not exact)`, v);
      }
      break;
    case 'float':
    case 'double':
      if (typeof v === 'number' && Number.isFinite(v)) return v;
      break;
    case 'bool':
      if (typeof v === 'boolean') return v;
      break;
    case 'date':
      if (typeof v === 'string') {
        const ms = parseDate(v);
        if (ms !== null) return ms;
        throw docError(location, field.name, 'date (YYYY-MM-DD)', `string ${JSON.stringify(v)}`, v);
      }
      break;
    case 'datetime':
      if (typeof v === 'string') {
        const ms = /^\d{4}-\d{2}-\d{2}(T|\s)\d{2}:\d{2}/.test(v) ? Date.parse(v) : NaN;
        if (!Number.isNaN(ms)) return ms;
        throw docError(location, field.name, 'datetime (ISO-8601)', `string ${JSON.stringify(v)}`, v);
      }
      if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
      break;
    case 'id':
      break;
  }
  return fail(location, field, v);
}

function fail(location: DocumentLocation, field: FieldMapping, v: unknown): never {
  const actual = typeof v === 'number' && !Number.isInteger(v) && (field.baseType === 'int' || field.baseType === 'long') ? 'number' : describeJsonType(v);
  throw docError(location, field.name, field.baseType, actual === 'integer' ? 'number' : actual, v);
}

function parseDate(s: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m === null) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? ms : null;
}

function readPath(doc: Record<string, unknown>, path: string): unknown {
  if (path in doc) return doc[path];
  let cur: unknown = doc;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function docError(location: DocumentLocation, field: string | undefined, expected: string, actual: string, value: unknown): YarrowError {
  const where: string[] = [];
  if (location.source !== undefined) where.push(location.source);
  if (location.line !== undefined) where.push(`line ${location.line}`);
  else if (location.ordinal !== undefined) where.push(`document ${location.ordinal}${location.offset !== undefined ? ` (byte ${location.offset})` : ''}`);
  const shown = typeof value === 'string' ? ` (${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)})` : '';
  const subject = field === undefined ? 'document' : `field "${field}"`;
  const message = `${where.length > 0 ? where.join(' ') + ': ' : ''}${subject}: expected ${expected}, got ${actual}${actual.startsWith('string') ? '' : shown}`;
  const details: Record<string, unknown> = { ...location, expected, actual };
  if (field !== undefined) details.field = field;
  return new YarrowError(ErrorCode.invalidDocument, message, details);
}
