/**
 * What a bulk-load thread does with one chunk of JSON Lines (`bulk-load-worker.ts` is the thread
 * around it): decode, split into lines, parse, validate and add each document to the thread's
 * segment buffer, with each document's input line and id kept for resolving ids across segments
 * (`bulk-ids.ts`). Apart from the thread so that a benchmark can time it on one thread.
 */
import type { Analyzer } from '../analysis/analyzer.js';
import { noVectors, validateDocument } from '../schema/document.js';
import { FlatLineBytes } from '../schema/flat-json-bytes.js';
import { flatPlanOf, isSimpleString } from '../schema/flat-json-line.js';
import type { FlatPlan } from '../schema/flat-json-line.js';
import { decodeJsonLine, isBlankLine, parseJsonLine } from '../schema/json-line.js';
import type { Mapping } from '../schema/mapping.js';
import type { ByteValues, FieldInverter } from '../segment/field-inverter.js';
import { SegmentBuffer } from '../segment/segment-buffer.js';
import type { FlushedBuffer } from '../segment/segment-buffer.js';
import { hashId } from './bulk-ids.js';
import { lineDocumentId } from './line-document-id.js';

/** A flushed bulk buffer: the segment, and each doc's input line and id. */
export interface FlushedBulkBuffer {
  readonly flushed: FlushedBuffer;
  /** The input line of each doc. */
  readonly lines: Int32Array<ArrayBuffer>;
  /** Every doc's id, concatenated; doc `d`'s id ends at `idEnds[d]`. */
  readonly idText: string;
  readonly idEnds: Uint32Array<ArrayBuffer>;
  /** Each doc's id hash: `hashBuiltIds` of the ids, computed as they came. */
  readonly idHashes: { readonly hashes: Uint32Array<ArrayBuffer> };
}

/** One future segment of a bulk load, and each of its docs' line and id. */
export class BulkBuffer {
  readonly buffer: SegmentBuffer;
  /** Docs buffered: the used length of {@link lines} and {@link idHashes}. */
  private docs = 0;
  /** Each doc's input line, grown by doubling (typed: no boxed array to grow and copy again at the flush). */
  private lines = new Int32Array(1024);
  /** Each doc's id hash ({@link hashId}), grown with {@link lines}. */
  private idHashes = new Uint32Array(1024);
  /** The fast path over a line's bytes (`flat-json-bytes.ts`), null when every line takes the general path. */
  private readonly flat: FlatLineBytes | null;
  /** The document {@link flat} read last: its values map is the reader's, the same for every line. */
  private readonly flatDoc: { readonly values: FlatLineBytes['values']; readonly vectors: typeof noVectors } | null;
  /** The fast path's line as {@link ByteValues}, for inverting its text from its bytes; null when off. */
  private readonly asciiLine: AsciiLine | null;

  /**
   * `fastPath: false` sends every line through the general path, `bytePath: false` inverts the
   * fast path's values from their strings (tests and benchmarks compare the paths).
   */
  constructor(
    private readonly mapping: Mapping,
    analyzer: (name: string) => Analyzer,
    fastPath = true,
    bytePath = true,
  ) {
    this.buffer = new SegmentBuffer(mapping, analyzer, { idsAtFlush: true });
    const plan = fastPath ? flatPlanOf(mapping) : null;
    const inverted = bytePath && plan !== null;
    // A text value may wait for an inverter to ask for its string when nothing else the segment
    // buffer keeps reads it (`SegmentBuffer.add`: doc values and suggestions read the values).
    const onlyInverted = (name: string): boolean => {
      const f = mapping.field(name);
      return inverted && f !== undefined && !f.filter && !f.facet && !f.sort && f.suggest === null;
    };
    // The reader writes each line's stored JSON straight into the stored fields' open block.
    this.flat = plan === null ? null : new FlatLineBytes(plan, onlyInverted, this.buffer.storedFields);
    this.flatDoc = this.flat === null ? null : { values: this.flat.values, vectors: noVectors };
    this.asciiLine = this.flat === null || !inverted ? null : new AsciiLine(plan, this.flat);
  }

  /** Docs buffered. */
  get maxDoc(): number {
    return this.buffer.maxDoc;
  }

  /**
   * Parses, validates and buffers the documents of `bytes` (whole lines, the first being line
   * `firstLine` of `source`); returns how many and the line of the last (0 if none). Documents
   * without `_id` get the id of their line under `idPrefix` (see {@link lineDocumentId}).
   * @throws YarrowError(ErrorCode.invalidDocument) for the first line that is not a valid
   *   document; the documents before it stay buffered.
   */
  addChunk(bytes: Uint8Array, firstLine: number, source: string, idPrefix: string): { docs: number; lastLine: number } {
    const docs = this.addLines(bytes, firstLine, source, idPrefix);
    return { docs, lastLine: docs === 0 ? 0 : this.lines[this.docs - 1] };
  }

