/**
 * Reads a validated Nixiesearch-shaped file into Yarrow's config model (NIXIESEARCH.md §1.5-1.6):
 * - `store.local.disk` -> a local store at `<path>/<index>/` (default `./indexes`, as 0.8);
 *   `store.local.memory` -> a memory store;
 * - `store.distributed` with `remote.s3` -> an S3 store at `s3://bucket/prefix/<index>/`, whose
 *   local working directory is the `indexer` disk path (0.8's searcher follows `indexer` too);
 *   with `remote.disk` -> a local store at that shared path; both marked distributed;
 * - `config.indexer` -> the index's writer settings (`ram_buffer_size` -> `buffer_mb`,
 *   `merge_policy` -> Yarrow's size-tiered merges, `flush.interval` -> the refresh period and a
 *   searcher's poll period);
 * - `core` -> the server settings.
 */
import { DEFAULT_BUFFER_MB, DEFAULT_MAX_MERGED_SEGMENT_MB, storeSchema } from './config-schema.js';
import type { IndexingOverride, StoreConfig, YarrowFileConfig } from './config-schema.js';
import type { Config, CoreConfig, IndexConfig } from './config-model.js';
import type { NixiesearchFileConfig, NixiesearchIndex, NixiesearchMergePolicy, NixiesearchStore } from './nixiesearch-schema.js';

/** Nixiesearch's default directory of local indexes (`$CWD/indexes`). */
export const NIXIESEARCH_STORE_PATH = './indexes';

const MB = 1024 * 1024;

/** A Nixiesearch-shaped file as Yarrow's config model. */
export function fromNixiesearch(file: NixiesearchFileConfig): Config {
  const schema: Record<string, IndexConfig> = {};
  for (const [name, index] of Object.entries(file.schema ?? {})) schema[name] = indexFromNixiesearch(index);
  const core: CoreConfig = {
    ...(file.core?.host === undefined ? {} : { host: file.core.host }),
    ...(file.core?.port === undefined ? {} : { port: file.core.port }),
    ...(file.core?.loglevel === undefined ? {} : { loglevel: file.core.loglevel }),
    ...(file.core?.cache?.dir === undefined ? {} : { cacheDir: file.core.cache.dir }),
  };
  return {
    shape: 'nixiesearch',
    // The plant store (`api.plants.store` unset) lives next to the indexes.
    store: { local: { path: NIXIESEARCH_STORE_PATH } },
    ...(file.api === undefined ? {} : { api: file.api }),
    indexing: { buffer_mb: DEFAULT_BUFFER_MB, max_merged_segment_mb: DEFAULT_MAX_MERGED_SEGMENT_MB },
    core,
    ...(file.inference === undefined ? {} : { inference: file.inference }),
    schema,
  };
}

/** A Yarrow-shaped file as the config model (the model is a superset of the file). */
export function fromYarrow(file: YarrowFileConfig): Config {
  const schema: Record<string, IndexConfig> = {};
  for (const [name, index] of Object.entries(file.schema)) schema[name] = { ...index, distributed: false };
  return { ...file, shape: 'yarrow', core: {}, schema };
}

function indexFromNixiesearch(index: NixiesearchIndex): IndexConfig {
  const indexer = index.config?.indexer;
  const refreshMs = indexer?.flush?.interval;
  const indexing: Record<string, unknown> = {
    ...mergePolicy(indexer?.merge_policy),
    ...(refreshMs === undefined ? {} : { refresh_interval_ms: refreshMs }),
  };
  const ramBuffer = indexer?.ramBufferSize ?? indexer?.ram_buffer_size;
  if (ramBuffer !== undefined) indexing.buffer_mb = Math.max(ramBuffer, 1) / MB;
  const { store, distributed } = storeFromNixiesearch(index.store, refreshMs);
  return {
    alias: index.alias,
    fields: index.fields,
    store,
    ...(Object.keys(indexing).length === 0 ? {} : { indexing }),
    distributed,
  };
}

/** Nixiesearch's merge policies in terms of Yarrow's size-tiered policy. */
function mergePolicy(policy: NixiesearchMergePolicy | undefined): IndexingOverride {
  if (policy === undefined || policy === 'tiered' || policy === 'byte_size' || policy === 'doc_count') return {};
  if (policy === 'none' || 'none' in policy) return { merges: false };
  const out: Record<string, number> = {};
  if (policy.tiered != null) {
    const t = policy.tiered;
    if (t.segments_per_tier !== undefined) out.segments_per_tier = t.segments_per_tier;
    if (t.max_merge_at_once !== undefined) out.max_merge_at_once = t.max_merge_at_once;
    if (t.max_merged_segment_size !== undefined) out.max_merged_segment_mb = Math.max(t.max_merged_segment_size, 1) / MB;
    if (t.floor_segment_size !== undefined) out.floor_segment_mb = Math.max(t.floor_segment_size, 1) / MB;
  } else if (policy.byte_size != null) {
    // LogByteSizeMergePolicy's bounds become the tiered policy's: the largest merged segment and the floor.
    const b = policy.byte_size;
    if (b.max_merge_size !== undefined) out.max_merged_segment_mb = Math.max(b.max_merge_size, 1) / MB;
    if (b.min_merge_size !== undefined) out.floor_segment_mb = Math.max(b.min_merge_size, 1) / MB;
  }
  // doc_count: Yarrow plans merges by size; the document bounds have no counterpart (docs/nixiesearch.md).
  return out;
}

function storeFromNixiesearch(store: NixiesearchStore | undefined, pollMs: number | undefined): { store: StoreConfig; distributed: boolean } {
  if (store?.distributed !== undefined) {
    const { remote, indexer } = store.distributed;
    const work = indexer == null ? undefined : 'local' in indexer ? indexer.local : indexer;
    const workPath = work?.disk?.path;
    if (remote.s3 !== undefined) {
      const s3 = storeSchema.parse({
        s3: {
          bucket: remote.s3.bucket,
          prefix: remote.s3.prefix,
          ...(remote.s3.region === undefined ? {} : { region: remote.s3.region }),
          ...(remote.s3.endpoint === undefined ? {} : { endpoint: remote.s3.endpoint }),
          ...(workPath === undefined ? {} : { workPath: localPath(workPath) }),
          ...(pollMs === undefined ? {} : { pollIntervalMs: pollMs }),
        },
      });
      return { store: s3, distributed: true };
    }
    return { store: { local: { path: localPath(remote.disk!.path) } }, distributed: true };
  }
  if (store?.local?.memory !== undefined) return { store: { memory: {} }, distributed: false };
  return { store: { local: { path: localPath(store?.local?.disk?.path ?? NIXIESEARCH_STORE_PATH) } }, distributed: false };
}

/** `file:///data/indexes` (mapping.md writes paths as URLs) is the path `/data/indexes`. */
function localPath(path: string): string {
  return path.startsWith('file://') ? path.slice('file://'.length) : path;
}
