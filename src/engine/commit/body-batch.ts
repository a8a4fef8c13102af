/**
 * One `_index` body on the inversion thread (issue 17: search latency while indexing). Splitting a
 * body into documents, parsing, validating and serialising them for the write-ahead log took most
 * of the event loop's time while `api` indexed at full speed, and the objects it made most of its
 * garbage collection; here they run on the thread that inverts the documents anyway. The writer's
 * thread only forwards the body's bytes, has the record this batch encodes logged (the thread
 * appends it to a local log itself when the writer asks, in the log's order; the log stays the
 * writer's: nothing is acknowledged before it has fsynced it), and then tells the thread to apply
 * the batch. The batch is kept here in between (as the body's bytes, see {@link BodyBatch}), so the
 * thread never decodes its own record.
 *
 * The batch is all or nothing, as on the writer's thread: the first invalid document fails it (the
 * error names it as `JsonValueSplitter` and `validateDocument` do), and nothing of it is logged.
 */
import { YarrowError } from '../errors.js';
import type { ErrorCode, ErrorDetails } from '../errors.js';
import { JsonValueSplitter } from '../schema/json-value-stream.js';
import type { ParsedValue } from '../schema/json-value-stream.js';
import { noVectors, validateDocument } from '../schema/document.js';
import { FlatLineBytes } from '../schema/flat-json-bytes.js';
import { flatPlanOf, Kind } from '../schema/flat-json-line.js';
import type { FlatPlan } from '../schema/flat-json-line.js';
import { invalidUtf8Offset } from '../schema/utf8.js';
import type { Mapping } from '../schema/mapping.js';
import type { SegmentBuffer } from '../segment/segment-buffer.js';
import { AsciiLine } from './bulk-chunk.js';
import { backgroundPauser } from './foreground-gate.js';
import type { IdFilterBuilder } from './id-filter.js';
import { prepare } from './prepared-document.js';
import { encodeWalRecord } from './write-ahead-log.js';
import type { WalEntry } from './write-ahead-log.js';
import { WalRecordBytes } from './wal-record-bytes.js';
import type { PreparedDocument } from './writer-options.js';

/** Why a batch was refused, as it crosses to the writer's thread. */
export interface InvalidBatch {
  readonly message: string;
  readonly code?: ErrorCode;
  readonly details?: ErrorDetails;
}

/** The error an {@link InvalidBatch} stands for. */
export function invalidBatchError(invalid: InvalidBatch): Error {
  return invalid.code === undefined ? new Error(invalid.message) : new YarrowError(invalid.code, invalid.message, invalid.details);
}

/** The source the byte reader names (its errors never reach the client: the body falls back to `SplitBatch`, which words them). */
const SOURCE = '_index body';

/**
 * The documents of one body, from its first chunk until the writer has logged them. A body of
 * JSON Lines (the common one) is kept as the bytes it arrived in: each line is read once as it
 * arrives, by the bulk load's byte reader (`flat-json-bytes.ts`), to validate it and to write its
 * log entry straight into the record's bytes (`wal-record-bytes.ts`), and read again once the
 * batch is logged, to go into the segment buffer with its text inverted from its bytes. No object
 * per document is kept in between (an 8 MB body's documents, their stored JSON and their log
 * text held this thread's heap at ~100 MB and made most of its collections; issue 17). A line the
 * byte reader does not take (escaped keys, no `_id`...) is parsed and validated as
 * a JS object and kept as such, as before.
 *
 * Anything else falls back to {@link SplitBatch} for the whole body, from its first byte: a body
 * that is not JSON Lines (an array, values spread over lines or sharing one), a byte order mark,
 * and any line that is invalid in any way, so that every error is worded by the same code as
 * before, with the same location (ordinal, offset, line).
 */
