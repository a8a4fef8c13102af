/**
 * Assembles one immutable segment from inverted fields, norms, stored documents and doc values.
 * Both ways a segment is born use it: flushing the in-memory buffer and merging segments.
 */
import { footerChecksum } from '../codec/file-format.js';
import { encodeDocValues } from '../codec/doc-values/doc-values-writer.js';
import type { DocValuesColumn } from '../codec/doc-values/doc-values-writer.js';
import { encodeNorms } from '../codec/norms/norms-writer.js';
import { IndexOptions } from '../codec/postings/postings-format.js';
import { PostingsWriter } from '../codec/postings/postings-writer.js';
import { StoredFieldsWriter } from '../codec/stored-fields/stored-fields-writer.js';
import { TermDictionaryWriter } from '../codec/term-dictionary/term-dictionary-writer.js';
import type { VectorFieldFiles } from '../vector/vector-field-writer.js';
import { SegmentComponent, componentFile, segmentComponents, vectorFieldFiles } from './segment-component.js';
import type { OptionalSegmentComponent } from './segment-component.js';
import type { FieldStats, FileInfo, SegmentInfo, VectorFieldInfo } from './segment-info.js';

/** A finished segment: its files' bytes (not yet written anywhere) and its manifest entry. */
export interface WrittenSegment {
  readonly info: SegmentInfo;
  readonly files: ReadonlyMap<string, Uint8Array>;
}

/** Collects one segment's parts; call the add methods field by field, terms in order. */
export class SegmentWriter {
  private readonly postings = new PostingsWriter();
  private readonly terms = new TermDictionaryWriter();
  private readonly norms = new Map<string, Uint8Array>();
  private readonly fieldStats: Partial<Record<string, FieldStats>> = {};
  private readonly columns: DocValuesColumn[] = [];
  private options: IndexOptions = 0;
  private fieldNorms: Uint8Array | null = null;
  private readonly infos = new Map<SegmentComponent, FileInfo>();
  private readonly vectorFields: VectorFieldInfo[] = [];
  private readonly vectorFiles: FileInfo[] = [];
  private readonly optionalInfos: FileInfo[] = [];
  private optionalFiles = new Map<string, Uint8Array>();
  /**
   * @param stored the segment's stored documents, one JSON object per doc id in order: a writer
   *   the caller has filled already (a buffer compresses them as they arrive), or an empty one.
   */
  constructor(
    readonly name: string,
    readonly maxDoc: number,
    readonly stored: StoredFieldsWriter = new StoredFieldsWriter(),
  ) {}

  /**
   * Starts an indexed field. `norms` (one byte per doc) and `stats` are given for full-text
   * fields, null for fields that are not scored (`_id`).
   */
  startField(field: string, options: IndexOptions, norms: Uint8Array | null, stats: FieldStats | null): void {
    this.terms.startField(field);
    this.options = options;
    this.fieldNorms = norms;
    if (norms !== null) this.norms.set(field, norms);
    if (stats !== null) this.fieldStats[field] = stats;
  }

  /** Adds the next term (in increasing order) of the current field; see PostingsWriter.addTerm. */
  addTerm(
    term: string,
    count: number,
    docs: ArrayLike<number>,
    freqs: ArrayLike<number> | null,
    positions: ArrayLike<number> | null,
  ): void {
    this.terms.addTerm(term, this.postings.writeTerm(this.options, count, docs, freqs, positions, this.fieldNorms));
  }

  /**
   * Adds the next term of the current field, found in the one doc `doc` and not scored (no
   * frequencies or norms: `_id`); the same bytes as {@link addTerm} with one doc.
   */
  addSingletonTerm(term: string, doc: number): void {
    this.terms.addSingleDoc(term, doc, 1, this.postings.positionsLength, 1, 0);
  }

  /**
   * Adds the next term of the current field, found in the one doc `doc`, `freq` times at
   * `positions[from..from+freq)`: the same bytes as {@link addTerm} with one doc, without its pass over
   * blocks (most terms of a segment have one doc).
   */
  addSingleDocTerm(term: string, doc: number, freq: number, positions: ArrayLike<number>, from: number): void {
    const positionsOffset = this.postings.positionsLength;
    if (this.options !== IndexOptions.docsFreqsPositions) {
      this.terms.addSingleDoc(term, doc, 1, positionsOffset, 1, 0);
      return;
    }
    this.postings.writePositions(positions, from, freq);
    const norms = this.fieldNorms;
    this.terms.addSingleDoc(term, doc, freq, positionsOffset, freq, norms === null ? 0 : norms[doc]);
  }

