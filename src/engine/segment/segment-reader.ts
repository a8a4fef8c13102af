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

/** Read access to one segment; shared by every snapshot that contains the segment. */
export class SegmentReader {
  private ids: string[] | null = null;

  private constructor(
    readonly info: SegmentInfo,
    readonly terms: TermDictionaryReader,
    /** Raw `.pst` bytes (for merges, which iterate postings directly). */
    readonly postingsBytes: Uint8Array,
    /** Raw `.pos` bytes. */
    readonly positionsBytes: Uint8Array,
    private readonly norms: ReadonlyMap<string, Uint8Array>,
    readonly stored: StoredFieldsReader,
    readonly docValues: DocValuesReader,
  ) {}

  /** Opens a segment; `files` may supply bytes already in memory (a segment just flushed). */
  static async open(dir: Directory, info: SegmentInfo, files?: ReadonlyMap<string, Uint8Array>): Promise<SegmentReader> {
    const read = async (component: SegmentComponent): Promise<Uint8Array> => {
      const name = componentFile(info.name, component);
      const bytes = files?.get(name) ?? (await readVerified(dir, fileInfo(info, name)));
      return bytes;
    };
    const [terms, postings, positions, norms, stored, docValues] = await Promise.all([
      read(SegmentComponent.terms),
      read(SegmentComponent.postings),
      read(SegmentComponent.positions),
      read(SegmentComponent.norms),
      read(SegmentComponent.storedFields),
      read(SegmentComponent.docValues),
    ]);
    return new SegmentReader(
      info,
      TermDictionaryReader.open(terms, componentFile(info.name, SegmentComponent.terms)),
      postings,
      positions,
      decodeNorms(norms, componentFile(info.name, SegmentComponent.norms)),
      StoredFieldsReader.open(stored, componentFile(info.name, SegmentComponent.storedFields)),
      decodeDocValues(docValues, componentFile(info.name, SegmentComponent.docValues)),
    );
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
    return new PostingsIterator(this.postingsBytes, this.positionsBytes, info, IndexOptions.docsFreqsPositions);
  }

  /** Norm bytes of a full-text field (one per doc), or undefined when no doc has the field. */
  fieldNorms(field: string): Uint8Array | undefined {
    return this.norms.get(field);
  }

  /** Doc ids carrying the user id `id` (deleted ones included). */
  docsWithId(id: string): number[] {
    const info = this.terms.lookup(ID_FIELD, id);
    if (info === undefined) return [];
    if (info.singletonDoc >= 0) return [info.singletonDoc];
    const it = new PostingsIterator(this.postingsBytes, null, info, IndexOptions.docs);
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
      for (const entry of this.terms.terms(ID_FIELD)) {
        if (entry.singletonDoc >= 0) ids[entry.singletonDoc] = entry.term;
        else {
          const it = new PostingsIterator(this.postingsBytes, null, entry, IndexOptions.docs);
          for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) ids[d] = entry.term;
        }
      }
      this.ids = ids;
    }
    return this.ids[doc];
  }

  /** Reads the live docs of the segment as a manifest records them (`info` of that manifest). */
  async readLiveDocs(dir: Directory, info: SegmentInfo = this.info): Promise<LiveDocs> {
    if (info.liveDocs === null) return LiveDocs.allLive(info.maxDoc);
    const bytes = await readVerified(dir, info.liveDocs);
    return LiveDocs.decode(bytes, info.liveDocs.name);
  }
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
