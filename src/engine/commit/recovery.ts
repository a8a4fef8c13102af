/**
 * Recovery: what opening an index for writing does before the first write. Takes the write lock,
 * reads the manifest (or creates the index in an empty location), deletes only what it can prove
 * is garbage (files this engine writes that no commit references), opens the committed segments,
 * replays the write-ahead log past the commit and commits what it replayed.
 *
 * It refuses rather than guesses: a location that holds files but no manifest is not new, a log
 * damaged in the middle or missing a generation is not a torn tail (`wal-replay.ts`). On refusal the
 * location is left as it was found, apart from the lock file, which stays.
 */
import { hostname } from 'node:os';
import { getAnalyzer } from '../analysis/analyzers.js';
import type { Directory, Lock, LockOwner } from '../directory.js';
import { ErrorCode, YarrowError } from '../errors.js';
import { IndexFiles, LOCK_FILE, MANIFEST_FILE, fileKindOf, isDataFile, walFile, walGenerationOf } from '../index-files.js';
import type { IndexFileKind } from '../index-files.js';
import { TimeSlicer } from '../event-loop.js';
import type { Logger } from '../logger.js';
import { validateDocument } from '../schema/document.js';
import { mappingFromJson, mappingToJson, parseMapping } from '../schema/mapping.js';
import type { Mapping } from '../schema/mapping.js';
import { writeManifest } from './commit-protocol.js';
import { IndexWriter } from './index-writer.js';
import { FORMAT_VERSION, decodeManifest, manifestFiles } from './manifest.js';
import type { Manifest } from './manifest.js';
import { openCommittedSegment } from './segment-registry.js';
import type { SegmentReader } from '../segment/segment-reader.js';
import { replayWal } from './wal-replay.js';
import { WriteAheadLog } from './write-ahead-log.js';
import type { WriterOptions } from './writer-options.js';

/** What recovery needs to open (or create) an index for writing. */
export interface RecoveryOptions {
  /** Index name for a new index (default "default"). */
  readonly name?: string;
  /** The mapping: required to create; when the index exists it must be the same. */
  readonly mapping?: unknown;
  readonly logger: Logger;
  readonly writer: WriterOptions;
  /**
   * The write lock, when the caller holds it already (a failed writer being reopened): recovery
   * then neither takes nor, on failure, releases it.
   */
  readonly lock?: Lock;
  /** Readers of committed segments to reuse instead of reading their files again (by segment name). */
  readonly knownReaders?: ReadonlyMap<string, SegmentReader>;
}

/** Opens the index in `dir` for writing; see the module comment. */
export async function recover(dir: Directory, options: RecoveryOptions): Promise<{ writer: IndexWriter; mapping: Mapping }> {
  const log = options.logger;
  const lock = options.lock ?? await dir.obtainLock(LOCK_FILE, ownerInfo(), (stale) => {
    log.warn(`taking over a stale lock of ${dir.describe()}: its holder pid ${stale.pid} on ${stale.hostname} (since ${stale.since}) is gone`);
  });
  let firstCreatedGen: number | null = null;
  let writer: IndexWriter | null = null;
  try {
    const { manifest, mapping } = await readOrCreate(dir, options);
    await removeOrphans(dir, manifest, log);
    const segments = await Promise.all(manifest.segments.map((info) => openCommittedSegment(dir, info, options.writer.segmentLoad, options.knownReaders?.get(info.name))));
    const logGens = (await dir.list()).map(walGenerationOf).filter((g): g is number => g !== undefined);
    const walGen = Math.max(manifest.walGeneration, ...logGens.map((g) => g + 1));
    firstCreatedGen = walGen;
    const wal = await WriteAheadLog.open(dir, walGen);
    writer = new IndexWriter(dir, mapping, getAnalyzer, lock, log, options.writer, segments, manifest, wal);
    const opened = writer;
    // Replay yields to the event loop as it goes, like a write does: a large batch must not starve
    // timers (an S3 write lease is renewed by one) while it is re-inverted.
    const slicer = new TimeSlicer();
    const replay = await replayWal(dir, manifest.walGeneration, async (ops) => {
      for (const op of ops) {
        if (slicer.due()) await slicer.yield();
        if (op.kind === 'upsert') opened.applyUpsert(op.doc, op.id, op.storedJson);
        // Version 1 logs hold the raw document: validated here, once, as they were not when logged.
        else if (op.kind === 'raw') opened.applyUpsert(validateDocument(mapping, op.doc), String(op.doc._id));
        else opened.applyDelete(op.id);
      }
    });
    for (const [file, skipped] of replay.unfinishedFiles) {
      log.warn(`write-ahead log: the ${skipped} operations of source file ${file} are not replayed: indexing stopped before the file's end, and a file is indexed whole or not at all (the next run indexes it again)`);
    }
    if (replay.tornTail !== undefined) {
      log.warn(`write-ahead log ${replay.tornTail.file} ends with a torn record at byte ${replay.tornTail.offset} (never acknowledged); ignoring it`);
    }
    if (replay.ops > 0) {
      log.info(`replayed ${replay.ops} operations from the write-ahead log`);
      await opened.commit();
    } else {
      // Earlier generations hold nothing valid (sessions that never wrote, or a torn record).
      for (const gen of logGens) if (gen !== walGen) await dir.delete(walFile(gen));
    }
    return { writer: opened, mapping };
  } catch (e) {
    await writer?.abandon();
    // A refused replay (or a failed commit of it) leaves the location as it found it: the log
    // generations created here hold nothing (replay does not log; a commit only rotates) and go,
    // all of them, so that no gap between generations is left behind.
    if (firstCreatedGen !== null) await deleteGenerationsFrom(dir, firstCreatedGen);
    if (options.lock === undefined) await lock.release();
    throw e;
  }
}

