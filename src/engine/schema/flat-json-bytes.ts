/**
 * The flat-line fast path (plan in `flat-json-line.ts`) over a line's UTF-8 bytes, for the common
 * line of a bulk load. One pass over the bytes checks the JSON grammar and notes where the value of
 * each mapped key lies; no string is made for the line, none for a text value that only an
 * inverter reads (it inverts an ASCII value's bytes, `FieldInverter.invertAscii`, and asks for the
 * string only if it cannot: then only that value is decoded), no object for the document, and the
 * stored JSON is put together as UTF-8 from the line's own bytes, straight into the stored fields
 * writer's open block when the reader is given one (else into a buffer of its own, for
 * `StoredFieldsWriter.addRawBytes`).
 *
 * It is exact, not approximate: whatever it returns equals what decoding the line, `JSON.parse`,
 * `validateDocument` and `JSON.stringify(doc.stored)` give (the property tests pin it), and
 * whenever it is not sure it returns null and the caller takes that general path, which also words
 * every error: escaped keys, a mapped key twice, `_id: null`, anything that is not valid JSON,
 * nesting deeper than {@link MAX_DEPTH}, and any byte sequence that is not well-formed UTF-8
 * inside a string (the general path refuses it, naming the line; outside strings no byte above 0x7f is
 * taken at all). Well-formed UTF-8 in strings, keys included, is taken as it is: decoding it
 * gives the same characters whether the whole line or one value is decoded, `JSON.stringify`
 * writes them back as the same bytes (it escapes only lone surrogates, which UTF-8 cannot hold),
 * and UTF-8 never encodes anything but an ASCII character with a byte below 0x80, so such bytes
 * change neither the JSON's shape nor the stored copy. Their value's string is then made with
 * `utf8Slice` (issue 17: non-ASCII lines, 2-4% of the package corpora and most of a corpus in
 * another language, took `JSON.parse`, `validateDocument` and `JSON.stringify`, ~30% of a bulk
 * thread's reading time). Type errors of mapped values are thrown by the general path's own checks (`readId`,
 * `checkValue`) on the same JS values in the same order, after the whole line has been read, so a
 * line that is both invalid JSON and badly typed still reports its JSON first.
 */
import type { StoredFieldsWriter } from '../codec/stored-fields/stored-fields-writer.js';
import { checkValue, readId } from './field-values.js';
import type { FieldValue } from './field-values.js';
import type { FlatPlan } from './flat-json-line.js';
import { Kind, MAX_DEPTH } from './flat-json-line.js';
import { utf8SequenceLength } from './utf8.js';

/** What a byte is inside a JSON string: nothing special, its end, an escape, invalid, or part of a non-ASCII character. */
const PLAIN = 0;
const QUOTE = 1;
const BACKSLASH = 2;
const CONTROL = 3;
const HIGH = 4;
const stringClass = ((): Uint8Array => {
  const t = new Uint8Array(256);
  t.fill(CONTROL, 0, 0x20);
  t[0x22] = QUOTE;
  t[0x5c] = BACKSLASH;
  t.fill(HIGH, 0x80);
  return t;
})();

/**
 * The bytes {@link scanString} reads as 32-bit words: a view of the array {@link FlatLineBytes}
 * scans, made when that array changes (once per chunk).
 */
let wordsView: DataView = new DataView(new ArrayBuffer(0));
let wordsOf: Uint8Array | null = null;

/** What the last scan found, besides where it ended: the {@link Kind} of a string, and whether a (well-formed UTF-8) byte above 0x7f was in the value. */
let scannedKind = 0;
let scannedHigh = false;

/** Starts a value: no byte above 0x7f seen yet (a function, so that the type checker does not take the flag for constant). */
function clearHigh(): void {
  scannedHigh = false;
}

/** Runs shorter than this are copied by a loop, longer ones natively (measured on npm and Debian lines). */
const COPY_BY_HAND = 512;

