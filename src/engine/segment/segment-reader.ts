/**
 * Opens one immutable segment from a Directory: verifies its files against the manifest's
 * checksums, keeps only the sparse term index in decoded form, and hands out postings iterators,
 * norms, stored documents and doc values.
 */
import { crc32 } from 'node:zlib';
import type { Directory, RandomAccessFile } from '../directory.js';
import { yieldToEventLoop } from '../event-loop.js';
import { ErrorCode, YarrowError } from '../errors.js';
import { decodeDocValues } from '../codec/doc-values/doc-values-reader.js';
import type { DocValuesReader } from '../codec/doc-values/doc-values-reader.js';
import { FOOTER_LENGTH, HEADER_LENGTH, checkFooterMagic, footerChecksum, verifyChecksum } from '../codec/file-format.js';
import { LiveDocs } from '../codec/live-docs/live-docs.js';
import { decodeNorms } from '../codec/norms/norms-reader.js';
import { IndexOptions, NO_MORE_DOCS } from '../codec/postings/postings-format.js';
import { InMemoryPostings, PostingsFile, PostingsStream } from '../codec/postings/postings-file.js';
import type { MergePostings, RangeReader } from '../codec/postings/postings-file.js';
import { PostingsIterator, SkipDataCache } from '../codec/postings/postings-reader.js';
import type { BlockBufferPool } from '../codec/postings/postings-reader.js';
import { TermInfoCache } from '../codec/term-dictionary/term-info-cache.js';
import type { TermInfo } from '../codec/postings/postings-reader.js';
import { StoredFieldsReader } from '../codec/stored-fields/stored-fields-reader.js';
import { TermDictionaryReader } from '../codec/term-dictionary/term-dictionary-reader.js';
import { VectorFieldReader } from '../vector/vector-field-reader.js';
import { WindowedFile } from './windowed-file.js';
import { sharedVectorCache } from '../vector/shared-block-cache.js';
import { SegmentComponent, componentFile, segmentComponents, vectorFieldFiles } from './segment-component.js';
import type { OptionalSegmentComponent } from './segment-component.js';
import type { FileInfo, SegmentInfo } from './segment-info.js';
import { ID_FIELD } from './segment-buffer.js';

/**
 * How much of a segment a reader loads. `full`: everything a search needs. `ids`: only the `_id`
 * terms (and, for segments that hold an id twice, the postings), for a writer that never searches
 * and only needs to find the older copy of an upserted id. `postings`, `storedFields`,
 * `docValues` and `vectors`: the parts one phase of a merge reads, so that a merge holds one
 * phase's inputs at a time.
 */
export const SegmentLoad = {
  full: 'full',
  ids: 'ids',
  postings: 'postings',
  storedFields: 'storedFields',
  docValues: 'docValues',
  vectors: 'vectors',
} as const;
export type SegmentLoad = (typeof SegmentLoad)[keyof typeof SegmentLoad];

/** The components each load reads in full. */
const COMPONENTS_OF: Readonly<Record<SegmentLoad, readonly SegmentComponent[]>> = {
  full: segmentComponents,
  ids: [],
  postings: [SegmentComponent.terms, SegmentComponent.postings, SegmentComponent.positions, SegmentComponent.norms],
  storedFields: [SegmentComponent.storedFields],
  docValues: [SegmentComponent.docValues],
  vectors: [],
};

/**
 * Components read by position when the directory can ({@link Directory.openRandomAccess}): only
 * their index is kept in memory, so a server's memory does not grow with them. Stored fields are
 * about half of an index on disk (45-55% for the benchmark corpora) and are read a block per hit;
 * postings and positions (most of the rest) a term at a time, through a pool of recently read
 * terms (postings-file.ts). A merge's postings load reads them by range in term order
 * ({@link STREAMED}), whatever the directory.
 */
