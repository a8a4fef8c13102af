/**
 * The write-ahead log, read side: reads back every generation the last commit does not cover and
 * tells the two ways a log can end badly apart.
 *
 * - A torn tail: the last record of a file is incomplete or fails its checksum and nothing valid
 *   follows it. A crash mid-append leaves exactly that, and such a record was never acknowledged
 *   (the write resolves only after the fsync that covers it), so replay stops there.
 * - Corruption: a record fails its checksum (or its length is garbage) and a valid record follows
 *   it, or a generation between two others is missing. Acknowledged batches would be dropped, so
 *   replay refuses with a `corrupt_index` error naming the file and byte offset; nothing is deleted.
 */
import { crc32 } from '../codec/file-format.js';
import type { Directory } from '../directory.js';
import { ErrorCode, YarrowError } from '../errors.js';
import { WAL_MAGIC, WAL_VERSION, walFile, walGenerationOf } from '../index-files.js';
import { noVectors } from '../schema/document.js';
import type { FieldValue, ValidDocument } from '../schema/document.js';
import { RECORD_FRAME, WAL_HEADER_LENGTH } from './write-ahead-log.js';

/** One replayed operation. */
export type ReplayedOp =
  /** A validated upsert (version 2 logs): applied as is. */
  | { readonly kind: 'upsert'; readonly doc: ValidDocument; readonly id: string; readonly storedJson: string }
  /** A raw document with its `_id` (version 1 logs): the caller validates it. */
  | { readonly kind: 'raw'; readonly doc: Record<string, unknown> }
  | { readonly kind: 'delete'; readonly id: string };

/** What a replay found. */
export interface ReplayResult {
  /** Generations read, in order. */
  readonly generations: readonly number[];
  readonly ops: number;
  /** Where a torn tail was ignored, if anywhere. */
  readonly tornTail?: { readonly file: string; readonly offset: number };
}

/** `{"ops":[`: how every record's payload starts, used to find valid records past a damaged one. */
const PAYLOAD_START = new TextEncoder().encode('{"ops":[');

/**
 * Reads every operation of generations >= `from`, in order, batch by batch through `apply`.
 * @throws YarrowError `corrupt_index` on corruption (see the module comment), `incompatible_format`
 *   on a log of a newer version.
 */
export async function replayWal(dir: Directory, from: number, apply: (ops: readonly ReplayedOp[]) => Promise<void> | void): Promise<ReplayResult> {
  const gens = (await dir.list())
    .map(walGenerationOf)
    .filter((g): g is number => g !== undefined && g >= from)
    .sort((a, b) => a - b);
  for (let i = 1; i < gens.length; i++) {
    if (gens[i] !== gens[i - 1] + 1) {
      const missing = walFile(gens[i - 1] + 1);
      throw new YarrowError(
        ErrorCode.corruptIndex,
        `write-ahead log ${missing} is missing between ${walFile(gens[i - 1])} and ${walFile(gens[i])}: replaying without it would apply later acknowledged batches and lose its own; refusing (the log files are kept)`,
        { file: missing, source: dir.describe() },
      );
    }
  }
  let ops = 0;
  let tornTail: ReplayResult['tornTail'];
  for (const gen of gens) {
    const file = walFile(gen);
    const bytes = await dir.readFile(file);
    const { start, version } = readHeader(bytes, file);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let pos = start;
    while (pos < bytes.length) {
      const payload = recordAt(bytes, view, pos);
      if (payload === undefined) break;
      const batch = decodePayload(payload, version, file, pos);
      await apply(batch);
      ops += batch.length;
      pos += RECORD_FRAME + payload.length;
    }
    if (pos < bytes.length) {
      const next = nextValidRecord(bytes, view, pos + 1);
      if (next !== undefined) {
        throw new YarrowError(
          ErrorCode.corruptIndex,
          `write-ahead log ${file} is damaged at byte ${pos} (bad length or checksum) and valid records follow at byte ${next}: acknowledged batches would be lost, so the writer stops; the file is kept`,
          { file, offset: pos, source: dir.describe() },
        );
      }
      tornTail = { file, offset: pos };
    }
  }
  return { generations: gens, ops, ...(tornTail === undefined ? {} : { tornTail }) };
}

