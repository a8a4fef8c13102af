/**
 * The one registry of index file kinds: every file an index location may hold, with its name
 * pattern, its codec (magic and version for binary files) and how long it lives. Storage (local,
 * S3), recovery, garbage collection and shipping ask this module instead of spelling names, so a
 * new kind (vectors, HNSW graphs) is added here once and every layer knows what it is.
 *
 * | kind          | name                          | codec                     | lifetime        |
 * |---------------|-------------------------------|---------------------------|-----------------|
 * | lock          | `write.lock`                  | JSON lock record          | stays           |
 * | lockClaim     | `write.lock.claim-<hex>`      | JSON lock record          | transient       |
 * | lockTemp      | `write.lock.tmp-<id>`         | JSON lock record          | transient       |
 * | manifest      | `index.json`                  | JSON, `formatVersion`     | replaced        |
 * | manifestTemp  | `index.json.tmp`              | JSON, `formatVersion`     | transient       |
 * | wal           | `wal-<10 digits>.log`         | `Ywal` v3 + CRC'd records | until committed |
 * | terms … docValues | `seg-<id>.<ext>`          | see {@link SegmentComponent} | immutable    |
 * | liveDocs      | `seg-<id>_<gen>.liv`          | `Yliv` v1                 | immutable       |
 * | suggestions   | `seg-<id>.sgt` (optional)     | `Ysgt` v1                 | immutable       |
 * | vectors       | `seg-<id>.<n>.vec`            | `Yvec` v1                 | immutable       |
 * | hnsw          | `seg-<id>.<n>.hnsw`           | `Yhnw` v1                 | immutable       |
 *
 * `<n>` numbers a segment's vector fields (`SegmentInfo.vectorFields`), see `vectorFieldFiles`.
 * The stored fields (`Yfdt`) are version 2 since their LZ4-class codec; their reader still opens version 1.
 */
import { DOC_VALUES_MAGIC, DOC_VALUES_VERSION } from './codec/doc-values/doc-values-writer.js';
import { LIVE_DOCS_MAGIC, LIVE_DOCS_VERSION } from './codec/live-docs/live-docs.js';
import { NORMS_MAGIC, NORMS_VERSION } from './codec/norms/norms-writer.js';
import { POSITIONS_MAGIC, POSTINGS_MAGIC, POSTINGS_VERSION } from './codec/postings/postings-format.js';
import { STORED_FIELDS_MAGIC, STORED_FIELDS_VERSION } from './codec/stored-fields/stored-fields-writer.js';
import { SUGGESTIONS_MAGIC, SUGGESTIONS_VERSION } from './codec/suggestions/suggestions-writer.js';
import { TERM_DICTIONARY_MAGIC, TERM_DICTIONARY_VERSION } from './codec/term-dictionary/term-dictionary-writer.js';
import { OptionalSegmentComponent, SegmentComponent } from './segment/segment-component.js';
import { VECTORS_MAGIC, VECTORS_VERSION } from './vector/codec/vectors-file.js';
import { HNSW_MAGIC, HNSW_VERSION } from './vector/codec/hnsw-graph-file.js';

/**
 * How long a file lives, which decides who may delete it and whether a copy may be cached:
 * - `stays`: kept for the index's lifetime (the lock);
 * - `replaced`: rewritten in place by an atomic rename (the manifest): never cache;
 * - `transient`: a temporary of a rename or a claim; never cache;
 * - `log`: append-only, deleted once a commit covers it; local to the writer, never shipped;
 * - `immutable`: written once, referenced by manifests, deleted once no manifest or reader uses it.
 */
export type FileLifetime = 'stays' | 'replaced' | 'transient' | 'log' | 'immutable';