/** The stored JSON's opening, `{"_id":`, as UTF-8. */
const ID_KEY = new TextEncoder().encode('{"_id":');

/** Canonical JSON integers (what `JSON.stringify` writes back the same) have at most this many digits (below 2^53). */
const MAX_CANONICAL_DIGITS = 15;

/**
 * Reads flat lines from their bytes under one {@link FlatPlan}; one per bulk buffer. What it read
 * last ({@link values}, {@link storedBytes}, and the plan's `kinds`/`starts`/`ends`, offsets into
 * the bytes) is valid until the next {@link read}.
 */
export class FlatLineBytes {
  /** The values of the line read last by field name (`_id` included), as `validateDocument` gives them; the same map every time. */
  readonly values = new Map<string, readonly FieldValue[]>();
  /** The UTF-8 of each field's name (slot order) for matching keys. */
  private readonly names: readonly Uint8Array[];
  /** `,"name":` of each field, as UTF-8. */
  private readonly storedKeys: readonly Uint8Array[];
  /**
   * Per slot, a one-value array standing for a text value whose string is made only when an
   * inverter asks for it ({@link resolve}); null for a field whose values others read.
   */
  private readonly deferred: readonly (FieldValue[] | null)[];
  /**
   * Where the stored JSON of the line read last is, `stored[storedStart, storedEnd)`: the open
   * block of {@link sink} when the reader has one (the JSON is then written once, where it is
   * compressed from), else a plain Uint8Array of the reader's own: a view of it is a Uint8Array,
   * which V8 makes natively, where a Buffer's is a FastBuffer made by a JS constructor (issue 17:
   * FastBuffer was 1.6% of a bulk-load thread). {@link storedBuffer} is the same memory as a
   * Buffer, for its UTF-8 `write`.
   */
  private stored: Uint8Array = new Uint8Array(4096);
  private storedBuffer: Buffer = Buffer.from(this.stored.buffer);
  /** {@link stored} as a DataView, for copying from the line four bytes at a time. */
  private storedView = new DataView(this.stored.buffer);
  private storedStart = 0;
  private storedEnd = 0;
  private bytes: Buffer = this.storedBuffer;
  /**
   * {@link bytes} as a plain Uint8Array (made once per chunk): {@link copy} reads every source
   * through one kind of array, where reading a Buffer line and a Uint8Array key made its loop
   * polymorphic (issue 17: that loop was half of `read`'s time), and its views are cheap.
   */
  private plain: Uint8Array = this.stored;
  /** Where the line {@link read} took last ends: the index of its newline, or the `end` it was given. */
  lineEnd = 0;
  /** The one-value array {@link values} holds for `_id`: read before the next line, so reused. */
  private readonly idValue: string[] = [''];
  /**
   * Per slot (the fields, then `_id`), the array {@link values} holds for it now: setting the same
   * array again (a deferred value's, `_id`'s: every line) is skipped, a Map set costing more than
   * the compare.
   */
  private readonly held: (readonly FieldValue[] | undefined)[];
  /**
   * Per slot, where the key of its value opens in the line (its quote), as the scan found it: a
   * stored key and value whose bytes in the line are the stored JSON's (`,"name":value`, nothing
   * between) are copied with their neighbours in one run ({@link appendLine}).
   */
  private readonly keyQuotes: Int32Array;
  /** The run of line bytes `[runFrom, runTo)` not yet copied to the stored JSON (runFrom -1: none). */
  private runFrom = -1;
  private runTo = -1;

  /**
   * `deferrable(name)` says whether only the field's inverter reads its values (no doc values, no
   * suggestions): its string values then wait for {@link resolve}. With a `sink`, each line's
   * stored JSON is written in place in its open block, and {@link addStoredToSink} adds it.
   */
  constructor(
    private readonly plan: FlatPlan,
    deferrable: (name: string) => boolean,
    private readonly sink: StoredFieldsWriter | null = null,
  ) {
    const encoder = new TextEncoder();
    this.names = plan.fields.map((f) => encoder.encode(f.name));
    this.storedKeys = plan.storedKeys.map((k) => encoder.encode(k));
    this.deferred = plan.fields.map((f) => (f.baseType === 'text' && deferrable(f.name) ? [''] : null));
    this.held = new Array<readonly FieldValue[] | undefined>(plan.fields.length + 1).fill(undefined);
    this.keyQuotes = new Int32Array(plan.fields.length + 1);
  }

