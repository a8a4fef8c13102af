/**
 * The fast path from one JSON Lines line to a validated document, for the common case of a bulk
 * load: a flat mapping (no wildcard, dotted or semantic fields) and a line that is one JSON
 * object. One pass over the line's characters checks the JSON grammar and notes where the value
 * of each mapped key lies; only those values become JS values (plain strings are slices of the
 * line, no object is built for the document), and the stored JSON is put together from the
 * line's own text instead of serialising an object again.
 *
 * It is exact, not approximate: whatever it returns equals what `JSON.parse`, then
 * `validateDocument`, then `JSON.stringify(doc.stored)` give for the same line (the property
 * test pins it), and whenever it is not sure (escaped keys, a mapped key twice, `_id: null`,
 * anything that is not valid JSON, nesting deeper than {@link MAX_DEPTH}) it returns null and the
 * caller takes the general path, which also words every error. Type errors of mapped values are
 * thrown by the same checks (`checkValue`, `readId`) in the same order as the general path, after
 * the whole line has been read, so a line that is both invalid JSON and badly typed still reports
 * its JSON first.
 *
 * The line must come from decoding UTF-8 (it then holds no lone surrogate, which
 * `JSON.stringify` would escape and a slice of the line would not).
 */
import { isWildcardName } from './field-name.js';
import type { Mapping } from './field-table.js';
import { checkValue, planOf, readId } from './field-values.js';
import type { FieldPlan, FieldValue } from './field-values.js';
import type { DocumentLocation } from './invalid-document.js';

/** A document read by the fast path: as `validateDocument` gives it, with its stored JSON. */
export interface FlatDocument {
  readonly id: string;
  readonly values: Map<string, readonly FieldValue[]>;
  /** `JSON.stringify` of the document's stored fields, exactly as the general path makes it. */
  readonly storedJson: string;
}

