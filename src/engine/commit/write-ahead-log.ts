/**
 * The write-ahead log, append side: every acknowledged batch of operations is appended here and
 * made durable (fsync, shared by concurrent batches: group commit) before the write call resolves;
 * `wal-replay.ts` reads it back on open for everything the last commit does not cover.
 *
 * Files `wal-<generation>.log` (see `engine/index-files.ts`); a commit rotates to a new generation
 * and records it in the manifest, after which older generations are deleted. Layout (version 3):
 * ```
 * header     4 bytes magic "Ywal", uint32 LE format version (3)
 * record*    uint32 LE payload length
 *            uint32 LE CRC-32 of the payload
 *            payload   UTF-8 JSON: {"ops":[{"u":{"i":<id>,"v":{<field>:[values]},"s":<stored>},"x":{<field>:[<byte offset>,<dim>]}} | {"d":"<id>"}, ...]}
 *                      optionally with ,"file":"<token>" (a batch of a source file), or the record
 *                      {"ops":[],"fileEnd":"<token>"} (that file was read to its end)
 *                      then the vectors: float32 LE, at the byte offsets "x" gives (from the end of the JSON)
 *                      then uint32 LE byte length of the JSON
 * ```
 * An upsert is logged in its validated form (normalised field values, stored fields and its
 * vectors as binary floats, bit-exact and never embedded again), so a replay never validates or
 * embeds again. A batch tagged with a source file is replayed only if the file's end is logged too
 * (`wal-replay.ts`): `index file` stays all-or-nothing per file under SIGKILL. Version 2 files (no
 * vectors, no file tags, no trailing length) and version 1 files (no header, `{"u":<raw document>}`)
 * are still read.
 */
import { crc32 } from '../codec/file-format.js';
import type { Appender, Directory } from '../directory.js';
import { TimeSlicer } from '../event-loop.js';
import { WAL_MAGIC, WAL_VERSION, walFile, walGenerationOf } from '../index-files.js';
import type { ValidDocument } from '../schema/document.js';

export { walFile, walGenerationOf };

/**
 * One operation to log; an upsert carries its validated document already serialised as JSON text,
 * and its vectors, logged as binary floats.
 */
export type WalEntry = { readonly uJson: string; readonly vectors?: ReadonlyMap<string, Float32Array> } | { readonly d: string };

/** Bytes of a record's frame (length + CRC). */
export const RECORD_FRAME = 8;
/** Bytes of the file header (magic + version). */
export const WAL_HEADER_LENGTH = 8;

/** The file header of version {@link WAL_VERSION}. */
export function walHeader(): Uint8Array {
  const header = new Uint8Array(WAL_HEADER_LENGTH);
  for (let i = 0; i < 4; i++) header[i] = WAL_MAGIC.charCodeAt(i);
  new DataView(header.buffer).setUint32(4, WAL_VERSION, true);
  return header;
}

/** Builds one framed record entry by entry (see the layout above). */
class RecordEncoder {
  private readonly encoder = new TextEncoder();
  private readonly chunks: Uint8Array[] = [];
  private jsonLength = 0;
  private readonly vectors: Float32Array[] = [];
  private vectorBytes = 0;
  private count = 0;

  constructor() {
    this.text('{"ops":[');
  }

  add(e: WalEntry): void {
    let op: string;
    if (!('uJson' in e)) op = JSON.stringify(e);
    else if (e.vectors === undefined || e.vectors.size === 0) op = `{"u":${e.uJson}}`;
    else {
      let refs = '';
      for (const [field, v] of e.vectors) {
        refs += `${refs === '' ? '' : ','}${JSON.stringify(field)}:[${this.vectorBytes},${v.length}]`;
        this.vectors.push(v);
        this.vectorBytes += v.byteLength;
      }
      op = `{"u":${e.uJson},"x":{${refs}}}`;
    }
    this.text(this.count++ === 0 ? op : `,${op}`);
  }

