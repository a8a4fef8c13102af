/**
 * The writer's in-memory buffer: documents accepted since the last flush, inverted per field,
 * with stored fields and doc values, until {@link SegmentBuffer.flush} turns them into an
 * immutable segment.
 */
import type { Analyzer } from '../analysis/analyzer.js';
import type { DocValuesColumn } from '../codec/doc-values/doc-values-writer.js';
import { IndexOptions } from '../codec/postings/postings-format.js';
import { StoredFieldsWriter } from '../codec/stored-fields/stored-fields-writer.js';
import { isWildcardName } from '../schema/field-name.js';
import type { FieldMapping, Mapping } from '../schema/mapping.js';
import type { ValidDocument } from '../schema/document.js';
import { TimeSlicer } from '../event-loop.js';
import { SuggestCollector } from '../suggest/suggest-collector.js';
import { FieldInverter } from './field-inverter.js';
import type { ByteValues } from './field-inverter.js';
import { OptionalSegmentComponent } from './segment-component.js';
import { SegmentWriter } from './segment-writer.js';
import { primeBufferDetaching, primeSegmentWrite } from './write-primer.js';
import type { WrittenSegment } from './segment-writer.js';
import { sortedTermIds } from './term-order.js';
import { VectorFieldWriter } from '../vector/vector-field-writer.js';
import type { VectorFieldInfo } from './segment-info.js';
import { vectorFieldInfo, vectorFieldOptions } from './vector-fields.js';

/** The name of the implicit id field. */
export const ID_FIELD = '_id';

type Value = string | number | boolean;

/** Per-doc values of one doc-values field, gathered in doc order. */
interface ColumnBuilder {
  readonly field: string;
  readonly numeric: boolean;
  readonly offsets: number[];
  readonly values: Value[];
}

/** A flushed buffer: the new segment and the doc ids that were replaced inside the buffer. */
export interface FlushedBuffer extends WrittenSegment {
  readonly deletedDocs: readonly number[];
}

/** How a buffer keeps track of ids. */
export interface SegmentBufferOptions {
  /**
   * Resolve ids only at the flush, from the one sort that orders them for the `_id` terms,
   * instead of a map updated per document (a bulk load, which asks no questions about ids while
   * it fills a buffer: a map costs about as much as all other bookkeeping per doc). A later doc
   * still replaces an earlier one with the same id. {@link SegmentBuffer.has},
   * {@link SegmentBuffer.delete} and {@link SegmentBuffer.liveIds} still work: the first call
   * builds the map, and the buffer keeps it from then on.
   */
  readonly idsAtFlush?: boolean;
}

/** Buffers validated documents for one future segment. */
export class SegmentBuffer {
  private readonly inverters: FieldInverter[] = [];
  private readonly columns: ColumnBuilder[] = [];
  private readonly ids: string[] = [];
  /** Id -> its live doc; null while ids are resolved at the flush ({@link SegmentBufferOptions.idsAtFlush}). */
  private idToDoc: Map<string, number> | null;
  /**
   * Stored documents, compressed block by block as they arrive: their JSON then dies young
   * instead of being held (and copied by every scavenge, then marked) until the flush.
   */
  private readonly stored = new StoredFieldsWriter();
  private readonly deleted = new Set<number>();
  /** Fields that have an inverter or column (or need none). */
  private readonly known = new Set<string>();
  /** One vector writer per semantic field, started at the field's first vector (its dimension). */
  private readonly vectorWriters = new Map<string, { info: VectorFieldInfo; writer: VectorFieldWriter }>();
  private readonly suggestions: SuggestCollector;

  constructor(
    private readonly mapping: Mapping,
    private readonly analyzer: (name: string) => Analyzer,
    options: SegmentBufferOptions = {},
  ) {
    // Before this thread's code that fills and writes the buffer is optimised: the flush's files are
    // transferred to another thread, and an isolate's first detach deoptimises it all (see write-primer.ts).
    primeBufferDetaching();
    this.idToDoc = options.idsAtFlush === true ? null : new Map();
    this.suggestions = new SuggestCollector(analyzer);
    for (const field of mapping.fields) if (!isWildcardName(field.name)) this.addField(field, 0);
  }