  /** Adds a doc values column (one per filterable/sortable/facetable field). */
  addDocValues(column: DocValuesColumn): void {
    this.columns.push(column);
  }

  /**
   * Encodes `components` and returns their files, keeping only their names, sizes and checksums:
   * a merge hands each phase's files to storage as soon as the phase is done, instead of holding
   * the whole segment. Each component is taken once; postings and positions go together.
   */
  take(components: readonly SegmentComponent[]): Map<string, Uint8Array> {
    const files = new Map<string, Uint8Array>();
    const add = (component: SegmentComponent, bytes: Uint8Array): void => {
      const name = componentFile(this.name, component);
      files.set(name, bytes);
      this.infos.set(component, { name, size: bytes.length, crc32: footerChecksum(bytes, name) });
    };
    for (const component of components) {
      if (this.infos.has(component)) continue;
      switch (component) {
        case SegmentComponent.terms:
          add(component, this.terms.finish());
          break;
        case SegmentComponent.postings:
        case SegmentComponent.positions: {
          const { postings, positions } = this.postings.finish();
          add(SegmentComponent.postings, postings);
          add(SegmentComponent.positions, positions);
          break;
        }
        case SegmentComponent.norms:
          add(component, encodeNorms(this.norms, this.maxDoc));
          break;
        case SegmentComponent.storedFields:
          add(component, this.stored.finish());
          break;
        case SegmentComponent.docValues:
          add(component, encodeDocValues(this.columns, this.maxDoc));
          this.columns.length = 0;
          break;
      }
    }
    return files;
  }

  /**
   * Adds the encoded files of a vector field (see `VectorFieldWriter.finish`) and returns them by
   * name, to be written with the segment's other files.
   */
  addVectorField(field: VectorFieldInfo, encoded: VectorFieldFiles): Map<string, Uint8Array> {
    const names = vectorFieldFiles(this.name, this.vectorFields.length);
    this.vectorFields.push(field);
    const files = new Map([[names.vectors, encoded.vectors], [names.graph, encoded.graph]]);
    for (const [name, bytes] of files) this.vectorFiles.push({ name, size: bytes.length, crc32: footerChecksum(bytes, name) });
    return files;
  }

  /** Adds an encoded optional file (see {@link OptionalSegmentComponent}); it is listed after the components. */
  addOptional(component: OptionalSegmentComponent, bytes: Uint8Array): void {
    const name = componentFile(this.name, component);
    this.optionalFiles.set(name, bytes);
    this.optionalInfos.push({ name, size: bytes.length, crc32: footerChecksum(bytes, name) });
  }

  /** The optional files added since the last call, for storage (a merge writes them as a phase). */
  takeOptional(): Map<string, Uint8Array> {
    const files = this.optionalFiles;
    this.optionalFiles = new Map();
    return files;
  }

  /** The manifest entry of the segment, once every component has been taken. */
  info(): SegmentInfo {
    const files = segmentComponents.map((c) => this.infos.get(c) ?? missingComponent(this.name, c));
    const info: SegmentInfo = { name: this.name, maxDoc: this.maxDoc, files: [...files, ...this.optionalInfos, ...this.vectorFiles], fieldStats: this.fieldStats, liveDocs: null, deletedCount: 0 };
    // Only segments with vectors carry the key, so manifests of indexes without any are unchanged.
    return this.vectorFields.length === 0 ? info : { ...info, vectorFields: [...this.vectorFields] };
  }

  /** Encodes every component and returns the segment, optional files included. */
  finish(): WrittenSegment {
    const files = this.take(segmentComponents);
    for (const [name, bytes] of this.takeOptional()) files.set(name, bytes);
    return { files, info: this.info() };
  }
}

function missingComponent(segment: string, component: SegmentComponent): never {
  throw new Error(`segment ${segment}: component ${component} was never written`);
}