  /** The record; `tail` is the JSON after the ops array (`,"file":"…"`, `,"fileEnd":"…"`) or empty. */
  finish(tail: string): Uint8Array {
    this.text(`]${tail}}`);
    const payloadLength = this.jsonLength + this.vectorBytes + 4;
    const record = new Uint8Array(RECORD_FRAME + payloadLength);
    let at = RECORD_FRAME;
    for (const chunk of this.chunks) {
      record.set(chunk, at);
      at += chunk.length;
    }
    for (const v of this.vectors) {
      record.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), at);
      at += v.byteLength;
    }
    const view = new DataView(record.buffer);
    view.setUint32(at, this.jsonLength, true);
    view.setUint32(0, payloadLength, true);
    view.setUint32(4, crc32(record.subarray(RECORD_FRAME)), true);
    return record;
  }

  private text(s: string): void {
    const chunk = this.encoder.encode(s);
    this.chunks.push(chunk);
    this.jsonLength += chunk.length;
  }
}

const fileTail = (file: string | undefined): string => (file === undefined ? '' : `,"file":${JSON.stringify(file)}`);

/**
 * One record (frame and payload) for `entries`, tagged with the source `file` when given. The
 * payload is `record.subarray(RECORD_FRAME)`: the writer hands those bytes to an inversion thread
 * as well, so a thread receives a batch in exactly the form a replay reads it back
 * (`decodeWalPayload`), and whatever the log learns to carry per document reaches the thread.
 */
export function encodeWalRecord(entries: readonly WalEntry[], file?: string): Uint8Array {
  const encoder = new RecordEncoder();
  for (const e of entries) encoder.add(e);
  return encoder.finish(fileTail(file));
}

/**
 * {@link encodeWalRecord}, giving the event loop a turn once a time slice is used up. A batch is
 * one record (all or nothing), and the record of an 8 MB `_index` body took tens of milliseconds
 * to join and encode in one go, during which no search was answered (issue 17: latency while
 * indexing). The caller holds the writer's mutex, so nothing else appends meanwhile.
 */
export async function encodeWalRecordSliced(entries: readonly WalEntry[], file?: string): Promise<Uint8Array> {
  const encoder = new RecordEncoder();
  const slicer = new TimeSlicer();
  for (const e of entries) {
    encoder.add(e);
    if (slicer.due()) await slicer.yield();
  }
  return encoder.finish(fileTail(file));
}

/** The logged form of a validated upsert: id, normalised values and the stored fields' JSON. */
export function walUpsertJson(doc: ValidDocument, id: string, storedJson: string): string {
  // Built as text, without an intermediate object: this runs once per indexed document.
  let values = '';
  for (const [field, list] of doc.values) {
    if (list.length === 0) continue;
    values += `${values === '' ? '' : ','}${JSON.stringify(field)}:${JSON.stringify(list)}`;
  }
  return `{"i":${JSON.stringify(id)},"v":{${values}},"s":${storedJson}}`;
}

/**
 * Appends, syncs (grouped) and rotates the log. A generation's file is created by its first
 * append, not when the log is opened or rotated: a bulk load (`bulk-load.ts`) logs nothing, and
 * creating, syncing and deleting an empty file per commit cost `index file` several file system
 * round trips at its start and its end (issue 17). A generation without a file holds nothing, and
 * replay reads the files there are (`wal-replay.ts`); the manifest still names the generation
 * the next batch goes to, so generations stay consecutive.
 */
export class WriteAheadLog {
  /** Logical offset (over all generations) up to which the log is durable. */
  private syncedTo = 0;
  /** Logical offset at which the current generation's file starts. */
  private base = 0;
  private syncing: Promise<void> | null = null;
  /** The current generation's file, null until its first append. */
  private appender: Appender | null = null;
  /** Its creation, while under way. */
  private opening: Promise<Appender> | null = null;

  private constructor(
    private readonly dir: Directory,
    private gen: number,
  ) {}

  /** Opens generation `generation` for appending; its file is created (with its header) by the first append. */
  static open(dir: Directory, generation: number): Promise<WriteAheadLog> {
    return Promise.resolve(new WriteAheadLog(dir, generation));
  }

  /** The generation being appended to. */
  get generation(): number {
    return this.gen;
  }

  /** Bytes of records in the current generation (the header not counted). */
  get size(): number {
    return this.appender === null ? 0 : Math.max(0, this.appender.size - WAL_HEADER_LENGTH);
  }