  /**
   * Starts the inverter and doc-values column of a field; `docs` earlier documents have no value
   * (fields a wildcard pattern maps appear when a document first has them).
   */
  private addField(field: FieldMapping, docs: number): void {
    this.known.add(field.name);
    if (field.analyzer !== null) this.inverters.push(new FieldInverter(field.name, this.analyzer(field.analyzer)));
    this.suggestions.addField(field);
    // Geopoints are stored only until geo filters exist.
    if ((field.filter || field.facet || field.sort) && field.baseType !== 'geopoint') {
      const numeric = field.baseType !== 'text' && field.baseType !== 'id';
      this.columns.push({ field: field.name, numeric, offsets: new Array<number>(docs + 1).fill(0), values: [] });
    }
  }

  /** The stored fields, for a caller that writes a document's JSON in place (see {@link add}). */
  get storedFields(): StoredFieldsWriter {
    return this.stored;
  }

  /** Docs buffered, replaced ones included. */
  get maxDoc(): number {
    return this.ids.length;
  }

  /** The id of every doc buffered, by doc id (replaced ones included). */
  get docIds(): readonly string[] {
    return this.ids;
  }

  /**
   * An estimate of the memory the buffer holds, used to decide when to flush: the inverters' typed
   * arrays as allocated, about 120 bytes per distinct term (its string, its entries in the term
   * and raw-token maps), the stored fields as held (compressed as they arrive, about 40% of their
   * UTF-8 JSON), twice over for the spare room of their growing buffer and the copy a flush makes,
   * and about 64 bytes per id. Counting the stored JSON whole, as UTF-16, overstated a buffer of
   * long documents about twofold and cut it into twice the segments its memory called for.
   */
  get estimatedBytes(): number {
    let bytes = 0;
    for (const inv of this.inverters) bytes += inv.arrayBytes + inv.termCount * 120;
    // Vectors: their records (int8 codes + scale, or float32) and a docId each.
    for (const { info, writer } of this.vectorWriters.values()) bytes += writer.count * ((writer.encoding === 'float32' ? 4 * info.dim : info.dim + 16) + 4);
    return bytes + this.suggestions.estimatedBytes + this.stored.heldBytes * 2 + this.ids.length * 64;
  }

  /**
   * Adds a document whose id is known (`storedJson`: its stored fields as JSON, or its UTF-8, or
   * null when the caller has added them to {@link storedFields} itself); a buffered doc with the same id is replaced.
   * `bytes`, when given, may invert a field from its value's bytes instead (see {@link ByteValues}).
   */
  add(doc: Pick<ValidDocument, 'values' | 'vectors'>, id: string, storedJson: string | Uint8Array | null, bytes?: ByteValues): void {
    const docId = this.ids.length;
    const idToDoc = this.idToDoc;
    if (idToDoc !== null) {
      const previous = idToDoc.get(id);
      if (previous !== undefined) this.deleted.add(previous);
      idToDoc.set(id, docId);
    }
    this.ids.push(id);
    if (this.mapping.hasWildcards) {
      for (const name of doc.values.keys()) {
        if (this.known.has(name)) continue;
        const field = this.mapping.field(name);
        if (field !== undefined) this.addField(field, docId);
      }
    }
    for (const inv of this.inverters) {
      const values = doc.values.get(inv.field);
      if (values !== undefined && values.length > 0 && bytes?.invert(inv, docId) !== true) inv.invert(docId, values);
    }
    if (this.suggestions.active) this.suggestions.add(docId, doc.values);
    for (const col of this.columns) {
      const values = doc.values.get(col.field);
      if (values !== undefined) for (const v of values) col.values.push(v);
      col.offsets.push(col.values.length);
    }
    if (doc.vectors.size > 0) for (const [field, vector] of doc.vectors) this.vectorWriter(field, vector.length).add(docId, vector);
    if (typeof storedJson === 'string') this.stored.addRaw(storedJson);
    else if (storedJson !== null) this.stored.addRawBytes(storedJson);
  }

  /** The vector writer of a semantic field (the writer checked the dimension before the log). */
  private vectorWriter(field: string, dim: number): VectorFieldWriter {
    let entry = this.vectorWriters.get(field);
    if (entry === undefined) {
      const semantic = this.mapping.field(field)?.semantic;
      if (semantic == null) throw new Error(`field ${field} has a vector but no search.semantic mapping`);
      const info = vectorFieldInfo(field, semantic, dim);
      entry = { info, writer: new VectorFieldWriter(field, vectorFieldOptions(semantic, info)) };
      this.vectorWriters.set(field, entry);
    }
    return entry.writer;
  }

  /** Deletes the buffered doc with this id, if any; returns whether one was live. */
  delete(id: string): boolean {
    const idToDoc = this.liveDocs();
    const docId = idToDoc.get(id);
    if (docId === undefined) return false;
    idToDoc.delete(id);
    this.deleted.add(docId);
    return true;
  }

