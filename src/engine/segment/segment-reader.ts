/**
 * Opens one immutable segment from a Directory: verifies its files against the manifest's
 * checksums, keeps only the sparse term index in decoded form, and hands out postings iterators,
 * norms, stored documents and doc values.
 */
import type { Directory } from '../directory.js';
import { ErrorCode, YarrowError } from '../errors.js';
import { decodeDocValues } from '../codec/doc-values/doc-values-reader.js';
import type { DocValuesReader } from '../codec/doc-values/doc-values-reader.js';
import { crc32 } from '../codec/file-format.js';
import { LiveDocs } from '../codec/live-docs/live-docs.js';
import { decodeNorms } from '../codec/norms/norms-reader.js';
import { IndexOptions, NO_MORE_DOCS } from '../codec/postings/postings-format.js';
import { PostingsIterator } from '../codec/postings/postings-reader.js';
import type { TermInfo } from '../codec/postings/postings-reader.js';
import { StoredFieldsReader } from '../codec/stored-fields/stored-fields-reader.js';
import { TermDictionaryReader } from '../codec/term-dictionary/term-dictionary-reader.js';
import { SegmentComponent, componentFile } from './segment-component.js';
import type { FileInfo, SegmentInfo } from './segment-info.js';
import { ID_FIELD } from './segment-buffer.js';

/**
 * How much of a segment a reader loads. `full`: everything a search needs. `ids`: only the `_id`
 * terms (and, for segments that hold an id twice, the postings), for a writer that never searches
 * and only needs to find the older copy of an upserted id.
 */
export const SegmentLoad = { full: 'full', ids: 'ids' } as const;
export type SegmentLoad = (typeof SegmentLoad)[keyof typeof SegmentLoad];

/** The parts only a full reader has. */
interface SearchParts {
  readonly terms: TermDictionaryReader;
  readonly postingsBytes: Uint8Array;
  readonly positionsBytes: Uint8Array;
  readonly norms: ReadonlyMap<string, Uint8Array>;
  readonly stored: StoredFieldsReader;
  readonly docValues: DocValuesReader;
}

/** Read access to one segment; shared by every snapshot that contains the segment. */
export class SegmentReader {
  private ids: string[] | null = null;

  private constructor(
    readonly info: SegmentInfo,
    private readonly parts: SearchParts | null,
    /** The `_id` terms: the whole dictionary of a full reader, only its `_id` section otherwise. */
    private readonly idTerms: TermDictionaryReader,
    /** `.pst` bytes for ids with several docs; null when every id of the segment is a singleton. */
    private readonly idPostings: Uint8Array | null,
  ) {}

  /**
   * Opens a segment; `files` may supply bytes already in memory (a segment just flushed). A full
   * reader verifies every file against the manifest's size and CRC32; an `ids` reader reads one
   * section of the term dictionary by range and checks its header and footer only.
   */
  static async open(
    dir: Directory,
    info: SegmentInfo,
    files?: ReadonlyMap<string, Uint8Array>,
    load: SegmentLoad = SegmentLoad.full,
  ): Promise<SegmentReader> {
    const read = async (component: SegmentComponent): Promise<Uint8Array> => {
      const name = componentFile(info.name, component);
      const bytes = files?.get(name) ?? (await readVerified(dir, fileInfo(info, name)));
      return bytes;
    };
    if (load === SegmentLoad.ids) return SegmentReader.openIds(dir, info, files, read);
    const [terms, postings, positions, norms, stored, docValues] = await Promise.all([
      read(SegmentComponent.terms),
      read(SegmentComponent.postings),
      read(SegmentComponent.positions),
      read(SegmentComponent.norms),
      read(SegmentComponent.storedFields),
      read(SegmentComponent.docValues),
    ]);
    const termDictionary = TermDictionaryReader.open(terms, componentFile(info.name, SegmentComponent.terms));
    return new SegmentReader(
      info,
      {
        terms: termDictionary,
        postingsBytes: postings,
        positionsBytes: positions,
        norms: decodeNorms(norms, componentFile(info.name, SegmentComponent.norms)),
        stored: StoredFieldsReader.open(stored, componentFile(info.name, SegmentComponent.storedFields)),
        docValues: decodeDocValues(docValues, componentFile(info.name, SegmentComponent.docValues)),
      },
      termDictionary,
      postings,
    );
  }

  private static async openIds(
    dir: Directory,
    info: SegmentInfo,
    files: ReadonlyMap<string, Uint8Array> | undefined,
    read: (component: SegmentComponent) => Promise<Uint8Array>,
  ): Promise<SegmentReader> {
    const termsFile = fileInfo(info, componentFile(info.name, SegmentComponent.terms));
    const inMemory = files?.get(termsFile.name);
    // Copies, so that the rest of a just-flushed file can be garbage collected.
    const readRange = inMemory === undefined
      ? (offset: number, length: number) => dir.readRange(termsFile.name, offset, length)
      : (offset: number, length: number) => Promise.resolve(inMemory.slice(offset, offset + length));
    const idTerms = await TermDictionaryReader.openField(readRange, termsFile.size, termsFile.name, ID_FIELD);
    // Segments written since ids are unique per segment have only singletons, inlined in the terms.
    const singletons = idTerms.termCount(ID_FIELD) === info.maxDoc || allSingletons(idTerms);
    return new SegmentReader(info, null, idTerms, singletons ? null : await read(SegmentComponent.postings));
  }