  /** Logical offset of the end of what was appended. */
  private get end(): number {
    return this.base + (this.appender?.size ?? 0);
  }

  /**
   * Appends a record (not yet durable); returns the logical offset to pass to {@link syncTo}.
   * `file` tags the batch with the source file it belongs to (see {@link appendFileEnd}).
   */
  async append(entries: readonly WalEntry[], file?: string): Promise<number> {
    return this.appendRecord(await encodeWalRecordSliced(entries, file));
  }

  /** Appends the record saying the source file `file` was read to its end (not yet durable). */
  async appendFileEnd(file: string): Promise<number> {
    return this.appendRecord(new RecordEncoder().finish(`,"fileEnd":${JSON.stringify(file)}`));
  }

  /** Appends a record made by {@link encodeWalRecord}; returns the offset to pass to {@link syncTo}. */
  async appendRecord(record: Uint8Array): Promise<number> {
    const appender = await this.file();
    await appender.append(record);
    return this.end;
  }

  /**
   * Appends a record of `length` bytes that another thread holds (not yet durable); returns the
   * offset to pass to {@link syncTo}. `take(file)` is called once this log's earlier appends are
   * done: given the current generation's file name, it appends the record to that file itself and
   * resolves null; given null (this log's file cannot be appended to from elsewhere: not a local
   * file), or when it cannot, it resolves with the record's bytes, which this log appends.
   *
   * Why: the writer's inversion thread builds an `_index` body's record (about twice the body:
   * ~20 MB for 8 MB) and, given the directory's files, now appends it at its own idle priority.
   * Handed to this thread and written by libuv's pool, each record was copied into the page cache
   * at normal priority, beside the event loop, and its buffer counted against the event loop's
   * young generation, where V8 starts a scavenge per 32 MB of new array buffers: about one per
   * body, 3-7 ms each (issue 17: search p99 while `api` indexes).
   */
  async appendFrom(length: number, take: (file: string | null) => Promise<Uint8Array | null>): Promise<number> {
    const appender = await this.file();
    if (appender.appendFrom === undefined) {
      const record = await take(null);
      if (record === null) throw new Error('the write-ahead log record was not handed over');
      await appender.append(record);
    } else {
      const file = walFile(this.gen);
      await appender.appendFrom(length, () => take(file));
    }
    return this.end;
  }

  /** Resolves once every byte up to `offset` is durable; concurrent callers share one fsync. */
  async syncTo(offset: number): Promise<void> {
    while (this.syncedTo < offset) {
      if (this.syncing !== null) {
        await this.syncing;
        continue;
      }
      const appender = this.appender;
      const target = this.end;
      if (appender === null) {
        // Nothing appended to this generation: everything before it was synced by the rotation.
        this.syncedTo = Math.max(this.syncedTo, target);
        return;
      }
      this.syncing = appender.sync().then(
        () => {
          if (target > this.syncedTo) this.syncedTo = target;
          this.syncing = null;
        },
        (e: unknown) => {
          this.syncing = null;
          throw e;
        },
      );
      await this.syncing;
    }
  }

  /** Makes the current generation durable, then continues in `generation` (whose file its first append creates). */
  async rotate(generation: number): Promise<void> {
    if (this.opening !== null) await this.opening;
    const end = this.end;
    await this.syncTo(end);
    await this.appender?.close();
    this.appender = null;
    this.gen = generation;
    this.base = end;
  }

  async close(): Promise<void> {
    if (this.opening !== null) await this.opening;
    await this.syncTo(this.end);
    await this.appender?.close();
  }

  /** The current generation's file, created with its header on first use. */
  private async file(): Promise<Appender> {
    if (this.appender !== null) return this.appender;
    this.opening ??= openWithHeader(this.dir, this.gen).then((appender) => {
      // The header is not part of the logical log: offsets continue from the previous generation's end.
      this.base -= appender.size;
      this.appender = appender;
      return appender;
    }).finally(() => { this.opening = null; });
    return this.opening;
  }
}

async function openWithHeader(dir: Directory, generation: number): Promise<Appender> {
  const appender = await dir.openAppender(walFile(generation));
  if (appender.size === 0) await appender.append(walHeader());
  return appender;
}