const KEPT_ON_STORAGE: Readonly<Partial<Record<SegmentLoad, ReadonlySet<SegmentComponent>>>> = {
  full: new Set([SegmentComponent.storedFields, SegmentComponent.postings, SegmentComponent.positions]),
  storedFields: new Set([SegmentComponent.storedFields]),
};

/**
 * Components a load reads by range, a window at a time, in the order it uses them: a merge walks
 * every term of `.pst` and `.pos` once, so it holds a window of each rather than the whole files
 * (54-77 MB of inputs per merge thread before, the server's peak while pushing).
 */
const STREAMED: Readonly<Partial<Record<SegmentLoad, ReadonlySet<SegmentComponent>>>> = {
  postings: new Set([SegmentComponent.postings, SegmentComponent.positions]),
};

/**
 * Stored fields of a `storedFields` load on a directory that cannot read by position (a merge
 * thread's): read through a window by range ({@link WindowedFile}), the merge loading each block
 * before it copies its documents ({@link SegmentReader.loadStored}), rather than the whole file.
 */
const STREAMED_STORED = SegmentLoad.storedFields;

/** Bytes read at a time when a file kept on storage is checked at open. */
const VERIFY_CHUNK_BYTES = 1 << 20;

/**
 * Components whose decoder verifies every byte against the footer checksum before it reads
 * anything else (`openChecked` in codec/file-format.ts): {@link readForDecoder} leaves the CRC pass
 * to it rather than running it twice (issue 17: ~0.8 ms of `yarrow search`'s index open on 100k
 * docs, 3.7 MB checked twice).
 */
const DECODERS_VERIFY: ReadonlySet<SegmentComponent> = new Set([SegmentComponent.terms, SegmentComponent.norms, SegmentComponent.docValues]);

/** The decoded parts a reader may hold; which ones depends on its {@link SegmentLoad}. */
interface Parts {
  terms?: TermDictionaryReader;
  postingsBytes?: Uint8Array;
  positionsBytes?: Uint8Array;
  /** `.pst` and `.pos` read by position (instead of the bytes above). */
  postingsFile?: PostingsFile;
  /** The window a merge's stored fields are read through (see {@link STREAMED_STORED}). */
  storedWindow?: WindowedFile;
  /** `.pst` and `.pos` read in term order by range, for a merge (load `postings`). */
  postingsStream?: PostingsStream;
  norms?: ReadonlyMap<string, Uint8Array>;
  stored?: StoredFieldsReader;
  docValues?: DocValuesReader;
  /** Vector fields by name (loads `full` and `vectors`). */
  vectors?: ReadonlyMap<string, VectorFieldReader>;
  /** Optional components decoded on first use (see {@link SegmentReader.optional}). */
  optional?: Map<string, Promise<unknown>>;
  /** The files read by position (`.fdt`, `.pst`, `.pos`), closed with the segment's last hold. */
  handles: readonly RandomAccessFile[];
  /** Holds on the files: one per snapshot (and merge phase) that reads the segment; see {@link SegmentReader.retain}. */
  holds: number;
  /** Set once the last hold is released: the handles are closed and the reader may not be held again. */
  closed: boolean;
}

/** Read access to one segment; shared by every snapshot that contains the segment. */
export class SegmentReader {
  private ids: string[] | null = null;
  /** Frequent terms' skip data, decoded once for all queries (postings-reader.ts). */
  private readonly skipCache = new SkipDataCache();
  /** Recent term lookups of searches (term-info-cache.ts). */
  private readonly termInfos = new TermInfoCache((field, term) => this.terms.lookup(field, term));

  private constructor(
    private readonly dir: Directory,
    readonly info: SegmentInfo,
    /** What this reader loaded. */
    readonly load: SegmentLoad,
    private readonly parts: Parts,
    /** The `_id` terms: the whole dictionary of a full reader, only its `_id` section for `ids`. */
    private readonly idTerms: TermDictionaryReader | null,
    /** `.pst` bytes for ids with several docs; null when every id of the segment is a singleton. */
    private readonly idPostings: Uint8Array | null,
  ) {}