export class BodyBatch {
  /** The body's chunks as they arrived (the second reading goes over them again); dropped on fallback. */
  private chunks: Buffer[] = [];
  private readonly lines = new LineSplitter();
  private readonly flat: FlatLineBytes | null;
  private readonly flatDoc: { readonly values: FlatLineBytes['values']; readonly vectors: typeof noVectors } | null;
  private readonly asciiLine: AsciiLine | null;
  /** `"name":` of each field of the flat plan, as UTF-8. */
  private readonly keys: readonly Buffer[];
  private record: WalRecordBytes | null = null;
  private readonly ids: string[] = [];
  /** Lines (1-based) the byte reader did not take, ascending, and their documents. */
  private readonly generalLines: number[] = [];
  private readonly general: PreparedDocument[] = [];
  /** Set when the line reader gave the body up: the general form from then on. */
  private split: SplitBatch | null = null;
  private derivedId = false;

  private readonly plan: FlatPlan | null;

  /** `spare` gives the buffer of a record logged earlier, to build this one's in (see `WalRecordBytes`). */
  constructor(
    private readonly mapping: Mapping,
    private readonly spare: () => ArrayBuffer | undefined = () => undefined,
  ) {
    const plan = (this.plan = flatPlanOf(mapping));
    // As `BulkBuffer` does: a text value waits for the inverter to ask for its string when only the inverter reads it.
    const onlyInverted = (name: string): boolean => {
      const f = mapping.field(name);
      return f !== undefined && !f.filter && !f.facet && !f.sort && f.suggest === null;
    };
    this.flat = plan === null ? null : new FlatLineBytes(plan, onlyInverted);
    this.flatDoc = this.flat === null ? null : { values: this.flat.values, vectors: noVectors };
    this.asciiLine = this.flat === null || plan === null ? null : new AsciiLine(plan, this.flat);
    this.keys = plan === null ? [] : plan.fields.map((f) => Buffer.from(`${JSON.stringify(f.name)}:`));
  }

  /** Documents so far. */
  get docs(): number {
    return this.split?.docs ?? this.ids.length;
  }

  /** Takes the next chunk of the body; returns why the batch is refused, or null. */
  push(bytes: Uint8Array): InvalidBatch | null {
    const chunk = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (this.split !== null) return this.split.push(chunk);
    this.chunks.push(chunk);
    if (this.chunks.length === 1 && chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) return this.fallBack();
    return this.lines.push(chunk, this.check) ? null : this.fallBack();
  }

  /** Ends the body; returns why the batch is refused (a truncated last document), or null. */
  end(): InvalidBatch | null {
    if (this.split !== null) return this.split.end();
    return this.lines.end(this.check) ? null : this.fallBack(true);
  }

  /** The batch's write-ahead log record (one record: all or nothing) and its ids. */
  seal(): { record: Uint8Array; ids: string[] } {
    if (this.split !== null) return this.split.seal();
    const record = (this.record ?? new WalRecordBytes(64)).finish();
    this.record = null;
    return { record, ids: this.ids };
  }

  /** Adds the batch's documents to `buffer` (once the writer has logged them), each id to `ids`. */
  applyTo(buffer: SegmentBuffer, ids: IdFilterBuilder): void {
    if (this.split !== null) {
      this.split.applyTo(buffer, ids);
      return;
    }
    const pauser = backgroundPauser();
    const { flat, flatDoc, asciiLine, generalLines, general } = this;
    let next = 0;
    const add = (bytes: Buffer, start: number, end: number, line: number): boolean => {
      if (isBlank(bytes, start, end)) return true;
      // A safe point per document: while a search runs, this thread waits (foreground-gate.ts).
      pauser?.point();
      if (generalLines[next] === line) {
        const d = general[next++];
        buffer.add(d.doc, d.id, d.storedJson);
        ids.add(d.id);
        return true;
      }
      // The same bytes the first reading took, so the same document.
      const id = flat!.read(bytes, start, end, SOURCE, line, noDerivedId);
      if (id === null) throw new Error(`line ${line} of a logged body no longer reads as it did`);
      asciiLine?.at(bytes);
      buffer.add(flatDoc!, id, flat!.storedBytes(), asciiLine ?? undefined);
      ids.add(id);
      return true;
    };
    const again = new LineSplitter();
    for (const chunk of this.chunks) again.push(chunk, add);
    again.end(add);
    this.chunks = [];
    this.general.length = 0;
  }