  /** The stored JSON of the line read last, as UTF-8 (a view of a buffer the next read overwrites). */
  storedBytes(): Uint8Array {
    return this.stored.subarray(this.storedStart, this.storedEnd);
  }

  /**
   * Adds the stored JSON of the line read last (a line it did not return null for) to the sink
   * given to the constructor, where it is already written; returns its docId there.
   */
  addStoredToSink(): number {
    return this.sink!.addWritten(this.storedEnd - this.storedStart);
  }

  /**
   * Makes the string of the deferred value in `slot` (an index of `plan.fields`) of the line read
   * last, in the array {@link values} holds for it; does nothing for a value that is not deferred
   * (not a string without `\/` or `\u` escapes, or of a field whose values others read).
   */
  resolve(slot: number): void {
    const values = this.deferred[slot];
    const { kinds, starts, ends } = this.plan;
    const kind = kinds[slot];
    if (values !== null && (kind === Kind.plainString || kind === Kind.shortEscapedString)) values[0] = stringOf(kind, this.bytes, starts[slot], ends[slot], this.plan.highs[slot]);
  }

  /**
   * Makes `bytes` the array the next {@link read}s take their lines from. `read` does this itself
   * when the array changes; a caller that reads many arrays (a bulk thread: one per chunk) calls
   * it before each one's lines. Inside `read` the set-up runs once per array, too rarely for V8 to
   * have recorded type feedback there when it optimises `read` and `scan`, so its first run in
   * their optimised code deoptimised both and had them compiled again (issue 17: once per bulk
   * thread each, TurboFan compiling `scan` for 6-60 ms).
   */
  useBytes(bytes: Buffer): void {
    this.bytes = bytes;
    this.plain = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    wordsOf = bytes;
    wordsView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /**
   * Reads the document on the line from `bytes[start]` to its newline or `end`, whichever comes
   * first; returns its id, or null when the line needs the general path. When it returns an id,
   * {@link lineEnd} is where the line ended: a caller may pass the end of many lines and so find
   * the newline in the same pass (no byte of a line this reader takes is a newline, which JSON
   * allows only as whitespace between tokens, and the scan does not skip it as such). `deriveId`
   * gives the id of a line without `_id` from its line number.
   * @throws YarrowError(ErrorCode.invalidDocument) for a mapped value of the wrong type, exactly
   *   as `validateDocument` does.
   */
  read(bytes: Buffer, start: number, end: number, source: string, line: number, deriveId: (line: number | undefined) => string): string | null {
    if (!this.scan(bytes, start, end)) return null;
    if (bytes !== this.bytes) this.useBytes(bytes);
    const { fields, kinds, starts, ends, highs } = this.plan;
    const n = fields.length;
    const values = this.values;
    // The checks in the general path's order: `_id`, then the fields.
    let id: string;
    const sink = this.sink;
    if (sink !== null) {
      const block = sink.rawBlock;
      if (block !== this.stored) this.storeIn(block, sink.rawBlockBuffer);
      this.storedStart = sink.rawStart;
    }
    this.storedEnd = this.storedStart;
    this.runFrom = -1;
    const idKind = kinds[n];
    if (idKind === Kind.plainString) {
      // `readId` of a string only refuses an empty one: a non-empty one needs neither the call
      // nor the location object made for it (one per line).
      id = ends[n] - starts[n] > 2 ? text(bytes, starts[n] + 1, ends[n] - 1, highs[n]) : readId('', { source, line })!;
      // A line that opens with `{"_id":` (nothing between) gives the stored JSON's first bytes too.
      const open = this.keyQuotes[n] - 1;
      if (bytes[open] === 0x7b && starts[n] - open === ID_KEY.length) {
        this.appendLine(open, ends[n]);
      } else {
        this.copy(ID_KEY, 0, ID_KEY.length);
        this.copyLine(starts[n], ends[n]);
      }
    } else {
      if (idKind === Kind.absent) {
        id = deriveId(line);
      } else {
        const raw = valueOf(idKind, bytes, starts[n], ends[n], highs[n]);
        // `_id: null` is left to the general path (it then derives an id).
        if (raw === null) return null;
        id = readId(raw, { source, line })!;
      }
      this.copy(ID_KEY, 0, ID_KEY.length);
      this.writeString(JSON.stringify(id));
    }
    const idValue = this.idValue;
    idValue[0] = id;
    const held = this.held;
    if (held[n] !== idValue) {
      values.set('_id', idValue);
      held[n] = idValue;
    }
    for (let s = 0; s < n; s++) {
      const f = fields[s];
      const kind = kinds[s];
      if ((kind === Kind.plainString || kind === Kind.shortEscapedString) && f.baseType === 'text') {
        // A string is a valid value of any text field: `checkValue` would return it as is.
        const deferred = this.deferred[s];
        if (deferred === null) {
          values.set(f.name, held[s] = [stringOf(kind, bytes, starts[s], ends[s], highs[s])]);
        } else if (held[s] !== deferred) {
          values.set(f.name, held[s] = deferred);
        }
        if (f.store) this.storeRaw(s);
        continue;
      }
      const v = kind === Kind.absent ? undefined : valueOf(kind, bytes, starts[s], ends[s], highs[s]);
      values.set(f.name, held[s] = checkValue(v, false, f, { source, line }));
      if (!f.store || v === undefined || v === null) continue;
      if (kind === Kind.literal || kind === Kind.plainString || kind === Kind.shortEscapedString || (kind === Kind.number && isCanonicalInteger(bytes, starts[s], ends[s]))) {
        this.storeRaw(s);
      } else {
        this.flushRun();
        this.copy(this.storedKeys[s], 0, this.storedKeys[s].length);
        this.writeString(JSON.stringify(v));
      }
    }
    // The top object's closing brace right after the last stored value is the stored JSON's own.
    if (this.runFrom >= 0 && bytes[this.runTo] === 0x7d) {
      this.runTo++;
      this.flushRun();
    } else {
      this.flushRun();
      this.writeAscii('}');
    }
    return id;
  }

  /**
   * Checks the grammar of the line and notes in the plan's scratch where each mapped value lies
   * and its {@link Kind}; false when the line is not one this reader takes (see the module comment).
   */
  private scan(bytes: Buffer, start: number, end: number): boolean {
    if (bytes !== wordsOf) this.useBytes(bytes);
    const { kinds, starts, ends, highs } = this.plan;
    // A loop, not `fill`: a handful of slots cost less than the call.
    for (let s = 0; s < kinds.length; s++) kinds[s] = Kind.absent;
    let i = skipSpace(bytes, start, end);
    if (i >= end || bytes[i] !== 0x7b /* { */) return false;
    i = skipSpace(bytes, i + 1, end);
    if (i < end && bytes[i] === 0x7d /* } */) {
      i++;
    } else {
      for (;;) {
        if (i >= end || bytes[i] !== 0x22) return false;
        const keyQuote = i;
        const k = scanKey(bytes, i + 1, end);
        if (k < 0) return false;
        const slot = this.slotOf(bytes, i + 1, k);
        i = skipSpace(bytes, k + 1, end);
        if (i >= end || bytes[i] !== 0x3a /* : */) return false;
        i = skipSpace(bytes, i + 1, end);
        if (i >= end) return false;
        const valueStart = i;
        const c = bytes[i];
        let kind: number;
        clearHigh();
        if (c === 0x22) {
          i = scanString(bytes, i, end);
          kind = scannedKind;
        } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
          i = scanNumber(bytes, i, end);
          kind = Kind.number;
        } else if (c === 0x74 /* t */ || c === 0x66 /* f */ || c === 0x6e /* n */) {
          i = scanLiteral(bytes, i, end, c);
          kind = Kind.literal;
        } else if (c === 0x5b || c === 0x7b) {
          i = skipComposite(bytes, i, end, 1);
          kind = Kind.composite;
        } else {
          return false;
        }
        if (i < 0) return false;
        if (slot >= 0) {
          // A repeated mapped key: JSON.parse keeps the last; leave that to it.
          if (kinds[slot] !== Kind.absent) return false;
          kinds[slot] = kind;
          highs[slot] = scannedHigh ? 1 : 0;
          this.keyQuotes[slot] = keyQuote;
          starts[slot] = valueStart;
          ends[slot] = i;
        }
        i = skipSpace(bytes, i, end);
        if (i >= end) return false;
        const sep = bytes[i];
        if (sep === 0x7d) {
          i++;
          break;
        }
        if (sep !== 0x2c /* , */) return false;
        i = skipSpace(bytes, i + 1, end);
      }
    }
    i = skipSpace(bytes, i, end);
    if (i < end && bytes[i] !== 0x0a) return false;
    this.lineEnd = i;
    return true;
  }