async function readOrCreate(dir: Directory, options: RecoveryOptions): Promise<{ manifest: Manifest; mapping: Mapping }> {
  if (await dir.exists(MANIFEST_FILE)) {
    const manifest = decodeManifest(await dir.readFile(MANIFEST_FILE));
    const mapping = mappingFromJson(manifest.mapping);
    if (options.mapping !== undefined) checkSameMapping(mapping, toMapping(options.mapping, manifest.name), manifest.name);
    return { manifest, mapping };
  }
  await refuseUnaccountedFiles(dir);
  if (options.mapping === undefined) {
    throw new YarrowError(ErrorCode.invalidMapping, `${dir.describe()} holds no index and no mapping was given to create one`);
  }
  const name = options.name ?? 'default';
  const mapping = toMapping(options.mapping, name);
  const manifest: Manifest = {
    formatVersion: FORMAT_VERSION,
    name,
    mapping: mappingToJson(mapping),
    seq: 0,
    committedAt: new Date().toISOString(),
    segments: [],
    nextSegmentId: 0,
    walGeneration: 0,
    checkpoints: {},
  };
  await writeManifest(dir, manifest);
  options.logger.info(`created index ${name} in ${dir.describe()}`);
  return { manifest, mapping };
}

/** A mapping given as config JSON or already parsed. */
export function toMapping(raw: unknown, name: string): Mapping {
  if (typeof raw === 'object' && raw !== null && 'field' in raw && typeof (raw as Mapping).field === 'function') return raw as Mapping;
  return parseMapping(raw, `schema.${name}`);
}

function checkSameMapping(existing: Mapping, given: Mapping, name: string): void {
  if (JSON.stringify(mappingToJson(existing)) !== JSON.stringify(mappingToJson(given))) {
    throw new YarrowError(
      ErrorCode.invalidMapping,
      `the mapping of index ${name} differs from the one it was created with; re-index into a new index to change it`,
    );
  }
}

/**
 * A location without a manifest is new only when it holds nothing but lock files (and a manifest
 * temp file of a creation that crashed): segment files or logs without `index.json` are an index
 * whose manifest is lost, and creating a fresh one would orphan (and then delete) all of them.
 */
async function refuseUnaccountedFiles(dir: Directory): Promise<void> {
  const scratch: readonly IndexFileKind[] = [IndexFiles.lock, IndexFiles.lockClaim, IndexFiles.lockTemp, IndexFiles.manifestTemp];
  const present = (await dir.list()).filter((name) => !scratch.includes(fileKindOf(name) as IndexFileKind)).sort();
  if (present.length === 0) return;
  const shown = present.slice(0, 5).join(', ') + (present.length > 5 ? `, … (${present.length} files)` : '');
  throw new YarrowError(
    ErrorCode.corruptIndex,
    `${dir.describe()} has no ${MANIFEST_FILE} but is not empty (${shown}): refusing to create a new index over it; restore ${MANIFEST_FILE} or use an empty location`,
    { source: dir.describe(), file: MANIFEST_FILE, files: present },
  );
}

/**
 * Deletes files this engine wrote and no commit references: leftovers of a crash between flush and
 * commit (segment files, live docs, a manifest temp file) and log generations the commit covers.
 * Names the registry does not know are never touched. Data files are logged at info by name.
 */
async function removeOrphans(dir: Directory, manifest: Manifest, log: Logger): Promise<void> {
  const keep = new Set(manifestFiles(manifest));
  for (const name of await dir.list()) {
    if (keep.has(name)) continue;
    const kind = fileKindOf(name);
    if (kind === undefined) continue;
    const gen = walGenerationOf(name);
    const garbage = kind === IndexFiles.manifestTemp || kind.lifetime === 'immutable' || (gen !== undefined && gen < manifest.walGeneration);
    if (!garbage) continue;
    if (isDataFile(name)) log.info(`removing ${name}: no commit references it (seq=${manifest.seq})`, { file: name, seq: manifest.seq });
    else log.debug(`removing unreferenced file ${name}`);
    await dir.delete(name);
  }
}

async function deleteGenerationsFrom(dir: Directory, first: number): Promise<void> {
  for (const name of await dir.list().catch((): string[] => [])) {
    const gen = walGenerationOf(name);
    if (gen !== undefined && gen >= first) await dir.delete(name).catch(() => undefined);
  }
}

function ownerInfo(): LockOwner {
  return { pid: process.pid, hostname: hostname(), since: new Date().toISOString() };
}