  /** Whether this reader holds what searches and merges need (see {@link SegmentLoad}). */
  get searchable(): boolean {
    return this.parts !== null;
  }

  /** The term dictionary. */
  get terms(): TermDictionaryReader {
    return this.searchParts().terms;
  }

  /** Raw `.pst` bytes (for merges, which iterate postings directly). */
  get postingsBytes(): Uint8Array {
    return this.searchParts().postingsBytes;
  }

  /** Raw `.pos` bytes. */
  get positionsBytes(): Uint8Array {
    return this.searchParts().positionsBytes;
  }

  /** Stored documents. */
  get stored(): StoredFieldsReader {
    return this.searchParts().stored;
  }

  /** Doc values columns. */
  get docValues(): DocValuesReader {
    return this.searchParts().docValues;
  }

  get name(): string {
    return this.info.name;
  }

  get maxDoc(): number {
    return this.info.maxDoc;
  }

  /** Dictionary entry of a term, or undefined. */
  termInfo(field: string, term: string): TermInfo | undefined {
    return this.terms.lookup(field, term);
  }

  /** A postings iterator over a term of a full-text field (freqs and positions). */
  postings(info: TermInfo): PostingsIterator {
    const parts = this.searchParts();
    return new PostingsIterator(parts.postingsBytes, parts.positionsBytes, info, IndexOptions.docsFreqsPositions);
  }

  /** Norm bytes of a full-text field (one per doc), or undefined when no doc has the field. */
  fieldNorms(field: string): Uint8Array | undefined {
    return this.searchParts().norms.get(field);
  }

  /** Doc ids carrying the user id `id` (deleted ones may be included). */
  docsWithId(id: string): number[] {
    const info = this.idTerms.lookup(ID_FIELD, id);
    if (info === undefined) return [];
    if (info.singletonDoc >= 0) return [info.singletonDoc];
    const it = new PostingsIterator(this.idPostingsBytes(), null, info, IndexOptions.docs);
    const docs: number[] = [];
    for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) docs.push(d);
    return docs;
  }

  /**
   * The `_id` of a doc without touching stored fields. The id column is built from the `_id` terms
   * on first use and kept, so id-only hits cost no decompression.
   */
  idOf(doc: number): string {
    if (this.ids === null) {
      const ids = new Array<string>(this.maxDoc);
      for (const entry of this.idTerms.terms(ID_FIELD)) {
        if (entry.singletonDoc >= 0) ids[entry.singletonDoc] = entry.term;
        else {
          const it = new PostingsIterator(this.idPostingsBytes(), null, entry, IndexOptions.docs);
          for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) ids[d] = entry.term;
        }
      }
      this.ids = ids;
    }
    return this.ids[doc];
  }

  private searchParts(): SearchParts {
    if (this.parts === null) {
      throw new Error(`segment ${this.info.name} was opened for id lookups only; searching or merging it needs a full reader`);
    }
    return this.parts;
  }

  private idPostingsBytes(): Uint8Array {
    if (this.idPostings === null) throw new YarrowError(ErrorCode.corruptIndex, `segment ${this.info.name}: an id with several docs has no postings`);
    return this.idPostings;
  }

  /** Reads the live docs of the segment as a manifest records them (`info` of that manifest). */
  async readLiveDocs(dir: Directory, info: SegmentInfo = this.info): Promise<LiveDocs> {
    if (info.liveDocs === null) return LiveDocs.allLive(info.maxDoc);
    const bytes = await readVerified(dir, info.liveDocs);
    return LiveDocs.decode(bytes, info.liveDocs.name);
  }
}

function allSingletons(terms: TermDictionaryReader): boolean {
  for (const entry of terms.terms(ID_FIELD)) if (entry.singletonDoc < 0) return false;
  return true;
}

function fileInfo(info: SegmentInfo, name: string): FileInfo {
  const file = info.files.find((f) => f.name === name);
  if (file === undefined) {
    throw new YarrowError(ErrorCode.corruptIndex, `segment ${info.name} lists no file ${name}`, { file: name });
  }
  return file;
}

/** Reads a file and checks its size and CRC32 against the manifest's record. */
export async function readVerified(dir: Directory, file: FileInfo): Promise<Uint8Array> {
  const bytes = await dir.readFile(file.name);
  if (bytes.length !== file.size || crc32(bytes) !== file.crc32) {
    throw new YarrowError(
      ErrorCode.corruptIndex,
      `${file.name}: expected ${file.size} bytes with crc32 ${file.crc32}, found ${bytes.length} bytes with crc32 ${crc32(bytes)}`,
      { file: file.name },
    );
  }
  return bytes;
}