  /** The slot of the key `bytes[start, end)`: a field's index, the `_id` slot (`fields.length`), or -1 when unmapped. */
  private slotOf(bytes: Buffer, start: number, end: number): number {
    const length = end - start;
    const names = this.names;
    if (length === 3 && bytes[start] === 0x5f && bytes[start + 1] === 0x69 && bytes[start + 2] === 0x64) return names.length;
    for (let s = 0; s < names.length; s++) {
      const name = names[s];
      if (name.length !== length) continue;
      let m = 0;
      while (m < length && bytes[start + m] === name[m]) m++;
      if (m === length) return s;
    }
    return -1;
  }

  /**
   * Appends the key of field `slot` and its value's bytes as the line has them: from the line
   * itself, with the comma before the key, when the line has `,"name":` there (the key's bytes
   * are the name's, and nothing else lies between the comma and the value).
   */
  private storeRaw(slot: number): void {
    const key = this.storedKeys[slot];
    const { starts, ends } = this.plan;
    const comma = this.keyQuotes[slot] - 1;
    if (this.bytes[comma] === 0x2c && starts[slot] - comma === key.length) {
      this.appendLine(comma, ends[slot]);
      return;
    }
    this.flushRun();
    this.copy(key, 0, key.length);
    this.copyLine(starts[slot], ends[slot]);
  }

