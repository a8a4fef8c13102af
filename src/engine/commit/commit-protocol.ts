/**
 * The commit protocol: makes the writer's segments durable and publishes them as a new manifest.
 *
 * 1. rotate the write-ahead log to a new generation (the manifest will say replay starts there);
 * 2. write the live docs of segments with new deletes, under a new deletion generation;
 * 3. fsync every new segment and live docs file;
 * 4. write `index.json.tmp`, fsync it, rename it over `index.json` (the rename syncs the directory).
 *
 * A crash at any point leaves the previous manifest and everything it lists intact. What the
 * commit makes obsolete (older log generations, files no holder references) is deleted by the
 * writer afterwards.
 */
import { footerChecksum } from '../codec/file-format.js';
import type { Directory } from '../directory.js';
import { MANIFEST_FILE, MANIFEST_TEMP_FILE, liveDocsFile, walGenerationOf } from '../index-files.js';
import type { Logger } from '../logger.js';
import type { Mapping } from '../schema/mapping.js';
import { mappingToJson } from '../schema/mapping.js';
import { FORMAT_VERSION, encodeManifest, manifestFiles } from './manifest.js';
import type { Manifest } from './manifest.js';
import type { SegmentRegistry } from './segment-registry.js';
import type { WriteAheadLog } from './write-ahead-log.js';

/** What a commit publishes, besides the registry's segments. */
export interface CommitState {
  readonly previous: Manifest;
  readonly mapping: Mapping;
  readonly nextSegmentId: number;
  readonly checkpoints: Readonly<Record<string, unknown>>;
}

/** Runs steps 1-4 of the module comment and logs the commit line; returns the published manifest. */
export async function publishCommit(dir: Directory, wal: WriteAheadLog, registry: SegmentRegistry, state: CommitState, log: Logger): Promise<Manifest> {
  const nextGeneration = wal.generation + 1;
  await wal.rotate(nextGeneration);
  const toSync: string[] = [];
  for (const seg of registry.all) {
    if (!seg.durable) toSync.push(...seg.info.files.map((f) => f.name));
    if (seg.liveDirty) {
      seg.delGen++;
      const bytes = seg.liveDocs.encode();
      const name = liveDocsFile(seg.info.name, seg.delGen);
      await dir.writeFile(name, bytes);
      toSync.push(name);
      seg.info = { ...seg.info, liveDocs: { name, size: bytes.length, crc32: footerChecksum(bytes, name) }, deletedCount: seg.info.maxDoc - seg.liveDocs.liveCount };
    }
  }
  await dir.sync(toSync);
  const manifest: Manifest = {
    formatVersion: FORMAT_VERSION,
    name: state.previous.name,
    mapping: mappingToJson(state.mapping),
    seq: state.previous.seq + 1,
    committedAt: new Date().toISOString(),
    segments: registry.all.map((s) => s.info),
    nextSegmentId: state.nextSegmentId,
    walGeneration: nextGeneration,
    checkpoints: { ...state.checkpoints },
  };
  await writeManifest(dir, manifest);
  for (const seg of registry.all) {
    seg.durable = true;
    seg.liveDirty = false;
  }
  const files = manifestFiles(manifest);
  log.info(`commit seq=${manifest.seq} files=[${files.join(',')}]`, { seq: manifest.seq, files, docs: registry.liveCount });
  return manifest;
}

/** Writes a manifest durably: temp file, fsync, atomic rename. */
export async function writeManifest(dir: Directory, manifest: Manifest): Promise<void> {
  await dir.writeFile(MANIFEST_TEMP_FILE, encodeManifest(manifest));
  await dir.sync([MANIFEST_TEMP_FILE]);
  await dir.rename(MANIFEST_TEMP_FILE, MANIFEST_FILE);
}

/** Log generations a manifest covers (older than its `walGeneration`): safe to delete once it is published. */
export async function coveredLogFiles(dir: Directory, manifest: Manifest): Promise<string[]> {
  return (await dir.list()).filter((name) => {
    const gen = walGenerationOf(name);
    return gen !== undefined && gen < manifest.walGeneration;
  });
}