  /**
   * Opens a segment; `files` may supply bytes already in memory (a segment just flushed). Every
   * file read in full is verified against the manifest's size and CRC32, and so is every file kept
   * on storage (streamed through the CRC, see {@link KEPT_ON_STORAGE}); an `ids` reader reads one
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
      const inMemory = files?.get(name);
      if (inMemory !== undefined) return inMemory;
      const file = fileInfo(info, name);
      return DECODERS_VERIFY.has(component) ? readForDecoder(dir, file) : readVerified(dir, file);
    };
    if (load === SegmentLoad.ids) return SegmentReader.openIds(dir, info, files, read);
    const positional = dir.openRandomAccess === undefined ? null : (dir as PositionalDirectory);
    const streamed = STREAMED[load];
    const windowStored = positional === null && load === STREAMED_STORED && files === undefined;
    const wanted = COMPONENTS_OF[load].filter((c) => streamed?.has(c) !== true && !(windowStored && c === SegmentComponent.storedFields));
    const bytes = new Map<SegmentComponent, Uint8Array>();
    const handles = new Map<SegmentComponent, RandomAccessFile>();
    const fileOf = (c: SegmentComponent): string => componentFile(info.name, c);
    try {
      await Promise.all(wanted.map(async (c) => {
        if (positional !== null && KEPT_ON_STORAGE[load]?.has(c) === true) handles.set(c, await openVerified(positional, fileInfo(info, fileOf(c)), files?.get(fileOf(c))));
        else bytes.set(c, await read(c));
      }));
    } catch (e) {
      for (const handle of handles.values()) handle.close();
      throw e;
    }
    const parts: Parts = { handles: [...handles.values()], holds: 0, closed: false };
    const stored = handles.get(SegmentComponent.storedFields);
    const postings = handles.get(SegmentComponent.postings);
    const positions = handles.get(SegmentComponent.positions);
    try {
      if (stored !== undefined) parts.stored = StoredFieldsReader.openFile(stored, stored.name);
      if (postings !== undefined && positions !== undefined) parts.postingsFile = new PostingsFile(postings, positions);
    } catch (e) {
      for (const handle of handles.values()) handle.close();
      throw e;
    }
    for (const [component, data] of bytes) {
      switch (component) {
        case SegmentComponent.terms:
          parts.terms = TermDictionaryReader.open(data, fileOf(component));
          break;
        case SegmentComponent.postings:
          parts.postingsBytes = data;
          break;
        case SegmentComponent.positions:
          parts.positionsBytes = data;
          break;
        case SegmentComponent.norms:
          parts.norms = decodeNorms(data, fileOf(component));
          break;
        case SegmentComponent.storedFields:
          parts.stored = StoredFieldsReader.open(data, fileOf(component));
          break;
        case SegmentComponent.docValues:
          parts.docValues = decodeDocValues(data, fileOf(component));
          break;
      }
    }
    if (streamed !== undefined) parts.postingsStream = await openStream(dir, info, files);
    if (windowStored) {
      const file = fileInfo(info, fileOf(SegmentComponent.storedFields));
      const windowed = await openWindowed(dir, file);
      parts.stored = StoredFieldsReader.openFile(windowed, file.name);
      parts.storedWindow = windowed;
    }
    if (load === SegmentLoad.full || load === SegmentLoad.vectors) parts.vectors = await openVectorFields(dir, info);
    return new SegmentReader(dir, info, load, parts, parts.terms ?? null, parts.postingsBytes ?? null);
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
    // The footer ties the file to the manifest's record without reading it whole.
    const footer = await readRange(termsFile.size - FOOTER_LENGTH, FOOTER_LENGTH);
    checkFooterMagic(footer, termsFile.name);
    checkRecordedChecksum(termsFile, footerChecksum(footer, termsFile.name));
    const idTerms = await TermDictionaryReader.openField(readRange, termsFile.size, termsFile.name, ID_FIELD);
    // Segments written since ids are unique per segment have only singletons, inlined in the terms.
    const singletons = idTerms.termCount(ID_FIELD) === info.maxDoc || allSingletons(idTerms);
    return new SegmentReader(dir, info, SegmentLoad.ids, { handles: [], holds: 0, closed: false }, idTerms, singletons ? null : await read(SegmentComponent.postings));
  }

  /**
   * The same segment as a newer manifest records it (its live docs and deletion count change, its
   * files never do); the decoded parts are shared.
   */
  withInfo(info: SegmentInfo): SegmentReader {
    if (info.name !== this.info.name) throw new Error(`segment ${this.info.name} cannot take the info of ${info.name}`);
    const reader = new SegmentReader(this.dir, info, this.load, this.parts, this.idTerms, this.idPostings);
    reader.ids = this.ids;
    return reader;
  }