  /**
   * The first reading of a line: validates it and writes its log entry; false to give the body up
   * to {@link SplitBatch} (an arrow, handed to the line splitter as is).
   */
  private readonly check = (bytes: Buffer, start: number, end: number, line: number): boolean => {
    if (isBlank(bytes, start, end)) return true;
    backgroundPauser()?.point();
    const record = (this.record ??= new WalRecordBytes(Math.max(1 << 20, 2 * (this.chunks[0]?.length ?? 0)), this.spare()));
    const flat = this.flat;
    if (flat !== null) {
      let id: string | null;
      this.derivedId = false;
      try {
        id = flat.read(bytes, start, end, SOURCE, line, this.deriveId);
      } catch {
        return false;
      }
      // A line without `_id` gets a random one (`prepare`), which the general path gives it.
      if (id !== null && !this.tookDerivedId()) {
        this.logFast(record, bytes, id);
        this.ids.push(id);
        return true;
      }
    }
    // The byte reader takes no ill-formed UTF-8 (`flat-json-bytes.ts`); decoding would make it
    // U+FFFD, so such a line goes to the general form, which refuses it.
    if (invalidUtf8Offset(bytes.subarray(start, end)) >= 0) return false;
    let d: PreparedDocument;
    try {
      const value: unknown = JSON.parse(bytes.toString('utf8', start, end));
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
      d = prepare(validateDocument(this.mapping, value, { line }));
    } catch {
      return false;
    }
    record.nextEntry();
    record.text(`{"u":${d.walJson}}`);
    this.generalLines.push(line);
    this.general.push({ doc: d.doc, id: d.id, storedJson: d.storedJson, walJson: '' });
    this.ids.push(d.id);
    return true;
  };

  /** Whether the line read last had no `_id` (the reader asked {@link deriveId}; a method, so the checker does not take the flag for constant). */
  private tookDerivedId(): boolean {
    return this.derivedId;
  }

  private readonly deriveId = (): string => {
    this.derivedId = true;
    return '';
  };

  /**
   * The log entry of the line the byte reader read last, as `walUpsertJson` writes it (same
   * values once parsed): a string value of a text field is copied as the line has it (valid JSON
   * of the same string: the reader checked the line's grammar), any other value as its normalised
   * form, and the stored JSON the reader assembled.
   */
  private logFast(record: WalRecordBytes, bytes: Buffer, id: string): void {
    const flat = this.flat!;
    const { fields, kinds, starts, ends } = this.plan!;
    const n = fields.length;
    record.nextEntry();
    record.ascii('{"u":{"i":');
    const idJson = kinds[n] === Kind.plainString ? null : JSON.stringify(id);
    if (idJson === null) record.copy(bytes, starts[n], ends[n]);
    else record.text(idJson);
    record.ascii(',"v":{"_id":[');
    if (idJson === null) record.copy(bytes, starts[n], ends[n]);
    else record.text(idJson);
    record.ascii(']');
    for (let s = 0; s < n; s++) {
      const kind = kinds[s];
      if (kind === Kind.absent) continue;
      const f = fields[s];
      if ((kind === Kind.plainString || kind === Kind.shortEscapedString) && f.baseType === 'text') {
        record.ascii(',');
        record.copy(this.keys[s], 0, this.keys[s].length);
        record.ascii('[');
        record.copy(bytes, starts[s], ends[s]);
        record.ascii(']');
        continue;
      }
      const values = flat.values.get(f.name)!;
      if (values.length === 0) continue;
      record.ascii(',');
      record.copy(this.keys[s], 0, this.keys[s].length);
      record.text(JSON.stringify(values));
    }
    record.ascii('},"s":');
    const stored = flat.storedBytes();
    record.copy(stored, 0, stored.length);
    record.ascii('}}');
  }

  /** Gives the body up to {@link SplitBatch}, from its first byte; returns what that says of it. */
  private fallBack(ended = false): InvalidBatch | null {
    const split = (this.split = new SplitBatch(this.mapping));
    const chunks = this.chunks;
    this.chunks = [];
    this.record = null;
    this.ids.length = 0;
    this.generalLines.length = 0;
    this.general.length = 0;
    for (const chunk of chunks) {
      const invalid = split.push(chunk);
      if (invalid !== null) return invalid;
    }
    return ended ? split.end() : null;
  }
}