  /** Appends the line's bytes `[from, to)` to the stored JSON: to the run pending when it ends at `from`, else after copying that run. */
  private appendLine(from: number, to: number): void {
    if (from === this.runTo && this.runFrom >= 0) {
      this.runTo = to;
      return;
    }
    this.flushRun();
    this.runFrom = from;
    this.runTo = to;
  }

  /** Copies the pending run of line bytes, if any, to the stored JSON. */
  private flushRun(): void {
    if (this.runFrom < 0) return;
    this.copyLine(this.runFrom, this.runTo);
    this.runFrom = -1;
  }

  /**
   * Appends `[start, end)` of the line's bytes (those {@link scan} read last, in {@link wordsView})
   * to the stored JSON: short runs four bytes at a time (a byte loop was most of `read`'s time),
   * long ones natively.
   */
  private copyLine(start: number, end: number): void {
    const n = end - start;
    if (n >= COPY_BY_HAND) {
      this.copy(this.plain, start, end);
      return;
    }
    this.reserve(n);
    const to = this.storedView;
    const from = wordsView;
    let p = this.storedEnd;
    let i = start;
    for (; i + 4 <= end; i += 4, p += 4) to.setInt32(p, from.getInt32(i, true), true);
    const stored = this.stored;
    const plain = this.plain;
    for (; i < end; i++) stored[p++] = plain[i];
    this.storedEnd = p;
  }

