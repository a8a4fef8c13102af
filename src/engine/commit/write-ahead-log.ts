/**
 * The write-ahead log: every acknowledged batch of operations is appended here and made durable
 * (fsync, shared by concurrent batches: group commit) before the write call resolves, and replayed
 * on open for everything the last commit does not cover.
 *
 * Files `wal-<generation>.log`; a commit rotates to a new generation and records it in the
 * manifest, after which older generations are deleted. Record layout:
 * ```
 * uint32 LE  payload length
 * uint32 LE  CRC32 of the payload
 * payload    UTF-8 JSON: {"ops":[{"u":<document with _id>} | {"d":"<id>"}, ...]}
 * ```
 * A torn record at the end of the last file (a crash mid-append) was never acknowledged, so
 * replay stops there; the file is then truncated by starting a fresh generation.
 */
import { crc32 } from '../codec/file-format.js';
import type { Appender, Directory } from '../directory.js';
import { walFile, walGenerationOf } from '../index-files.js';

/** One replayed operation: an upsert of a document (with its `_id`) or a delete by id. */
export type WalOp = { readonly u: Record<string, unknown> } | { readonly d: string };

/** One operation to log; an upsert carries its document already serialised as JSON text. */
export type WalEntry = { readonly uJson: string } | { readonly d: string };

const HEADER = 8;

export { walFile, walGenerationOf };

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

  /** Opens generation `generation` for appending. */
  static async open(dir: Directory, generation: number): Promise<WriteAheadLog> {
    return new WriteAheadLog(dir, await dir.openAppender(walFile(generation)), generation);
  }

  /** The generation being appended to. */
  get generation(): number {
    return this.gen;
  }

  /** Bytes in the current generation. */
  get size(): number {
    return this.appender.size;
  }

  /** Appends a record (not yet durable); returns the logical offset to pass to {@link syncTo}. */
  async append(entries: readonly WalEntry[]): Promise<number> {
    const parts = entries.map((e) => ('uJson' in e ? `{"u":${e.uJson}}` : JSON.stringify(e)));
    const payload = new TextEncoder().encode(`{"ops":[${parts.join(',')}]}`);
    const record = new Uint8Array(HEADER + payload.length);
    const view = new DataView(record.buffer);
    view.setUint32(0, payload.length, true);
    view.setUint32(4, crc32(payload), true);
    record.set(payload, HEADER);
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
    const next = await this.dir.openAppender(walFile(generation));
    await this.appender.close();
    this.appender = next;
    this.gen = generation;
    this.base = end - next.size;
  }

  async close(): Promise<void> {
    await this.syncTo(this.base + this.appender.size);
    await this.appender.close();
  }

  /**
   * Reads every operation of generations >= `from`, in order. Returns the ops batch by batch
   * through `apply`, and the highest generation seen (or `from - 1`).
   */
  static async replay(
    dir: Directory,
    from: number,
    apply: (ops: readonly WalOp[]) => void,
    onTornTail: (file: string, offset: number) => void,
  ): Promise<number> {
    const gens = (await dir.list())
      .map(walGenerationOf)
      .filter((g): g is number => g !== undefined && g >= from)
      .sort((a, b) => a - b);
    for (const gen of gens) {
      const bytes = await dir.readFile(walFile(gen));
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      let pos = 0;
      while (pos < bytes.length) {
        if (pos + HEADER > bytes.length) break;
        const length = view.getUint32(pos, true);
        const sum = view.getUint32(pos + 4, true);
        if (pos + HEADER + length > bytes.length) break;
        const payload = bytes.subarray(pos + HEADER, pos + HEADER + length);
        if (crc32(payload) !== sum) break;
        const { ops } = JSON.parse(new TextDecoder().decode(payload)) as { ops: WalOp[] };
        apply(ops);
        pos += HEADER + length;
      }
      if (pos < bytes.length) onTornTail(walFile(gen), pos);
    }
    return gens.length === 0 ? from - 1 : gens[gens.length - 1];
  }
}
