/**
 * Strict reading of what a client sends besides documents: query parameters (one value each, plain
 * decimal integers), the nesting of a search request, and UTF-8 text. Each failure is a 400
 * `invalid_request` naming the parameter, the limit or the byte offset, never a 500 from deep inside
 * the engine (a stack overflow, `q.trim is not a function`).
 */
import { invalidUtf8Offset } from '../engine/index.js';
import { HttpError, HttpErrorType } from './http-status.js';

/** Deepest nesting of `bool`, `dis_max` and filter `and` / `or` / `not` clauses a search request may have. */
export const MAX_QUERY_DEPTH = 64;

/** Deepest JSON nesting looked at at all (a few JSON levels per clause level, and some slack). */
const MAX_JSON_DEPTH = 8 * MAX_QUERY_DEPTH;

/** Keys that open one level of query or filter nesting. */
const NESTING_KEYS = new Set(['bool', 'dis_max', 'and', 'or', 'not']);

function invalid(message: string, details: Record<string, unknown>): HttpError {
  return new HttpError(HttpErrorType.invalidRequest, message, details);
}

/**
 * The one value of query parameter `name` (undefined when absent).
 * @throws HttpError 400 when the parameter is repeated (`?q=a&q=b`).
 */
export function singleParam(query: unknown, name: string): string | undefined {
  if (typeof query !== 'object' || query === null || !Object.hasOwn(query, name)) return undefined;
  const value = (query as Record<string, unknown>)[name];
  if (Array.isArray(value)) throw invalid(`query parameter ${name} is given ${value.length} times; give it once`, { field: name, expected: 'one value', actual: `${value.length} values` });
  return typeof value === 'string' ? value : undefined;
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/**
 * Query parameter `name` as a non-negative integer written in plain decimal digits: `0x10`, `1e1`,
 * `+5`, ` 5` and `5.0` are refused rather than read as numbers, as `Number()` would.
 * @throws HttpError 400 naming the parameter and what it got.
 */
export function decimalParam(query: unknown, name: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const raw = singleParam(query, name);
  if (raw === undefined) return undefined;
  const n = DECIMAL.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n > max) {
    throw invalid(`query parameter ${name} must be a whole number from 0 to ${max} in decimal digits, got ${JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}...` : raw)}`, {
      field: name,
      expected: 'decimal integer',
      actual: raw.length > 40 ? `${raw.slice(0, 40)}...` : raw,
    });
  }
  return n;
}

/**
 * Refuses a search request nesting `bool`, `dis_max` or filter `and` / `or` / `not` deeper than
 * {@link MAX_QUERY_DEPTH} levels, before the engine's recursive parser and scorers see it.
 * @throws HttpError 400 naming the limit.
 */
export function checkQueryDepth(request: unknown): void {
  const tooDeep = (what: string): HttpError =>
    invalid(`the search request nests ${what} deeper than ${MAX_QUERY_DEPTH} levels; flatten it (e.g. one bool with more clauses)`, { expected: `at most ${MAX_QUERY_DEPTH} levels`, actual: 'deeper' });
  const visit = (value: unknown, clauses: number, json: number): void => {
    if (json > MAX_JSON_DEPTH) throw tooDeep('JSON values');
    if (Array.isArray(value)) {
      for (const item of value) visit(item, clauses, json + 1);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    let level = clauses;
    for (const key of Object.keys(value)) {
      if (NESTING_KEYS.has(key)) {
        level = clauses + 1;
        break;
      }
    }
    if (level > MAX_QUERY_DEPTH) throw tooDeep('queries or filters');
    for (const child of Object.values(value)) visit(child, level, json + 1);
  };
  visit(request, 0, 0);
}

/**
 * `bytes` decoded as UTF-8.
 * @throws HttpError 400 naming the offset of the first invalid byte (replacement characters would
 *   silently change what was sent).
 */
export function decodeUtf8(bytes: Buffer, what: string): string {
  const offset = invalidUtf8Offset(bytes);
  if (offset >= 0) throw invalid(`${what} is not valid UTF-8: invalid byte 0x${bytes[offset].toString(16).padStart(2, '0')} at byte offset ${offset}`, { offset, expected: 'UTF-8', actual: 'invalid byte' });
  return bytes.toString('utf8');
}

/**
 * An absolute path (`/var/lib/x`, `C:\\data\\x`) standing on its own: at the start, or after a space,
 * a quote, a bracket or `=`. URLs (`s3://bucket/key`, `http://host/a/b`) and relative paths do not
 * match, since a letter or `:` comes before their slashes.
 */
const ABSOLUTE_PATH = /(^|[\s'"`([{=])((?:[A-Za-z]:)?[\\/][^\s'"`()[\]{}<>,;]*)/g;

/**
 * `text` with every absolute file path of two or more components replaced by `…/<last component>`,
 * for messages that leave the server (`/_health`, error bodies): where the server keeps its files
 * is nobody else's business.
 */
export function withoutPaths(text: string): string {
  return text.replace(ABSOLUTE_PATH, (_match, before: string, path: string) => {
    const parts = path.split(/[\\/]/).filter((p) => p !== '' && !/^[A-Za-z]:$/.test(p));
    return parts.length < 2 ? `${before}${path}` : `${before}…/${parts[parts.length - 1]}`;
  });
}