/** One kind of file an index location may hold. */
export interface IndexFileKind {
  /** Registry key. */
  readonly kind: string;
  /** Name pattern for people (docs, errors). */
  readonly pattern: string;
  /** Whether `name` is a file of this kind. */
  readonly regex: RegExp;
  /** The codec: magic and version of the file header, or null for a JSON file. */
  readonly magic: string | null;
  readonly version: number | null;
  /** What the content is, in a few words. */
  readonly codec: string;
  readonly lifetime: FileLifetime;
  /** Reserved for a feature not written yet: recognised (never mistaken for foreign), never produced. */
  readonly reserved?: true;
}

const SEGMENT = 'seg-[0-9a-z]{6,}';

function kind(k: Omit<IndexFileKind, 'regex'> & { readonly regex: string }): IndexFileKind {
  return { ...k, regex: new RegExp(`^${k.regex}$`) };
}

function component(key: string, ext: string, magic: string, version: number, codec: string): IndexFileKind {
  return kind({ kind: key, pattern: `seg-<id>.${ext}`, regex: `${SEGMENT}\\.${ext}`, magic, version, codec, lifetime: 'immutable' });
}

/** Magic and version of write-ahead log files (see `commit/write-ahead-log.ts`). */
export const WAL_MAGIC = 'Ywal';
export const WAL_VERSION = 3;

/** The registry: every file kind an index location may hold. */
export const IndexFiles = {
  lock: kind({ kind: 'lock', pattern: 'write.lock', regex: 'write\\.lock', magic: null, version: null, codec: 'JSON lock record: holder (pid, host, since) or released', lifetime: 'stays' }),
  lockClaim: kind({ kind: 'lockClaim', pattern: 'write.lock.claim-<hex>', regex: 'write\\.lock\\.claim-[0-9a-f]+', magic: null, version: null, codec: 'JSON lock record of a process taking over a lock record', lifetime: 'transient' }),
  lockTemp: kind({ kind: 'lockTemp', pattern: 'write.lock.tmp-<id>', regex: 'write\\.lock\\.tmp-[0-9a-z-]+', magic: null, version: null, codec: 'JSON lock record before it is linked into place', lifetime: 'transient' }),
  manifest: kind({ kind: 'manifest', pattern: 'index.json', regex: 'index\\.json', magic: null, version: null, codec: 'JSON manifest with formatVersion', lifetime: 'replaced' }),
  manifestTemp: kind({ kind: 'manifestTemp', pattern: 'index.json.tmp', regex: 'index\\.json\\.tmp', magic: null, version: null, codec: 'the next manifest before its rename', lifetime: 'transient' }),
  wal: kind({ kind: 'wal', pattern: 'wal-<generation, 10 digits>.log', regex: 'wal-\\d{10}\\.log', magic: WAL_MAGIC, version: WAL_VERSION, codec: 'header, then length + CRC-32 framed JSON records with binary vectors', lifetime: 'log' }),
  terms: component('terms', SegmentComponent.terms, TERM_DICTIONARY_MAGIC, TERM_DICTIONARY_VERSION, 'term dictionary with its sparse block index'),
  postings: component('postings', SegmentComponent.postings, POSTINGS_MAGIC, POSTINGS_VERSION, 'doc ids and frequencies in blocks of 128'),
  positions: component('positions', SegmentComponent.positions, POSITIONS_MAGIC, POSTINGS_VERSION, 'term positions'),
  norms: component('norms', SegmentComponent.norms, NORMS_MAGIC, NORMS_VERSION, 'one byte per doc and text field'),
  storedFields: component('storedFields', SegmentComponent.storedFields, STORED_FIELDS_MAGIC, STORED_FIELDS_VERSION, 'stored documents in LZ4-class compressed blocks (version 1, zlib blocks, is still read)'),
  docValues: component('docValues', SegmentComponent.docValues, DOC_VALUES_MAGIC, DOC_VALUES_VERSION, 'numeric and keyword columns'),
  liveDocs: kind({ kind: 'liveDocs', pattern: 'seg-<id>_<generation>.liv', regex: `${SEGMENT}_\\d+\\.liv`, magic: LIVE_DOCS_MAGIC, version: LIVE_DOCS_VERSION, codec: 'deletion bitset of a segment', lifetime: 'immutable' }),
  suggestions: component('suggestions', OptionalSegmentComponent.suggestions, SUGGESTIONS_MAGIC, SUGGESTIONS_VERSION, 'completion candidates of suggest fields, with their docs'),
  vectors: kind({ kind: 'vectors', pattern: 'seg-<id>.<n>.vec', regex: `${SEGMENT}\\.\\d+\\.vec`, magic: VECTORS_MAGIC, version: VECTORS_VERSION, codec: 'vectors of one field of a segment (float32, or int8 + scale) and their docIds', lifetime: 'immutable' }),
  hnsw: kind({ kind: 'hnsw', pattern: 'seg-<id>.<n>.hnsw', regex: `${SEGMENT}\\.\\d+\\.hnsw`, magic: HNSW_MAGIC, version: HNSW_VERSION, codec: 'HNSW graph over the vectors of one field of a segment', lifetime: 'immutable' }),
} as const satisfies Record<string, IndexFileKind>;