/** A mapping compiled for the fast path. */
export interface FlatPlan {
  readonly fields: readonly FieldPlan[];
  /** `"name":` of each field, JSON-quoted, for the stored JSON. */
  readonly storedKeys: readonly string[];
  /** Scratch of {@link readFlatLine}, per slot (the fields, then `_id`): kind, value start, value end. */
  readonly kinds: Uint8Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

/** Nesting (arrays and objects inside the top object) beyond which the general path takes the line. */
export const MAX_DEPTH = 64;

/** How a mapped value was written (a number, to live in a Uint8Array); `flat-json-bytes.ts` notes the same kinds. */
export const Kind = {
  absent: 0,
  /** A string without escapes: its text is a slice of the line. */
  plainString: 1,
  /** A string whose escapes are all ones `JSON.stringify` writes back the same (`\" \\ \b \f \n \r \t`). */
  shortEscapedString: 2,
  /** Any other string with escapes (`\/`, `\u....`). */
  escapedString: 3,
  number: 4,
  literal: 5,
  /** An array or object. */
  composite: 6,
} as const;

const plans = new WeakMap<Mapping, FlatPlan | null>();

/**
 * The fast-path plan of `mapping`, or null when its documents need the general path: wildcard,
 * dotted or semantic fields, or a field name that would change key order or meaning in a JS
 * object (an array index such as "12", or `__proto__`).
 */
export function flatPlanOf(mapping: Mapping): FlatPlan | null {
  let plan = plans.get(mapping);
  if (plan !== undefined) return plan;
  plan = null;
  const mapped = mapping.fields.filter((f) => f.name !== '_id');
  const eligible = !mapping.hasWildcards && mapped.every((f) =>
    !isWildcardName(f.name) && !f.name.includes('.') && f.semantic == null && !/^\d+$/.test(f.name) && f.name !== '__proto__');
  if (eligible) {
    const fields = mapped.map((f) => planOf(f));
    const slots = fields.length + 1;
    plan = {
      fields,
      storedKeys: fields.map((f) => `,${JSON.stringify(f.name)}:`),
      kinds: new Uint8Array(slots),
      starts: new Int32Array(slots),
      ends: new Int32Array(slots),
    };
  }
  plans.set(mapping, plan);
  return plan;
}

/**
 * Reads the document on `text[start, end)` (one line, without its newline); `deriveId` gives the
 * id of a line without `_id` from its line number. Returns null when the line needs the general path (see the module
 * comment).
 * @throws YarrowError(ErrorCode.invalidDocument) for a mapped value of the wrong type, exactly as
 *   `validateDocument` does.
 */
export function readFlatLine(
  plan: FlatPlan,
  text: string,
  start: number,
  end: number,
  location: DocumentLocation,
  deriveId: (line: number | undefined) => string,
): FlatDocument | null {
  const { fields, kinds, starts, ends } = plan;
  const n = fields.length;
  // Slot n is `_id`.
  kinds.fill(Kind.absent);

  let i = skipSpace(text, start, end);
  if (i >= end || text.charCodeAt(i) !== 0x7b /* { */) return null;
  i = skipSpace(text, i + 1, end);
  if (i < end && text.charCodeAt(i) === 0x7d /* } */) {
    i++;
  } else {
    for (;;) {
      if (i >= end || text.charCodeAt(i) !== 0x22) return null;
      const keyStart = i + 1;
      let k = keyStart;
      for (; k < end; k++) {
        const c = text.charCodeAt(k);
        if (c === 0x22) break;
        // An escaped key may spell a mapped name; a control character is invalid JSON.
        if (c === 0x5c || c < 0x20) return null;
      }
      if (k >= end) return null;
      const slot = slotOf(fields, text, keyStart, k);
      i = skipSpace(text, k + 1, end);
      if (i >= end || text.charCodeAt(i) !== 0x3a /* : */) return null;
      i = skipSpace(text, i + 1, end);
      if (i >= end) return null;
      const valueStart = i;
      const c = text.charCodeAt(i);
      let kind: number;
      if (c === 0x22) {
        const scanned = scanString(text, i, end);
        if (scanned < 0) return null;
        i = scanned & 0x3fffffff;
        kind = scanned >>> 30;
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        i = scanNumber(text, i, end);
        kind = Kind.number;
      } else if (c === 0x74 /* t */ || c === 0x66 /* f */ || c === 0x6e /* n */) {
        i = scanLiteral(text, i, end, c);
        kind = Kind.literal;
      } else if (c === 0x5b || c === 0x7b) {
        i = skipComposite(text, i, end, 1);
        kind = Kind.composite;
      } else {
        return null;
      }
      if (i < 0) return null;
      if (slot >= 0) {
        // A repeated mapped key: JSON.parse keeps the last; leave that to it.
        if (kinds[slot] !== Kind.absent) return null;
        kinds[slot] = kind;
        starts[slot] = valueStart;
        ends[slot] = i;
      }
      i = skipSpace(text, i, end);
      if (i >= end) return null;
      const sep = text.charCodeAt(i);
      if (sep === 0x7d) {
        i++;
        break;
      }
      if (sep !== 0x2c /* , */) return null;
      i = skipSpace(text, i + 1, end);
    }
  }
  if (skipSpace(text, i, end) !== end) return null;

  // The line is valid JSON: now the checks, in the general path's order (`_id`, then the fields).
  let id: string;
  let storedJson: string;
  if (kinds[n] === Kind.absent) {
    id = deriveId(location.line);
    storedJson = `{"_id":${JSON.stringify(id)}`;
  } else {
    // The id outlives the line (the buffer keeps it until the flush): parsed into a string of its
    // own, not sliced, so that it does not hold on to the line (V8 copies slices under 13 chars).
    const kind = kinds[n] === Kind.plainString && ends[n] - starts[n] > 14 ? Kind.escapedString : kinds[n];
    const raw = valueOf(kind, text, starts[n], ends[n]);
    if (raw === null) return null;
    id = readId(raw, location)!;
    storedJson = `{"_id":${kinds[n] === Kind.plainString ? text.slice(starts[n], ends[n]) : JSON.stringify(id)}`;
  }
  const values = new Map<string, readonly FieldValue[]>();
  values.set('_id', [id]);
  for (let s = 0; s < n; s++) {
    const f = fields[s];
    const kind = kinds[s];
    const v = kind === Kind.absent ? undefined : valueOf(kind, text, starts[s], ends[s]);
    values.set(f.name, checkValue(v, false, f, location));
    if (f.store && v !== undefined && v !== null) {
      const written = kind === Kind.plainString || kind === Kind.shortEscapedString || kind === Kind.literal
        ? text.slice(starts[s], ends[s])
        : JSON.stringify(v);
      storedJson += plan.storedKeys[s] + written;
    }
  }
  return { id, values, storedJson: `${storedJson}}` };
}

/**
 * Whether the value in `slot` of the line {@link readFlatLine} last read (and did not return null
 * for) is a string (`slot` indexes `plan.fields`) with no escapes but `\" \\ \b \f \n \r \t`, each of which decodes to one
 * character that is neither a letter, a digit nor an apostrophe; its contents (between the quotes)
 * are then the line's `[plan.starts[slot] + 1, plan.ends[slot] - 1)`.
 */
export function isSimpleString(plan: FlatPlan, slot: number): boolean {
  const kind = plan.kinds[slot];
  return kind === Kind.plainString || kind === Kind.shortEscapedString;
}

/** The JS value of a mapped value the scan found valid. */
function valueOf(kind: number, text: string, start: number, end: number): unknown {
  switch (kind) {
    case Kind.plainString:
      return text.slice(start + 1, end - 1);
    case Kind.number:
      // Number() and JSON.parse read a valid JSON number alike.
      return Number(text.slice(start, end));
    case Kind.literal: {
      const c = text.charCodeAt(start);
      return c === 0x74 ? true : c === 0x66 ? false : null;
    }
    default:
      return JSON.parse(text.slice(start, end)) as unknown;
  }
}

/** The slot of the key `text[start, end)`: a field's index, the `_id` slot (`fields.length`), or -1 when unmapped. */
function slotOf(fields: readonly FieldPlan[], text: string, start: number, end: number): number {
  const length = end - start;
  if (length === 3 && text.startsWith('_id', start)) return fields.length;
  for (let s = 0; s < fields.length; s++) {
    const name = fields[s].name;
    if (name.length === length && text.startsWith(name, start)) return s;
  }
  return -1;
}

function skipSpace(text: string, i: number, end: number): number {
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
  }
  return i;
}