  /** Makes `stored` (and `buffer`, the same memory) where the stored JSON is written. */
  private storeIn(stored: Uint8Array, buffer: Buffer): void {
    this.stored = stored;
    this.storedBuffer = buffer;
    this.storedView = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
  }

  /** Appends `from[start, end)` (a plain Uint8Array, not a Buffer) to the stored JSON. */
  private copy(from: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.reserve(n);
    const stored = this.stored;
    let p = this.storedEnd;
    // Short runs by hand: a native copy costs more to call (and a view to make) than to do.
    if (n < COPY_BY_HAND) {
      for (let i = start; i < end; i++) stored[p++] = from[i];
    } else {
      stored.set(from.subarray(start, end), p);
      p += n;
    }
    this.storedEnd = p;
  }

  /** Appends ASCII `text` to the stored JSON. */
  private writeAscii(text: string): void {
    this.reserve(text.length);
    const stored = this.stored;
    let p = this.storedEnd;
    for (let i = 0; i < text.length; i++) stored[p++] = text.charCodeAt(i);
    this.storedEnd = p;
  }

  /** Appends `text` to the stored JSON as UTF-8. */
  private writeString(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    this.reserve(text.length * 3);
    this.storedEnd += this.storedBuffer.write(text, this.storedEnd);
  }

  private reserve(n: number): void {
    if (this.storedEnd + n <= this.stored.length) return;
    const sink = this.sink;
    if (sink !== null) {
      sink.reserveRaw(this.storedEnd - this.storedStart, n);
      this.storeIn(sink.rawBlock, sink.rawBlockBuffer);
      return;
    }
    const next = new Uint8Array(Math.max(2 * this.stored.length, this.storedEnd + n));
    next.set(this.stored.subarray(0, this.storedEnd));
    this.storeIn(next, Buffer.from(next.buffer));
  }
}

/**
 * `bytes[start, end)` as latin1 (ASCII here): `latin1Slice` (Node 20 and 24) is what
 * `toString('latin1', ...)` calls after its argument checks and encoding lookup, which cost ~15%
 * of a short id's string.
 */
function latin1(bytes: Buffer, start: number, end: number): string {
  return (bytes as Buffer & { latin1Slice(start: number, end: number): string }).latin1Slice(start, end);
}

/**
 * `bytes[start, end)`, well-formed UTF-8, as a string: `utf8Slice` (what `toString('utf8', ...)`
 * calls, see {@link latin1}) when `high` says a byte is above 0x7f, else the cheaper latin1.
 */
function text(bytes: Buffer, start: number, end: number, high: number): string {
  return high === 0 ? latin1(bytes, start, end) : (bytes as Buffer & { utf8Slice(start: number, end: number): string }).utf8Slice(start, end);
}

/** The string of a valid JSON string of {@link Kind} `kind` at `bytes[start, end)`, quotes included (`high`: see {@link text}). */
function stringOf(kind: number, bytes: Buffer, start: number, end: number, high: number): string {
  return kind === Kind.plainString ? text(bytes, start + 1, end - 1, high) : (JSON.parse(text(bytes, start, end, high)) as string);
}

/** The JS value of a mapped value the scan found valid (`high`: see {@link text}). */
function valueOf(kind: number, bytes: Buffer, start: number, end: number, high: number): unknown {
  switch (kind) {
    case Kind.plainString:
      return text(bytes, start + 1, end - 1, high);
    case Kind.number:
      // Number() and JSON.parse read a valid JSON number alike.
      return Number(latin1(bytes, start, end));
    case Kind.literal: {
      const c = bytes[start];
      return c === 0x74 ? true : c === 0x66 ? false : null;
    }
    default:
      return JSON.parse(text(bytes, start, end, high)) as unknown;
  }
}

