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
 *                      then the vectors: float32 LE, at the byte offsets "x" gives (from the end of the JSON)
 *                      then uint32 LE byte length of the JSON
 * ```
 * An upsert is logged in its validated form (normalised field values, stored fields and its
 * vectors as binary floats, bit-exact and never embedded again), so a replay never validates or
 * embeds again. Version 2 files (the same without vectors and the trailing length) and version 1
 * files (no header, `{"u":<raw document>}`) are still read.
 */
import { crc32 } from '../codec/file-format.js';
import type { Appender, Directory } from '../directory.js';
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

/** Appends, syncs (grouped) and rotates the log. */
export class WriteAheadLog {
  /** Logical offset (over all generations) up to which the log is durable. */
  private syncedTo = 0;
  /** Logical offset at which the current generation's file starts. */
  private base = 0;
  private syncing: Promise<void> | null = null;

  private constructor(
    private readonly dir: Directory,
    private appender: Appender,
    private gen: number,
  ) {
    this.base = -appender.size;
  }

  /** Opens generation `generation` for appending, writing its header when the file is new. */
  static async open(dir: Directory, generation: number): Promise<WriteAheadLog> {
    return new WriteAheadLog(dir, await openWithHeader(dir, generation), generation);
  }

  /** The generation being appended to. */
  get generation(): number {
    return this.gen;
  }

  /** Bytes of records in the current generation (the header not counted). */
  get size(): number {
    return Math.max(0, this.appender.size - WAL_HEADER_LENGTH);
  }

  /** Appends a record (not yet durable); returns the logical offset to pass to {@link syncTo}. */
  async append(entries: readonly WalEntry[]): Promise<number> {
    const vectors: Float32Array[] = [];
    let vectorBytes = 0;
    const parts = entries.map((e) => {
      if (!('uJson' in e)) return JSON.stringify(e);
      if (e.vectors === undefined || e.vectors.size === 0) return `{"u":${e.uJson}}`;
      let refs = '';
      for (const [field, v] of e.vectors) {
        refs += `${refs === '' ? '' : ','}${JSON.stringify(field)}:[${vectorBytes},${v.length}]`;
        vectors.push(v);
        vectorBytes += v.byteLength;
      }
      return `{"u":${e.uJson},"x":{${refs}}}`;
    });
    const json = new TextEncoder().encode(`{"ops":[${parts.join(',')}]}`);
    const payload = new Uint8Array(json.length + vectorBytes + 4);
    payload.set(json, 0);
    let at = json.length;
    for (const v of vectors) {
      payload.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), at);
      at += v.byteLength;
    }
    new DataView(payload.buffer).setUint32(at, json.length, true);
    const record = new Uint8Array(RECORD_FRAME + payload.length);
    const view = new DataView(record.buffer);
    view.setUint32(0, payload.length, true);
    view.setUint32(4, crc32(payload), true);
    record.set(payload, RECORD_FRAME);
    await this.appender.append(record);
    return this.base + this.appender.size;
  }

  /** Resolves once every byte up to `offset` is durable; concurrent callers share one fsync. */
  async syncTo(offset: number): Promise<void> {
    while (this.syncedTo < offset) {
      if (this.syncing !== null) {
        await this.syncing;
        continue;
      }
      const target = this.base + this.appender.size;
      const appender = this.appender;
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

  /** Makes the current generation durable, then continues in `generation`. */
  async rotate(generation: number): Promise<void> {
    const end = this.base + this.appender.size;
    await this.syncTo(end);
    const next = await openWithHeader(this.dir, generation);
    await this.appender.close();
    this.appender = next;
    this.gen = generation;
    this.base = end - next.size;
  }

  async close(): Promise<void> {
    await this.syncTo(this.base + this.appender.size);
    await this.appender.close();
  }
}

async function openWithHeader(dir: Directory, generation: number): Promise<Appender> {
  const appender = await dir.openAppender(walFile(generation));
  if (appender.size === 0) await appender.append(walHeader());
  return appender;
}