  /**
   * An optional component of the segment (one `open` never loads, e.g. suggestions), read and
   * verified on first use, decoded by `decode` and kept for every reader of the segment (whatever
   * its load); undefined when the segment has none. A failed read is not kept, so it is retried.
   */
  async optional<T>(component: OptionalSegmentComponent, decode: (bytes: Uint8Array, fileName: string) => T): Promise<T | undefined> {
    const name = componentFile(this.info.name, component);
    const file = this.info.files.find((f) => f.name === name);
    if (file === undefined) return undefined;
    const cache = (this.parts.optional ??= new Map());
    let part = cache.get(component) as Promise<T> | undefined;
    if (part === undefined) {
      part = readVerified(this.dir, file).then((bytes) => decode(bytes, name));
      cache.set(component, part);
      part.catch(() => cache.delete(component));
    }
    return part;
  }

  /**
   * Takes a hold on the segment's open files, shared by every reader of the segment
   * ({@link withInfo} included): each snapshot that contains the segment holds it for its life,
   * and a merge for each phase that reads it. The release of the last hold closes the files, so a
   * merged-away segment's disk space returns as soon as the last search on an older snapshot has
   * finished, not when the garbage collector gets to the handles; and no search can read through a
   * closed descriptor (whose number the process may have reused for another file), since a search
   * holds its snapshot for its whole duration. A reader never held is left to the handles'
   * finalizer (the writer's flushed segment before it is published, a merge result a rollback
   * made obsolete). Throws on a reader already closed: holding it again would be a bug.
   */
  retain(): this {
    if (this.parts.closed) throw new Error(`segment ${this.info.name}: its reader was closed (its last snapshot released) and cannot be held again`);
    this.parts.holds++;
    return this;
  }

  /** Drops a hold taken by {@link retain}; the last one closes the segment's files. */
  release(): void {
    const parts = this.parts;
    if (parts.holds <= 0) throw new Error(`segment ${this.info.name}: released more often than held`);
    if (--parts.holds > 0) return;
    parts.closed = true;
    for (const handle of parts.handles) handle.close();
    parts.storedWindow?.close();
  }

  /** Whether the last hold was released and the segment's files are closed. */
  get closed(): boolean {
    return this.parts.closed;
  }

  /** Whether this reader holds everything searches and merges need (see {@link SegmentLoad}). */
  get searchable(): boolean {
    return this.load === SegmentLoad.full;
  }

  /** The term dictionary. */
  get terms(): TermDictionaryReader {
    return this.parts.terms ?? this.missing('the term dictionary');
  }

  /** Whether `.pst` and `.pos` are read by position (then {@link postingsBytes} is not held). */
  get postingsOnStorage(): boolean {
    return this.parts.postingsFile !== undefined;
  }

