/**
 * What a bulk-load thread does with one chunk of JSON Lines (`bulk-load-worker.ts` is the thread
 * around it): decode, split into lines, parse, validate and add each document to the thread's
 * segment buffer, with each document's input line and id kept for resolving ids across segments
 * (`bulk-ids.ts`). Apart from the thread so that a benchmark can time it on one thread.
 */
import { isAscii } from 'node:buffer';
import type { Analyzer } from '../analysis/analyzer.js';
import { noVectors, validateDocument } from '../schema/document.js';
import { FlatLineBytes } from '../schema/flat-json-bytes.js';
import { flatPlanOf, isSimpleString, readFlatLine } from '../schema/flat-json-line.js';
import type { FlatPlan } from '../schema/flat-json-line.js';
import { isBlankLine, parseJsonLine } from '../schema/json-line.js';
import type { Mapping } from '../schema/mapping.js';
import type { ByteValues, FieldInverter } from '../segment/field-inverter.js';
import { SegmentBuffer } from '../segment/segment-buffer.js';
import type { FlushedBuffer } from '../segment/segment-buffer.js';
import { lineDocumentId } from './line-document-id.js';

/** A flushed bulk buffer: the segment, and each doc's input line and id. */
export interface FlushedBulkBuffer {
  readonly flushed: FlushedBuffer;
  /** The input line of each doc. */
  readonly lines: Int32Array<ArrayBuffer>;
  /** Every doc's id, concatenated; doc `d`'s id ends at `idEnds[d]`. */
  readonly idText: string;
  readonly idEnds: Uint32Array<ArrayBuffer>;
}

/** One future segment of a bulk load, and each of its docs' line and id. */
export class BulkBuffer {
  readonly buffer: SegmentBuffer;
  private lines: number[] = [];
  /** The fast path's plan (`flat-json-line.ts`), null when every line takes the general path. */
  private readonly flat: FlatPlan | null;
  /** The bytes of the ASCII line the fast path read last, for inverting its text from them. */
  private readonly asciiLine: AsciiLine | null;
  /** The fast path over a line's bytes (`flat-json-bytes.ts`), tried before the line is decoded; null when off. */
  private readonly lineBytes: FlatLineBytes | null;
  /** The document {@link lineBytes} read last: its values map is the reader's, the same for every line. */
  private readonly byteDoc: { readonly values: FlatLineBytes['values']; readonly vectors: typeof noVectors } | null;