/** Whether the valid JSON number `bytes[start, end)` is an integer that `JSON.stringify(Number(...))` writes back the same. */
function isCanonicalInteger(bytes: Uint8Array, start: number, end: number): boolean {
  if (bytes[start] === 0x2d) start++;
  const digits = end - start;
  // "-0" reads as -0, which JSON.stringify writes as "0".
  if (bytes[start] === 0x30) return digits === 1 && bytes[start - 1] !== 0x2d;
  if (digits > MAX_CANONICAL_DIGITS) return false;
  for (let i = start; i < end; i++) if (!isDigit(bytes[i])) return false;
  return true;
}

/**
 * The first byte from `i` on that is not JSON whitespace, a newline excepted: a line's bytes hold
 * none, and stopping there keeps a scan given the end of many lines inside its own.
 */
function skipSpace(bytes: Uint8Array, i: number, end: number): number {
  for (; i < end; i++) {
    const c = bytes[i];
    // Any byte above a space is not one (the common case, a compact line, in one compare).
    if (c > 0x20 || (c !== 0x20 && c !== 0x0d && c !== 0x09)) return i;
  }
  return i;
}

/**
 * The first position from `j` on (before `end`) of a byte a JSON string cannot simply go on with
 * (a quote, a backslash, a control character or one above 0x7f), read four bytes at a time from
 * {@link wordsView}; or where fewer than four bytes are left, for the caller's byte loop. SWAR: a
 * lane of `w - 0x20202020` has its top bit set if its byte is below 0x20 or a borrow came from
 * such a byte, of `q - 0x01010101` if it is a quote (or a borrow came), of `b - ...` if a
 * backslash, of `w` if above 0x7f. A borrow only flags the lanes above a byte that is flagged on
 * its own, so the lowest flagged lane (the first byte: the word is read little-endian) is always
 * such a byte: the scan goes straight to it rather than byte by byte through the word.
 */
function plainWordsEnd(j: number, end: number): number {
  const words = wordsView;
  while (j + 4 <= end) {
    const w = words.getInt32(j, true);
    const q = w ^ 0x22222222;
    const b = w ^ 0x5c5c5c5c;
    const flags = ((w - 0x20202020) | (q - 0x01010101) | (b - 0x01010101) | w) & 0x80808080;
    if (flags !== 0) return j + ((31 - Math.clz32(flags & -flags)) >>> 3);
    j += 4;
  }
  return j;
}

/**
 * Scans the key whose contents start at `bytes[i]` (after its opening quote); returns the index
 * of its closing quote, or -1 for a key the reader leaves to the general path: an escaped one
 * (it may spell a mapped name), one with a control character (invalid JSON), or one that is not
 * well-formed UTF-8.
 */
function scanKey(bytes: Uint8Array, i: number, end: number): number {
  for (let k = i; k < end; k++) {
    k = plainWordsEnd(k, end);
    if (k >= end) break;
    const b = bytes[k];
    const type = stringClass[b];
    if (type === PLAIN) continue;
    if (type === QUOTE) return k;
    if (type !== HIGH) return -1;
    const length = utf8SequenceLength(bytes, k, end, b);
    if (length === 0) return -1;
    k += length - 1;
  }
  return -1;
}

/**
 * Scans the string opening at `bytes[i]`; returns the index after its closing quote (its
 * {@link Kind} in {@link scannedKind}; {@link scannedHigh} set if it holds a byte above 0x7f),
 * or -1 when it is not a valid JSON string of well-formed UTF-8.
 */
