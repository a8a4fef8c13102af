/**
 * The manifest `index.json`: the commit point of an index. A commit is durable exactly when its
 * manifest has been renamed into place; everything it lists is immutable and checksummed.
 *
 * The JSON is parsed by a hand-written schema check and migrated to the current type, so a future
 * format version can read older manifests; an unknown (newer or older unsupported) version is
 * refused with a message telling the user to re-index.
 */
import { ErrorCode, YarrowError } from '../errors.js';
import type { FileInfo, SegmentInfo } from '../segment/segment-info.js';
import { segmentFiles } from '../segment/segment-info.js';

import { MANIFEST_FILE } from '../index-files.js';

export { MANIFEST_FILE, MANIFEST_TEMP_FILE } from '../index-files.js';
/**
 * The index format this code writes. Version 2 records each file's footer checksum; version 1
 * manifests (which recorded the CRC of the whole file, the same number for every intact file) are
 * still read and migrated: their files' checksums become null (see `FileInfo.crc32`).
 */
export const FORMAT_VERSION = 2;
/** Every format version {@link decodeManifest} reads. */
export const READABLE_FORMAT_VERSIONS: readonly number[] = [1, 2];

/** A commit point. */
export interface Manifest {
  readonly formatVersion: number;
  readonly name: string;
  /** The mapping, in `mappingToJson` form. */
  readonly mapping: unknown;
  /** Commit sequence number, strictly increasing from 1. */
  readonly seq: number;
  /** ISO time of the commit. */
  readonly committedAt: string;
  readonly segments: readonly SegmentInfo[];
  /** Next segment id to allocate (segment names never repeat). */
  readonly nextSegmentId: number;
  /** The first write-ahead log generation NOT covered by this commit: replayed on open. */
  readonly walGeneration: number;
  /**
   * Source positions this commit covers, keyed by source (e.g. `kafka:<topic>` -> partition
   * offsets), so a pull source can resume exactly where the commit ends.
   */
  readonly checkpoints: Readonly<Record<string, unknown>>;
}

/** Every file a manifest references (segment components and live docs). */
export function manifestFiles(m: Manifest): string[] {
  return m.segments.flatMap(segmentFiles);
}

/** Serialises a manifest (stable key order, readable by people). */
export function encodeManifest(m: Manifest): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(m, null, 2) + '\n');
}

/** Parses and validates `index.json`. */
export function decodeManifest(bytes: Uint8Array): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (e) {
    throw corrupt(`not valid JSON (${(e as Error).message})`);
  }
  if (typeof json !== 'object' || json === null) throw corrupt('not a JSON object');
  const o = json as Record<string, unknown>;
  if (typeof o.formatVersion !== 'number' || !READABLE_FORMAT_VERSIONS.includes(o.formatVersion)) {
    throw new YarrowError(
      ErrorCode.incompatibleFormat,
      `${MANIFEST_FILE}: index format version ${String(o.formatVersion)} is not supported by this Yarrow (formats ${READABLE_FORMAT_VERSIONS.join(', ')}); re-index the data into a new index`,
      { found: o.formatVersion, supported: READABLE_FORMAT_VERSIONS },
    );
  }
  expect(typeof o.name === 'string', 'name');
  expect(Number.isSafeInteger(o.seq) && (o.seq as number) >= 0, 'seq');
  expect(typeof o.committedAt === 'string', 'committedAt');
  expect(Array.isArray(o.segments), 'segments');
  expect(Number.isSafeInteger(o.nextSegmentId), 'nextSegmentId');
  expect(Number.isSafeInteger(o.walGeneration), 'walGeneration');
  expect(typeof o.checkpoints === 'object' && o.checkpoints !== null, 'checkpoints');
  const version = o.formatVersion;
  for (const [i, s] of (o.segments as unknown[]).entries()) checkSegment(s, `segments[${i}]`, version);
  return version === 1 ? migrateFromV1(o as unknown as Manifest) : (o as unknown as Manifest);
}

/** Format 1 -> 2: the whole-file CRCs it recorded say nothing about which file is which: drop them. */
function migrateFromV1(m: Manifest): Manifest {
  const file = (f: FileInfo): FileInfo => ({ ...f, crc32: null });
  return {
    ...m,
    formatVersion: FORMAT_VERSION,
    segments: m.segments.map((s) => ({ ...s, files: s.files.map(file), liveDocs: s.liveDocs === null ? null : file(s.liveDocs) })),
  };
}

function checkSegment(s: unknown, path: string, version: number): void {
  expect(typeof s === 'object' && s !== null, path);
  const seg = s as Record<string, unknown>;
  expect(typeof seg.name === 'string', `${path}.name`);
  expect(Number.isSafeInteger(seg.maxDoc), `${path}.maxDoc`);
  expect(Array.isArray(seg.files), `${path}.files`);
  for (const [i, f] of (seg.files as unknown[]).entries()) checkFile(f, `${path}.files[${i}]`, version);
  if (seg.liveDocs !== null) checkFile(seg.liveDocs, `${path}.liveDocs`, version);
  expect(typeof seg.fieldStats === 'object' && seg.fieldStats !== null, `${path}.fieldStats`);
  expect(Number.isSafeInteger(seg.deletedCount), `${path}.deletedCount`);
  if (seg.vectorFields !== undefined) {
    expect(Array.isArray(seg.vectorFields), `${path}.vectorFields`);
    for (const [i, v] of (seg.vectorFields as unknown[]).entries()) {
      const f = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
      const ok = typeof f.field === 'string' && [f.dim, f.m, f.efConstruction].every((n) => Number.isSafeInteger(n) && (n as number) > 0);
      expect(ok, `${path}.vectorFields[${i}]`);
    }
  }
}

function checkFile(f: unknown, path: string, version: number): void {
  expect(typeof f === 'object' && f !== null, path);
  const file = f as Record<string, unknown>;
  // Format 2 allows null: a file carried over from a format 1 manifest.
  const crcOk = Number.isSafeInteger(file.crc32) || (version >= 2 && file.crc32 === null);
  expect(typeof file.name === 'string' && Number.isSafeInteger(file.size) && crcOk, path);
}

function expect(ok: boolean, path: string): void {
  if (!ok) throw corrupt(`missing or malformed ${path}`);
}

function corrupt(reason: string): YarrowError {
  return new YarrowError(ErrorCode.corruptIndex, `${MANIFEST_FILE}: ${reason}`, { file: MANIFEST_FILE });
}