  /**
   * {@link addChunk}'s loop; returns the documents buffered. Apart from it because V8 compiles the
   * loop on its first chunk (on-stack replacement), before the code after the loop has run once:
   * the object `addChunk` returns, made there, had no type feedback, and that compiled loop,
   * which each later call entered again, deoptimised at its return on every chunk (issue 17: ~20-40
   * times a load, and addChunk compiled two or three times a thread). A count needs no feedback.
   */
  private addLines(bytes: Uint8Array, firstLine: number, source: string, idPrefix: string): number {
    const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const { buffer, mapping, flat, flatDoc, asciiLine } = this;
    const deriveId = (at: number | undefined): string => lineDocumentId(idPrefix, at!);
    let line = firstLine;
    let at = line === 1 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf ? 3 : 0;
    let docs = 0;
    flat?.useBytes(input);
    for (; at < input.length; line++) {
      // The fast path finds the line's end as it reads it; the general path looks for it.
      const flatId = flat === null ? null : flat.read(input, at, input.length, source, line, deriveId);
      let lineEnd: number;
      if (flatId !== null) {
        lineEnd = flat!.lineEnd;
        asciiLine?.at(input);
        flat!.addStoredToSink();
        buffer.add(flatDoc!, flatId, null, asciiLine ?? undefined);
        this.noteDoc(line, flatId);
        docs++;
      } else {
        lineEnd = input.indexOf(0x0a, at);
        if (lineEnd < 0) lineEnd = input.length;
        const text = decodeJsonLine(input, at, lineEnd, source, line);
        if (!isBlankLine(text)) {
          const raw = parseJsonLine(text, source, line);
          // `_id: null` counts as no id (`readId`), so it gets its line's id too.
          if (typeof raw === 'object' && raw !== null && !Array.isArray(raw) && ((raw as Record<string, unknown>)._id ?? null) === null) {
            (raw as Record<string, unknown>)._id = lineDocumentId(idPrefix, line);
          }
          const doc = validateDocument(mapping, raw, { source, line });
          // Every object has an id by now: its own (validated) or the one derived above.
          buffer.add(doc, doc.id!, JSON.stringify(doc.stored));
          this.noteDoc(line, doc.id!);
          docs++;
        }
      }
      at = lineEnd + 1;
    }
    return docs;
  }

  /** Records the input line and the id hash of the doc just buffered. */
  private noteDoc(line: number, id: string): void {
    const doc = this.docs++;
    if (doc === this.lines.length) {
      const lines = new Int32Array(2 * doc);
      lines.set(this.lines);
      this.lines = lines;
      const hashes = new Uint32Array(2 * doc);
      hashes.set(this.idHashes);
      this.idHashes = hashes;
    }
    this.lines[doc] = line;
    this.idHashes[doc] = hashId(id);
  }

  /** Encodes the buffer as segment `name` (the buffer must not be used after). */
  async flush(name: string): Promise<FlushedBulkBuffer> {
    const flushed = await this.buffer.flush(name);
    const ids = this.buffer.docIds;
    const idEnds = new Uint32Array(ids.length);
    let end = 0;
    ids.forEach((id, d) => { idEnds[d] = end += id.length; });
    const hashes = this.idHashes.slice(0, this.docs);
    return { flushed, lines: this.lines.slice(0, this.docs), idText: ids.join(''), idEnds, idHashes: { hashes } };
  }
}

/**
 * The line the fast path read last, as {@link ByteValues}: a text field whose value is an ASCII
 * string {@link isSimpleString} calls is inverted from the line's bytes; any other value from its
 * string, which the reader makes then if it has not yet (for a non-ASCII one, from that value's
 * bytes alone: the byte scan stands for the tokenizer on ASCII only).
 */
export class AsciiLine implements ByteValues {
  private bytes: Uint8Array = new Uint8Array(0);
  /** Field name -> slot of the plan. */
  private readonly slots: Map<string, number>;

  constructor(
    private readonly plan: FlatPlan,
    private readonly reader: FlatLineBytes,
  ) {
    this.slots = new Map(plan.fields.map((f, slot) => [f.name, slot]));
  }

  /** The line read last is in `bytes` (the reader's offsets are into them). */
  at(bytes: Uint8Array): void {
    this.bytes = bytes;
  }

  invert(inverter: FieldInverter, docId: number): boolean {
    const slot = this.slots.get(inverter.field);
    const plan = this.plan;
    if (slot === undefined || !isSimpleString(plan, slot)) return false;
    if (plan.highs[slot] === 0 && inverter.invertAscii(docId, this.bytes, plan.starts[slot] + 1, plan.ends[slot] - 1)) return true;
    // The inverter needs the string, which the reader may not have made yet.
    this.reader.resolve(slot);
    return false;
  }
}