/** The lock file's name (it stays for the index's lifetime). */
export const LOCK_FILE = 'write.lock';
/** The manifest's name. */
export const MANIFEST_FILE = 'index.json';
/** The next manifest, before its atomic rename over {@link MANIFEST_FILE}. */
export const MANIFEST_TEMP_FILE = 'index.json.tmp';

/** Name of the claim a process creates to take over the lock record whose content hashes to `hex`. */
export function lockClaimFile(lock: string, hex: string): string {
  return `${lock}.claim-${hex}`;
}

/** Name of a lock record written before it is linked or renamed into place. */
export function lockTempFile(lock: string, id: string): string {
  return `${lock}.tmp-${id}`;
}

/** Every registered kind, in the order of {@link IndexFiles}. */
export const indexFileKinds: readonly IndexFileKind[] = Object.values(IndexFiles);

/** The kind of a file name, or undefined for a name no index writes (a foreign file). */
export function fileKindOf(name: string): IndexFileKind | undefined {
  return indexFileKinds.find((k) => k.regex.test(name));
}

/** Whether a file is rewritten in place or transient, so a copy must never be cached (S3). */
export function isMutableFile(name: string): boolean {
  const k = fileKindOf(name);
  return k === undefined || k.lifetime === 'replaced' || k.lifetime === 'transient' || k.lifetime === 'stays';
}

/** Whether a file holds index data (segments, live docs, logs): deleting it is logged at info. */
export function isDataFile(name: string): boolean {
  const k = fileKindOf(name);
  return k !== undefined && (k.lifetime === 'immutable' || k.lifetime === 'log');
}

/** Name of the write-ahead log file of a generation. */
export function walFile(generation: number): string {
  return `wal-${String(generation).padStart(10, '0')}.log`;
}

/** The generation of a write-ahead log file name; undefined for other files. */
export function walGenerationOf(name: string): number | undefined {
  return IndexFiles.wal.regex.test(name) ? Number(name.slice(4, 14)) : undefined;
}

/** File name of a segment's live docs at a deletion generation. */
export function liveDocsFile(segment: string, generation: number): string {
  return `${segment}_${generation}.liv`;
}

/** The deletion generation of a live docs file name (0 for anything else). */
export function liveDocsGenerationOf(name: string): number {
  const m = /_(\d+)\.liv$/.exec(name);
  return m === null ? 0 : Number(m[1]);
}

/** The segment a segment file (component or live docs) belongs to; undefined for other files. */
export function segmentOf(name: string): string | undefined {
  const k = fileKindOf(name);
  if (k === undefined || k.lifetime !== 'immutable') return undefined;
  return /^seg-[0-9a-z]+/.exec(name)?.[0];
}