/**
 * Scans the string opening at `text[i]`; returns the index after its closing quote with its
 * {@link Kind} in bits 30-31 (a line is far shorter than 2^30 characters), or -1 when it is not a
 * valid JSON string.
 */
function scanString(text: string, i: number, end: number): number {
  let kind: number = Kind.plainString;
  for (let j = i + 1; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x22) return ((kind << 30) | (j + 1)) >>> 0;
    if (c < 0x20) return -1;
    if (c !== 0x5c) continue;
    j++;
    if (j >= end) return -1;
    const e = text.charCodeAt(j);
    if (e === 0x22 || e === 0x5c || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
      if (kind === Kind.plainString) kind = Kind.shortEscapedString;
    } else if (e === 0x2f /* / */) {
      kind = Kind.escapedString;
    } else if (e === 0x75 /* u */) {
      if (j + 4 >= end) return -1;
      for (let h = j + 1; h <= j + 4; h++) if (!isHex(text.charCodeAt(h))) return -1;
      j += 4;
      kind = Kind.escapedString;
    } else {
      return -1;
    }
  }
  return -1;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Scans a JSON number (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`) at `text[i]`; returns its end or -1. */
function scanNumber(text: string, i: number, end: number): number {
  if (text.charCodeAt(i) === 0x2d) i++;
  if (i >= end) return -1;
  const first = text.charCodeAt(i);
  if (first === 0x30) {
    i++;
  } else if (first >= 0x31 && first <= 0x39) {
    while (i < end && isDigit(text.charCodeAt(i))) i++;
  } else {
    return -1;
  }
  if (i < end && text.charCodeAt(i) === 0x2e /* . */) {
    i++;
    if (i >= end || !isDigit(text.charCodeAt(i))) return -1;
    while (i < end && isDigit(text.charCodeAt(i))) i++;
  }
  if (i < end && (text.charCodeAt(i) | 0x20) === 0x65 /* e E */) {
    i++;
    if (i < end && (text.charCodeAt(i) === 0x2b || text.charCodeAt(i) === 0x2d)) i++;
    if (i >= end || !isDigit(text.charCodeAt(i))) return -1;
    while (i < end && isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}

/** Scans `true`, `false` or `null` at `text[i]` (first character `c`); returns its end or -1. */
function scanLiteral(text: string, i: number, end: number, c: number): number {
  const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
  return i + word.length <= end && text.startsWith(word, i) ? i + word.length : -1;
}

/** Checks the array or object opening at `text[i]` (at nesting `depth`); returns its end or -1. */
function skipComposite(text: string, i: number, end: number, depth: number): number {
  if (depth > MAX_DEPTH) return -1;
  const isObject = text.charCodeAt(i) === 0x7b;
  const close = isObject ? 0x7d : 0x5d;
  i = skipSpace(text, i + 1, end);
  if (i < end && text.charCodeAt(i) === close) return i + 1;
  for (;;) {
    if (isObject) {
      if (i >= end || text.charCodeAt(i) !== 0x22) return -1;
      i = scanString(text, i, end);
      if (i < 0) return -1;
      i = skipSpace(text, i & 0x3fffffff, end);
      if (i >= end || text.charCodeAt(i) !== 0x3a) return -1;
      i = skipSpace(text, i + 1, end);
    }
    if (i >= end) return -1;
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = scanString(text, i, end);
      if (i >= 0) i &= 0x3fffffff;
    } else if (c === 0x2d || isDigit(c)) {
      i = scanNumber(text, i, end);
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
      i = scanLiteral(text, i, end, c);
    } else if (c === 0x5b || c === 0x7b) {
      i = skipComposite(text, i, end, depth + 1);
    } else {
      return -1;
    }
    if (i < 0) return -1;
    i = skipSpace(text, i, end);
    if (i >= end) return -1;
    const sep = text.charCodeAt(i);
    if (sep === close) return i + 1;
    if (sep !== 0x2c) return -1;
    i = skipSpace(text, i + 1, end);
  }
}