  /**
   * How a merge reads this segment's postings, terms in order (see {@link MergePostings}): a window
   * at a time by range for a `postings` load or a reader that keeps them on storage, else the bytes
   * in memory.
   */
  mergePostings(): MergePostings {
    const { postingsStream, postingsFile } = this.parts;
    if (postingsStream !== undefined) return postingsStream;
    if (postingsFile !== undefined) return postingsFile.stream();
    return new InMemoryPostings(this.postingsBytes, this.positionsBytes);
  }

  /**
   * Reads what reading stored doc `docId` next needs when the stored fields are read through a
   * window (a merge's, see {@link STREAMED_STORED}); null when nothing is to be read.
   */
  loadStored(docId: number): Promise<void> | null {
    const window = this.parts.storedWindow;
    if (window === undefined) return null;
    const span = this.stored.blockSpan(docId);
    if (span === null || window.holds(span.start, span.length)) return null;
    return window.load(span.start, span.length);
  }

  /** Raw `.pst` bytes (for merges, which iterate postings directly). */
  get postingsBytes(): Uint8Array {
    return this.parts.postingsBytes ?? this.missing('postings');
  }

  /** Raw `.pos` bytes. */
  get positionsBytes(): Uint8Array {
    return this.parts.positionsBytes ?? this.missing('positions');
  }

  /** Stored documents. */
  get stored(): StoredFieldsReader {
    return this.parts.stored ?? this.missing('stored fields');
  }

  /** Doc values columns. */
  get docValues(): DocValuesReader {
    return this.parts.docValues ?? this.missing('doc values');
  }

  /** A vector field of the segment, or undefined when no doc of the segment has a vector in it. */
  vectorField(field: string): VectorFieldReader | undefined {
    return (this.parts.vectors ?? this.missing('vectors')).get(field);
  }

  get name(): string {
    return this.info.name;
  }

  get maxDoc(): number {
    return this.info.maxDoc;
  }

  /** Dictionary entry of a term, or undefined. */
  termInfo(field: string, term: string): TermInfo | undefined {
    return this.termInfos.get(field, term);
  }

  /**
   * A postings iterator over a term of a full-text field (freqs and positions); `buffers` lends it,
   * with its block buffers (see BlockBufferPool for how long the iterator may then be used).
   */
  postings(info: TermInfo, buffers: BlockBufferPool | null = null): PostingsIterator {
    const file = this.parts.postingsFile;
    if (file !== undefined) {
      // The term's bytes, read by position or pooled; it is its own skip data and positions source.
      const term = file.term(info);
      if (buffers !== null) return buffers.iterator(term.bytes, term, term.info, IndexOptions.docsFreqsPositions, term);
      return new PostingsIterator(term.bytes, term, term.info, IndexOptions.docsFreqsPositions, term);
    }
    if (buffers !== null) return buffers.iterator(this.postingsBytes, this.positionsBytes, info, IndexOptions.docsFreqsPositions, this.skipCache);
    return new PostingsIterator(this.postingsBytes, this.positionsBytes, info, IndexOptions.docsFreqsPositions, this.skipCache);
  }

  /** Norm bytes of a full-text field (one per doc), or undefined when no doc has the field. */
  fieldNorms(field: string): Uint8Array | undefined {
    return (this.parts.norms ?? this.missing('norms')).get(field);
  }