/** Where records start and the format version: 2 after a header, 1 for a headerless file. */
function readHeader(bytes: Uint8Array, file: string): { start: number; version: number } {
  if (bytes.length >= 4 && String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]) === WAL_MAGIC) {
    if (bytes.length < WAL_HEADER_LENGTH) return { start: bytes.length, version: WAL_VERSION };
    const version = new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true);
    if (version !== WAL_VERSION && version !== 2) {
      throw new YarrowError(ErrorCode.incompatibleFormat, `${file}: write-ahead log version ${version} is not supported (this build reads versions 1 to ${WAL_VERSION})`, {
        file, expected: String(WAL_VERSION), actual: String(version),
      });
    }
    return { start: WAL_HEADER_LENGTH, version };
  }
  // A crash right after creating a file can leave part of the header: nothing was logged yet.
  if (bytes.length < WAL_HEADER_LENGTH && isMagicPrefix(bytes)) return { start: bytes.length, version: WAL_VERSION };
  return { start: 0, version: 1 };
}

function isMagicPrefix(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length && i < 4; i++) if (bytes[i] !== WAL_MAGIC.charCodeAt(i)) return false;
  return true;
}

/** The payload of a complete record with a valid checksum at `pos`, else undefined. */
function recordAt(bytes: Uint8Array, view: DataView, pos: number): Uint8Array | undefined {
  if (pos + RECORD_FRAME > bytes.length) return undefined;
  const length = view.getUint32(pos, true);
  if (pos + RECORD_FRAME + length > bytes.length) return undefined;
  const payload = bytes.subarray(pos + RECORD_FRAME, pos + RECORD_FRAME + length);
  return crc32(payload) === view.getUint32(pos + 4, true) ? payload : undefined;
}

/** The offset of the first valid record at or after `from`, if any (only called on damage). */
function nextValidRecord(bytes: Uint8Array, view: DataView, from: number): number | undefined {
  for (let p = Math.max(from, RECORD_FRAME); p + PAYLOAD_START.length <= bytes.length; p++) {
    let match = true;
    for (let k = 0; k < PAYLOAD_START.length && match; k++) match = bytes[p + k] === PAYLOAD_START[k];
    if (match && recordAt(bytes, view, p - RECORD_FRAME) !== undefined) return p - RECORD_FRAME;
  }
  return undefined;
}

function decodePayload(payload: Uint8Array, version: number, file: string, offset: number): ReplayedOp[] {
  let parsed: { ops: Record<string, unknown>[] };
  // Version 3 ends with the JSON's length; the binary vectors sit between the JSON and it.
  let json = payload;
  let vectorBytes = payload.subarray(0, 0);
  if (version >= 3) {
    const jsonLength = payload.length < 4 ? -1 : new DataView(payload.buffer, payload.byteOffset + payload.length - 4).getUint32(0, true);
    if (jsonLength < 0 || jsonLength > payload.length - 4) throw badRecord(file, offset, `JSON length ${jsonLength} out of range`);
    json = payload.subarray(0, jsonLength);
    vectorBytes = payload.subarray(jsonLength, payload.length - 4);
  }
  try {
    parsed = JSON.parse(new TextDecoder().decode(json)) as { ops: Record<string, unknown>[] };
  } catch (e) {
    throw badRecord(file, offset, `not JSON (${(e as Error).message})`);
  }
  return parsed.ops.map((op): ReplayedOp => {
    if (typeof op.d === 'string') return { kind: 'delete', id: op.d };
    const u = op.u as Record<string, unknown>;
    if (version === 1) return { kind: 'raw', doc: u };
    const values = new Map(Object.entries(u.v as Record<string, FieldValue[]>));
    const id = u.i as string;
    const stored = u.s as Record<string, unknown>;
    const vectors = op.x === undefined ? noVectors : readVectors(op.x as Record<string, [number, number]>, vectorBytes, file, offset);
    return { kind: 'upsert', id, doc: { id, values, stored, vectors }, storedJson: JSON.stringify(stored) };
  });
}

/** The vectors an upsert references (`"x": {field: [byte offset, dim]}`), copied out of the record. */
function readVectors(refs: Record<string, [number, number]>, bytes: Uint8Array, file: string, offset: number): Map<string, Float32Array> {
  const vectors = new Map<string, Float32Array>();
  for (const [field, [at, dim]] of Object.entries(refs)) {
    if (!Number.isSafeInteger(at) || !Number.isSafeInteger(dim) || at < 0 || dim < 1 || at + dim * 4 > bytes.length) {
      throw badRecord(file, offset, `vector of field "${field}" out of range`);
    }
    // A copy: the record's bytes are not 4-byte aligned, and the file's buffer can then be freed.
    vectors.set(field, new Float32Array(bytes.slice(at, at + dim * 4).buffer));
  }
  return vectors;
}

function badRecord(file: string, offset: number, why: string): YarrowError {
  return new YarrowError(ErrorCode.corruptIndex, `${file}: record at byte ${offset} passes its checksum but ${why}`, { file, offset });
}