  /**
   * `fastPath: false` sends every line through the general path, `bytePath: false` inverts the
   * fast path's values from their strings, `lineBytes: false` reads every line of the fast path
   * from its decoded string (tests and benchmarks compare the paths).
   */
  constructor(
    private readonly mapping: Mapping,
    analyzer: (name: string) => Analyzer,
    fastPath = true,
    bytePath = true,
    lineBytes = true,
  ) {
    this.buffer = new SegmentBuffer(mapping, analyzer, { idsAtFlush: true });
    const flat = (this.flat = fastPath ? flatPlanOf(mapping) : null);
    const asciiLine = (this.asciiLine = flat === null || !bytePath ? null : new AsciiLine(flat));
    // A text value may wait for an inverter to ask for its string when nothing else the segment
    // buffer keeps reads it (`SegmentBuffer.add`: doc values and suggestions read the values).
    const onlyInverted = (name: string): boolean => {
      const f = mapping.field(name);
      return asciiLine !== null && f !== undefined && !f.filter && !f.facet && !f.sort && f.suggest === null;
    };
    this.lineBytes = flat === null || !lineBytes ? null : new FlatLineBytes(flat, onlyInverted);
    this.byteDoc = this.lineBytes === null ? null : { values: this.lineBytes.values, vectors: noVectors };
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
    const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const { buffer, lines, mapping, flat, asciiLine, lineBytes, byteDoc } = this;
    // One check for the whole chunk, at the first line the string path takes; else one per line
    // that might be ASCII.
    let allAscii: boolean | undefined;
    const deriveId = (at: number | undefined): string => lineDocumentId(idPrefix, at!);
    let line = firstLine;
    let at = line === 1 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf ? 3 : 0;
    let docs = 0;
    let lastLine = 0;
    for (; at < input.length; line++) {
      let lineEnd = input.indexOf(0x0a, at);
      if (lineEnd < 0) lineEnd = input.length;
      const byteId = lineBytes === null ? null : lineBytes.read(input, at, lineEnd, source, line, deriveId);
      if (byteId !== null) {
        // The reader's offsets are the chunk's.
        asciiLine?.at(input, 0, lineBytes);
        buffer.add(byteDoc!, byteId, lineBytes!.storedBytes(), asciiLine ?? undefined);
        lines.push(line);
        docs++;
        lastLine = line;
        at = lineEnd + 1;
        continue;
      }
      // Each line decoded on its own: the strings the fast path slices from it (ids, values, and
      // the terms the vocabulary keeps) then hold on to one line, not to the whole chunk.
      const text = input.toString('utf8', at, lineEnd);
      if (!isBlankLine(text)) {
        const location = { source, line };
        const fast = flat === null ? null : readFlatLine(flat, text, 0, text.length, location, deriveId);
        let id: string;
        if (fast !== null) {
          id = fast.id;
          // On an ASCII line a character's offset is its byte's, and a byte is the UTF-16 code
          // unit it decodes to: text values are inverted from the chunk's bytes.
          const ascii = asciiLine !== null && ((allAscii ??= isAscii(input)) || (text.length === lineEnd - at && isAscii(input.subarray(at, lineEnd))));
          if (ascii) asciiLine.at(input, at, null);
          buffer.add({ values: fast.values, vectors: noVectors }, id, fast.storedJson, ascii ? asciiLine : undefined);
        } else {
          const raw = parseJsonLine(text, source, line);
          if (typeof raw === 'object' && raw !== null && !Array.isArray(raw) && !('_id' in raw)) {
            (raw as Record<string, unknown>)._id = lineDocumentId(idPrefix, line);
          }
          const doc = validateDocument(mapping, raw, location);
          // Every object has an id by now: its own (validated) or the one derived above.
          id = doc.id!;
          buffer.add(doc, id, JSON.stringify(doc.stored));
        }
        lines.push(line);
        docs++;
        lastLine = line;
      }
      at = lineEnd + 1;
    }
    return { docs, lastLine };
  }

  /** Encodes the buffer as segment `name` (the buffer must not be used after). */
  async flush(name: string): Promise<FlushedBulkBuffer> {
    const flushed = await this.buffer.flush(name);
    const ids = this.buffer.docIds;
    const idEnds = new Uint32Array(ids.length);
    let end = 0;
    ids.forEach((id, d) => { idEnds[d] = end += id.length; });
    return { flushed, lines: Int32Array.from(this.lines), idText: ids.join(''), idEnds };
  }
}

/**
 * The line the fast path read last, as {@link ByteValues}: a text field whose value is a string
 * {@link isSimpleString} calls is inverted from the line's bytes; any other value from its string.
 * Only for lines that are ASCII (the read line's offsets are then its bytes').
 */
class AsciiLine implements ByteValues {
  private bytes: Uint8Array = new Uint8Array(0);
  private offset = 0;
  /** The byte reader when it read the line (its deferred values are made on demand), else null. */
  private reader: FlatLineBytes | null = null;
  /** Field name -> slot of the plan. */
  private readonly slots: Map<string, number>;

  constructor(private readonly plan: FlatPlan) {
    this.slots = new Map(plan.fields.map((f, slot) => [f.name, slot]));
  }

  /** The line read last starts at `bytes[offset]`; `reader` read it, or null when the string path did. */
  at(bytes: Uint8Array, offset: number, reader: FlatLineBytes | null): void {
    this.bytes = bytes;
    this.offset = offset;
    this.reader = reader;
  }

  invert(inverter: FieldInverter, docId: number): boolean {
    const slot = this.slots.get(inverter.field);
    const plan = this.plan;
    if (slot === undefined || !isSimpleString(plan, slot)) return false;
    if (inverter.invertAscii(docId, this.bytes, this.offset + plan.starts[slot] + 1, this.offset + plan.ends[slot] - 1)) return true;
    // The inverter needs the string, which the byte reader may not have made yet.
    this.reader?.resolve(slot);
    return false;
  }
}