  /** Doc ids carrying the user id `id` (deleted ones may be included). */
  docsWithId(id: string): number[] {
    const info = (this.idTerms ?? this.missing('the _id terms')).lookup(ID_FIELD, id);
    if (info === undefined) return [];
    if (info.singletonDoc >= 0) return [info.singletonDoc];
    const it = this.idPostingsIterator(info);
    const docs: number[] = [];
    for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) docs.push(d);
    return docs;
  }

  /** Number of blocks of the segment's `_id` terms (see {@link visitIdUnits}). */
  get idBlocks(): number {
    return (this.idTerms ?? this.missing('the _id terms')).termBlocks(ID_FIELD);
  }

  /**
   * Calls `visit` with each `_id` of block `block` of the segment's ids (deleted docs' included) as
   * UTF-16 units in a reused buffer: what the writer's id filters (`commit/id-filter.ts`) are built from.
   */
  visitIdUnits(block: number, visit: (units: Uint16Array, length: number) => void): void {
    (this.idTerms ?? this.missing('the _id terms')).visitTermUnits(ID_FIELD, block, visit);
  }

  /**
   * The `_id` of a doc without touching stored fields. The id column is built from the `_id` terms
   * on first use and kept, so id-only hits cost no decompression.
   */
  idOf(doc: number): string {
    if (this.ids === null) {
      const ids = new Array<string>(this.maxDoc);
      for (const entry of (this.idTerms ?? this.missing('the _id terms')).terms(ID_FIELD)) {
        if (entry.singletonDoc >= 0) ids[entry.singletonDoc] = entry.term;
        else {
          const it = this.idPostingsIterator(entry);
          for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) ids[d] = entry.term;
        }
      }
      this.ids = ids;
    }
    return this.ids[doc];
  }

  private missing(part: string): never {
    throw new Error(`segment ${this.info.name} was opened with load "${this.load}", which does not hold ${part}`);
  }

  /** An iterator over the docs of an `_id` term that has several. */
  private idPostingsIterator(info: TermInfo): PostingsIterator {
    const file = this.parts.postingsFile;
    if (this.idPostings === null && file !== undefined) {
      const term = file.term(info, false);
      return new PostingsIterator(term.bytes, null, term.info, IndexOptions.docs);
    }
    return new PostingsIterator(this.idPostingsBytes(), null, info, IndexOptions.docs);
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

/**
 * Opens a segment's vector fields: every byte checked against the footer checksum (the footer
 * tied to the manifest's record first), then read by position through the process's shared
 * vector cache when the directory can read by position, loaded into memory otherwise.
 */
async function openVectorFields(dir: Directory, info: SegmentInfo): Promise<ReadonlyMap<string, VectorFieldReader>> {
  const fields = new Map<string, VectorFieldReader>();
  for (const [i, field] of (info.vectorFields ?? []).entries()) {
    const names = vectorFieldFiles(info.name, i);
    for (const name of [names.vectors, names.graph]) {
      const file = fileInfo(info, name);
      const footer = await dir.readRange(name, file.size - FOOTER_LENGTH, FOOTER_LENGTH);
      checkFooterMagic(footer, name);
      checkRecordedChecksum(file, footerChecksum(footer, name));
    }
    const reader = await VectorFieldReader.open(dir, names.vectors, names.graph, { cache: sharedVectorCache() });
    if (reader.dim !== field.dim) throw new YarrowError(ErrorCode.corruptIndex, `${names.vectors}: ${reader.dim} dimensions, the manifest records ${field.dim}`, { file: names.vectors });
    fields.set(field.field, reader);
  }
  return fields;
}

/**
 * Opens a segment's `.pst` and `.pos` for a merge's reads by range ({@link STREAMED}), each
 * checked against the manifest's record first, its CRC streamed a chunk at a time: corruption is
 * refused before the merge reads a term.
 */
async function openStream(dir: Directory, info: SegmentInfo, files: ReadonlyMap<string, Uint8Array> | undefined): Promise<PostingsStream> {
  const reader = (c: SegmentComponent): { file: FileInfo; read: RangeReader } => {
    const file = fileInfo(info, componentFile(info.name, c));
    const inMemory = files?.get(file.name);
    const read: RangeReader = inMemory === undefined
      ? (offset, length) => dir.readRange(file.name, offset, length)
      : (offset, length) => Promise.resolve(inMemory.subarray(offset, offset + length));
    return { file, read };
  };
  const postings = reader(SegmentComponent.postings);
  const positions = reader(SegmentComponent.positions);
  for (const { file, read } of [postings, positions]) checkRecordedChecksum(file, await streamChecksum(file.name, file.size, read));
  return PostingsStream.open(postings.read, postings.file.size, positions.read, positions.file.size);
}

/**
 * Opens a stored-fields file for reads through a window, its CRC streamed by range first; keeps
 * its header and block index (which the reader decodes at open anyway).
 */
async function openWindowed(dir: Directory, file: FileInfo): Promise<WindowedFile> {
  const read: RangeReader = (offset, length) => dir.readRange(file.name, offset, length);
  checkRecordedChecksum(file, await streamChecksum(file.name, file.size, read));
  const windowed = await WindowedFile.open(file.name, file.size, read, HEADER_LENGTH, FOOTER_LENGTH + 8);
  const trailer = new Uint8Array(8);
  windowed.read(trailer, file.size - FOOTER_LENGTH - 8);
  const indexOffset = new DataView(trailer.buffer).getFloat64(0, true);
  // A bad offset is refused by the reader's own check; only a plausible one is kept.
  if (Number.isInteger(indexOffset) && indexOffset >= HEADER_LENGTH && indexOffset < file.size) await windowed.keepFrom(indexOffset);
  return windowed;
}

/** A directory that reads files by position. */
type PositionalDirectory = Directory & Required<Pick<Directory, 'openRandomAccess'>>;

/**
 * Opens a file for positional reads and checks it against the manifest's record as
 * {@link readVerified} does, without keeping its bytes: the file is streamed through the CRC a
 * chunk at a time (yielding to the event loop between chunks), or, when `inMemory` holds the bytes
 * just written (a flush, a merge), those are checked and the file's size compared.
 */
async function openVerified(dir: PositionalDirectory, file: FileInfo, inMemory: Uint8Array | undefined): Promise<RandomAccessFile> {
  const handle = await dir.openRandomAccess(file.name);
  try {
    if (handle.size !== file.size) {
      throw new YarrowError(ErrorCode.corruptIndex, `${file.name}: expected ${file.size} bytes, found ${handle.size}`, { file: file.name });
    }
    if (inMemory !== undefined) {
      if (inMemory.length !== file.size) throw new YarrowError(ErrorCode.corruptIndex, `${file.name}: expected ${file.size} bytes, found ${inMemory.length}`, { file: file.name });
      verifyChecksum(inMemory, file.name);
      checkRecordedChecksum(file, footerChecksum(inMemory, file.name));
    } else {
      checkRecordedChecksum(file, await streamChecksum(handle.name, handle.size, chunksOf(handle)));
    }
    return handle;
  } catch (e) {
    handle.close();
    throw e;
  }
}

/**
 * Verifies a file the way {@link verifyChecksum} verifies one in memory (footer magic, then the
 * CRC-32 of every byte before the checksum), reading `read(offset, length)` one chunk at a time
 * and yielding to the event loop between chunks; returns the footer's checksum.
 */
async function streamChecksum(name: string, size: number, read: ChunkRead): Promise<number> {
  if (size < HEADER_LENGTH + FOOTER_LENGTH) {
    throw new YarrowError(ErrorCode.corruptIndex, `${name}: ${size} bytes is too short for an index file (truncated?)`, { source: name });
  }
  const footer = await read(size - FOOTER_LENGTH, FOOTER_LENGTH);
  if (footer.length !== FOOTER_LENGTH) throw shortRead(name);
  checkFooterMagic(footer, name);
  const stored = footerChecksum(footer, name);
  const covered = size - 4;
  let crc = 0;
  for (let pos = 0; pos < covered;) {
    const part = await read(pos, Math.min(VERIFY_CHUNK_BYTES, covered - pos));
    if (part.length === 0) throw shortRead(name);
    crc = crc32(part, crc);
    pos += part.length;
    // A large merged segment takes tens of milliseconds to check: let searches run meanwhile.
    if (pos < covered) await yieldToEventLoop();
  }
  if (stored !== crc >>> 0) {
    throw new YarrowError(ErrorCode.corruptIndex, `${name}: checksum mismatch (stored ${hex(stored)}, computed ${hex(crc >>> 0)})`, {
      source: name,
      expected: hex(stored),
      actual: hex(crc >>> 0),
    });
  }
  return stored;
}

/** Reads up to `length` bytes from `offset` (fewer only at the end of the file). */
type ChunkRead = (offset: number, length: number) => Uint8Array | Promise<Uint8Array>;

/** {@link ChunkRead} of a file read by position, through one reused buffer of {@link VERIFY_CHUNK_BYTES}. */
function chunksOf(handle: RandomAccessFile): ChunkRead {
  const chunk = new Uint8Array(Math.min(VERIFY_CHUNK_BYTES, handle.size));
  return (offset, length) => {
    const part = chunk.subarray(0, length);
    return part.subarray(0, handle.read(part, offset));
  };
}

function shortRead(name: string): YarrowError {
  return new YarrowError(ErrorCode.corruptIndex, `${name}: the file ended early (truncated while open?)`, { source: name });
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

/**
 * Reads a file and checks it against the manifest's record: its size, its footer checksum (the
 * content is intact) and that checksum against the one the manifest recorded (it is the file the
 * manifest means, not another intact file under its name).
 */
export async function readVerified(dir: Directory, file: FileInfo): Promise<Uint8Array> {
  const bytes = await readSized(dir, file);
  verifyChecksum(bytes, file.name);
  checkRecordedChecksum(file, footerChecksum(bytes, file.name));
  return bytes;
}

/**
 * Reads a file for a decoder that verifies every byte itself ({@link DECODERS_VERIFY}): checks
 * its size and ties its footer to the manifest's record, running the CRC pass here only when the
 * footer differs from the record, so that every damaged file is refused with the error
 * {@link readVerified} gives (a flipped byte: `checksum mismatch`, from the decoder; another intact
 * file under the name: `content checksum ... differs`), with one CRC pass on an intact file.
 */
async function readForDecoder(dir: Directory, file: FileInfo): Promise<Uint8Array> {
  const bytes = await readSized(dir, file);
  const footer = footerChecksum(bytes, file.name);
  if (file.crc32 !== null && footer !== file.crc32) {
    verifyChecksum(bytes, file.name);
    checkRecordedChecksum(file, footer);
  }
  return bytes;
}

/**
 * Reads a file whole, refusing one whose size is not the manifest's. Through the directory's
 * asynchronous read: reading the small files of a 100k-doc index with one synchronous positional
 * read each instead (measured in h20-sstart) saved CPU of the libuv pool but moved the copies onto
 * the event loop, and with them the scavenge V8 runs while the loop waits for the reads, so a
 * `yarrow search` start was no faster to its first answer.
 */
async function readSized(dir: Directory, file: FileInfo): Promise<Uint8Array> {
  const bytes = await dir.readFile(file.name);
  if (bytes.length !== file.size) {
    throw new YarrowError(ErrorCode.corruptIndex, `${file.name}: expected ${file.size} bytes, found ${bytes.length}`, { file: file.name });
  }
  return bytes;
}

/** Throws `corrupt_index` when a file's footer checksum is not the one the manifest recorded. */
export function checkRecordedChecksum(file: FileInfo, footer: number): void {
  if (file.crc32 !== null && footer !== file.crc32) {
    throw new YarrowError(
      ErrorCode.corruptIndex,
      `${file.name}: content checksum ${hex(footer)} differs from the ${hex(file.crc32)} the manifest records (another file under this name?)`,
      { file: file.name, expected: hex(file.crc32), actual: hex(footer) },
    );
  }
}

function hex(v: number): string {
  return `0x${v.toString(16).padStart(8, '0')}`;
}