  /** Whether a live buffered doc has this id. */
  has(id: string): boolean {
    return this.liveDocs().has(id);
  }

  /** Ids of the live buffered docs. */
  liveIds(): IterableIterator<string> {
    return this.liveDocs().keys();
  }

  /** Id -> live doc, built (and kept from now on) if ids were left for the flush. */
  private liveDocs(): Map<string, number> {
    if (this.idToDoc !== null) return this.idToDoc;
    const idToDoc = new Map<string, number>();
    this.ids.forEach((id, docId) => {
      const previous = idToDoc.get(id);
      if (previous !== undefined) this.deleted.add(previous);
      idToDoc.set(id, docId);
    });
    return (this.idToDoc = idToDoc);
  }

  /** Encodes the buffer as segment `name`. */
  async flush(name: string): Promise<FlushedBuffer> {
    const slicer = new TimeSlicer();
    // Once per thread: see write-primer.ts.
    primeSegmentWrite();
    const maxDoc = this.ids.length;
    const writer = new SegmentWriter(name, maxDoc, this.stored);
    writeIds(writer, this.ids, this.deleted, this.idToDoc === null);
    for (const inv of this.inverters) await inv.writeTo(writer, maxDoc, slicer);
    for (const col of this.columns) writer.addDocValues(buildColumn(col));
    const suggestions = this.suggestions.active ? this.suggestions.encode(this.deleted) : null;
    if (suggestions !== null) writer.addOptional(OptionalSegmentComponent.suggestions, suggestions);
    const files = new Map(writer.finish().files);
    // Vector fields in name order, so a segment's field ordinals do not depend on arrival order.
    for (const { info, writer: vw } of [...this.vectorWriters.values()].sort((a, b) => (a.info.field < b.info.field ? -1 : 1))) {
      if (vw.count === 0) continue;
      for (const [name, bytes] of writer.addVectorField(info, await vw.finishSliced(slicer))) files.set(name, bytes);
    }
    return { files, info: writer.info(), deletedDocs: [...this.deleted].sort((a, b) => a - b) };
  }
}

/**
 * Writes the `_id` terms of the live docs only: a doc replaced or deleted inside the buffer is
 * never looked up again, and leaving it out makes every id of a segment a singleton, inlined in
 * the term dictionary, so a writer can find ids without loading postings. One sort of all the
 * docs by id (UTF-16 code units, the term order) gives both the terms' order and, with
 * `resolve`, the replaced docs: of a run of equal ids only the last doc lives, the others are
 * added to `deleted`, as a map updated per doc would have done. Without `resolve`, `deleted`
 * already holds every doc but one of each id.
 */
function writeIds(writer: SegmentWriter, ids: readonly string[], deleted: Set<number>, resolve: boolean): void {
  writer.startField(ID_FIELD, IndexOptions.docs, null, null);
  const order = sortedTermIds(ids);
  const dead = new Uint8Array(ids.length);
  for (const d of deleted) dead[d] = 1;
  for (let i = 0; i < order.length; ) {
    const id = ids[order[i]];
    let end = i + 1;
    while (end < order.length && ids[order[end]] === id) end++;
    let live = -1;
    for (let j = i; j < end; j++) {
      const doc = order[j];
      if (!resolve) {
        if (dead[doc] === 0) live = doc;
      } else if (doc > live) {
        if (live >= 0) deleted.add(live);
        live = doc;
      } else {
        deleted.add(doc);
      }
    }
    if (live >= 0 && dead[live] === 0) writer.addSingletonTerm(id, live);
    i = end;
  }
}

function buildColumn(col: ColumnBuilder): DocValuesColumn {
  const offsets = Uint32Array.from(col.offsets);
  if (col.numeric) {
    const values = new Float64Array(col.values.length);
    for (let i = 0; i < values.length; i++) values[i] = Number(col.values[i]);
    return { kind: 'numeric', field: col.field, offsets, values };
  }
  const strings = col.values.map(String);
  const dictionary = [...new Set(strings)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const ordOf = new Map(dictionary.map((s, i) => [s, i]));
  const ords = new Uint32Array(strings.length);
  for (let d = 0; d + 1 < offsets.length; d++) {
    const start = offsets[d];
    const end = offsets[d + 1];
    for (let i = start; i < end; i++) ords[i] = ordOf.get(strings[i])!;
    ords.subarray(start, end).sort();
  }
  return { kind: 'keyword', field: col.field, dictionary, offsets, ords };
}
