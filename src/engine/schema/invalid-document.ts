/**
 * The invalid-document error: where a document came from, and the one-line message and details
 * naming the field, the type it expected and what it got, so a bad line in a large source can be
 * found and fixed without reading the whole document.
 */
import { ErrorCode, YarrowError } from '../errors.js';
import type { ErrorDetails } from '../errors.js';

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
export function fail(location: DocumentLocation | undefined, field: string, expected: string, v: unknown, note: string | null): never {
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
  throw new YarrowError(ErrorCode.invalidDocument, `${locationPrefix(location)}field "${field}": expected ${expected}, got ${got}`, details);
}

function preview(s: string): string {
  return JSON.stringify(s.length > maxPreview ? `${s.slice(0, maxPreview)}…` : s);
}

/** "movies.jsonl, line 12: " from whatever the location holds. */
export function locationPrefix(location: DocumentLocation | undefined): string {
  if (location === undefined) return '';
  const parts: string[] = [];
  if (location.source !== undefined) parts.push(location.source);
  if (location.line !== undefined) parts.push(`line ${location.line}`);
  if (location.ordinal !== undefined) parts.push(`document ${location.ordinal}`);
  if (location.offset !== undefined && location.line === undefined) parts.push(`offset ${location.offset}`);
  return parts.length === 0 ? '' : `${parts.join(', ')}: `;
}