function scanString(bytes: Uint8Array, i: number, end: number): number {
  let kind: number = Kind.plainString;
  for (let j = i + 1; j < end; j++) {
    j = plainWordsEnd(j, end);
    if (j >= end) break;
    const type = stringClass[bytes[j]];
    if (type === PLAIN) continue;
    if (type === QUOTE) {
      scannedKind = kind;
      return j + 1;
    }
    if (type === HIGH) {
      const length = utf8SequenceLength(bytes, j, end, bytes[j]);
      if (length === 0) return -1;
      scannedHigh = true;
      j += length - 1;
      continue;
    }
    if (type === CONTROL) return -1;
    j++;
    if (j >= end) return -1;
    const e = bytes[j];
    if (e === 0x22 || e === 0x5c || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
      if (kind === Kind.plainString) kind = Kind.shortEscapedString;
    } else if (e === 0x2f /* / */) {
      kind = Kind.escapedString;
    } else if (e === 0x75 /* u */) {
      if (j + 4 >= end) return -1;
      for (let h = j + 1; h <= j + 4; h++) if (!isHex(bytes[h])) return -1;
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

/** Scans a JSON number (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`) at `bytes[i]`; returns its end or -1. */
function scanNumber(bytes: Uint8Array, i: number, end: number): number {
  if (bytes[i] === 0x2d) i++;
  if (i >= end) return -1;
  const first = bytes[i];
  if (first === 0x30) {
    i++;
  } else if (first >= 0x31 && first <= 0x39) {
    while (i < end && isDigit(bytes[i])) i++;
  } else {
    return -1;
  }
  if (i < end && bytes[i] === 0x2e /* . */) {
    i++;
    if (i >= end || !isDigit(bytes[i])) return -1;
    while (i < end && isDigit(bytes[i])) i++;
  }
  if (i < end && (bytes[i] | 0x20) === 0x65 /* e E */) {
    i++;
    if (i < end && (bytes[i] === 0x2b || bytes[i] === 0x2d)) i++;
    if (i >= end || !isDigit(bytes[i])) return -1;
    while (i < end && isDigit(bytes[i])) i++;
  }
  return i;
}

/** Scans `true`, `false` or `null` at `bytes[i]` (first byte `c`); returns its end or -1. */
function scanLiteral(bytes: Uint8Array, i: number, end: number, c: number): number {
  if (c === 0x74) return i + 4 <= end && bytes[i + 1] === 0x72 && bytes[i + 2] === 0x75 && bytes[i + 3] === 0x65 ? i + 4 : -1;
  if (c === 0x66) return i + 5 <= end && bytes[i + 1] === 0x61 && bytes[i + 2] === 0x6c && bytes[i + 3] === 0x73 && bytes[i + 4] === 0x65 ? i + 5 : -1;
  return i + 4 <= end && bytes[i + 1] === 0x75 && bytes[i + 2] === 0x6c && bytes[i + 3] === 0x6c ? i + 4 : -1;
}

/** Checks the array or object opening at `bytes[i]` (at nesting `depth`); returns its end or -1. */
function skipComposite(bytes: Uint8Array, i: number, end: number, depth: number): number {
  if (depth > MAX_DEPTH) return -1;
  const isObject = bytes[i] === 0x7b;
  const close = isObject ? 0x7d : 0x5d;
  i = skipSpace(bytes, i + 1, end);
  if (i < end && bytes[i] === close) return i + 1;
  for (;;) {
    if (isObject) {
      if (i >= end || bytes[i] !== 0x22) return -1;
      i = scanString(bytes, i, end);
      if (i < 0) return -1;
      i = skipSpace(bytes, i, end);
      if (i >= end || bytes[i] !== 0x3a) return -1;
      i = skipSpace(bytes, i + 1, end);
    }
    if (i >= end) return -1;
    const c = bytes[i];
    if (c === 0x22) {
      i = scanString(bytes, i, end);
    } else if (c === 0x2d || isDigit(c)) {
      i = scanNumber(bytes, i, end);
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
      i = scanLiteral(bytes, i, end, c);
    } else if (c === 0x5b || c === 0x7b) {
      i = skipComposite(bytes, i, end, depth + 1);
    } else {
      return -1;
    }
    if (i < 0) return -1;
    i = skipSpace(bytes, i, end);
    if (i >= end) return -1;
    const sep = bytes[i];
    if (sep === close) return i + 1;
    if (sep !== 0x2c) return -1;
    i = skipSpace(bytes, i + 1, end);
  }
}