/** The second reading never derives an id: the first sent every line without `_id` to the general path. */
const noDerivedId = (): string => {
  throw new Error('a logged line without _id took the byte path');
};

/** Whether `bytes[start, end)` holds only JSON whitespace. */
function isBlank(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a) return false;
  }
  return true;
}

/**
 * Splits chunks of bytes into lines (without their newline), numbered from 1; a line spanning
 * chunks is joined into a buffer of its own. `onLine` returns false to stop.
 */
class LineSplitter {
  private carry: Buffer[] = [];
  private line = 0;

  push(chunk: Buffer, onLine: (bytes: Buffer, start: number, end: number, line: number) => boolean): boolean {
    let at = 0;
    let nl = chunk.indexOf(0x0a);
    if (nl < 0) {
      this.carry.push(chunk);
      return true;
    }
    if (this.carry.length > 0) {
      this.carry.push(chunk.subarray(0, nl));
      const joined = Buffer.concat(this.carry);
      this.carry = [];
      if (!onLine(joined, 0, joined.length, ++this.line)) return false;
      at = nl + 1;
      nl = chunk.indexOf(0x0a, at);
    }
    while (nl >= 0) {
      if (!onLine(chunk, at, nl, ++this.line)) return false;
      at = nl + 1;
      nl = chunk.indexOf(0x0a, at);
    }
    if (at < chunk.length) this.carry.push(chunk.subarray(at));
    return true;
  }

  end(onLine: (bytes: Buffer, start: number, end: number, line: number) => boolean): boolean {
    if (this.carry.length === 0) return true;
    const last = Buffer.concat(this.carry);
    this.carry = [];
    return onLine(last, 0, last.length, ++this.line);
  }
}

/**
 * The general form of a batch: any body `JsonValueSplitter` takes (JSON Lines, values concatenated
 * or spread over lines, an array), each document parsed to a JS object, validated and kept until
 * the writer has logged the batch. {@link BodyBatch} falls back to it for whatever its line reader
 * does not take, and it words every error.
 */
class SplitBatch {
  private readonly splitter = new JsonValueSplitter();
  private readonly prepared: PreparedDocument[] = [];

  constructor(private readonly mapping: Mapping) {}

  /** Documents so far. */
  get docs(): number {
    return this.prepared.length;
  }

  /** Takes the next chunk of the body; returns why the batch is refused, or null. */
  push(bytes: Uint8Array): InvalidBatch | null {
    return this.take(() => this.splitter.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
  }

  /** Ends the body; returns why the batch is refused (a truncated last document), or null. */
  end(): InvalidBatch | null {
    return this.take(() => this.splitter.end());
  }

  /** The batch's write-ahead log record (one record: all or nothing) and its ids. */
  seal(): { record: Uint8Array; ids: string[] } {
    const entries: WalEntry[] = [];
    const ids: string[] = [];
    for (const d of this.prepared) {
      entries.push({ uJson: d.walJson });
      ids.push(d.id);
    }
    return { record: encodeWalRecord(entries), ids };
  }

  /** Adds the batch's documents to `buffer` (once the writer has logged them), each id to `ids`. */
  applyTo(buffer: SegmentBuffer, ids: IdFilterBuilder): void {
    const pauser = backgroundPauser();
    for (const d of this.prepared) {
      // A safe point per document: while a search runs, this thread waits (foreground-gate.ts).
      pauser?.point();
      buffer.add(d.doc, d.id, d.storedJson);
      ids.add(d.id);
    }
    this.prepared.length = 0;
  }

  private take(split: () => ParsedValue[]): InvalidBatch | null {
    try {
      const pauser = backgroundPauser();
      for (const { value, location } of split()) {
        pauser?.point();
        this.prepared.push(prepare(validateDocument(this.mapping, value, location)));
      }
      return null;
    } catch (e) {
      if (e instanceof YarrowError) return { message: e.message, code: e.code, details: e.details };
      // Not the input's fault: the writer fails the request as an internal error.
      return { message: e instanceof Error ? e.message : String(e) };
    }
  }
}
