/**
 * What the pull indexers (`index file`, `index kafka`) share: finding the `-i` index in the config
 * and opening its store and a write-only index tuned by the config's `indexing` section.
 */
// Not the config barrel, which loads yaml and zod: `index file` reads a cached config without them (config-cache.ts).
import { indexingOf, resolveIndexName, storeOf } from '../../config/config-model.js';
import type { LoadedConfig } from '../../config/load-config.js';
import { Index } from '../../engine/index.js';
import type { Mapping, WriterOptions } from '../../engine/index.js';
import { engineLogger } from '../cli-logger.js';
import { UsageError } from '../usage-error.js';
import type { ModeContext } from './mode-context.js';
import { modelsOf, openModels } from './open-models.js';
import { openStore } from './open-store.js';
import type { OpenedStore } from './open-store.js';
import { writerTuning } from './writer-tuning.js';

/** The mapping of index `name`, or a usage error listing the indexes the config defines. */
export function mappingOf(loaded: LoadedConfig, configPath: string, name: string): Mapping {
  const mapping = loaded.mappings.get(resolveIndexName(loaded.config, name) ?? name);
  if (mapping !== undefined) return mapping;
  const known = [...loaded.mappings.keys()];
  const has = known.length === 0 ? 'its schema section is empty' : `it defines ${known.join(', ')}`;
  throw new UsageError(`-i, --index: the config ${configPath} has no index "${name}" in its schema (${has})`);
}

/** An index opened for a pull indexer, with the store it lives in. */
export interface PullIndex {
  readonly index: Index;
  readonly store: OpenedStore;
  /** Closes the index (committing what is pending), then the store. */
  readonly close: () => Promise<void>;
}

/**
 * Opens index `nameOrAlias` (an index name or one of its aliases) write-only: a pull indexer never searches, so its segment readers keep only
 * ids and its memory stays flat. `memoryWarning` is logged when the store is memory; `writer`
 * adds to the writer options the `indexing` section gives. The models its semantic fields embed
 * with are opened too (and closed by `close`), so documents are embedded before the log.
 */
export async function openPullIndex(
  loaded: LoadedConfig,
  nameOrAlias: string,
  mapping: Mapping,
  ctx: ModeContext,
  options: { readonly memoryWarning: string; readonly writer?: Partial<WriterOptions> },
): Promise<PullIndex> {
  const { log } = ctx;
  // `-i` may name an alias.
  const name = resolveIndexName(loaded.config, nameOrAlias) ?? nameOrAlias;
  const storeConfig = storeOf(loaded.config, name);
  const store = await openStore(storeConfig, name, {
    env: ctx.env,
    // The S3 directory then refuses to publish, so the next commit fails with the reason.
    onLeaseLost: (reason) => { log.error(`the write lease of index ${name} was lost (${reason}): nothing more will be committed`); },
  });
  if (storeConfig.memory !== undefined) log.warn(options.memoryWarning);
  let index: Index;
  let models;
  try {
    models = await openModels(loaded.config, modelsOf([mapping]), ctx);
    index = await Index.open(store.dir, {
      name,
      mapping,
      logger: engineLogger(log),
      refreshIntervalMs: 0,
      searchable: false,
      writer: { ...writerTuning(indexingOf(loaded.config, name)), ...options.writer },
      embedders: models.embedders,
    });
  } catch (e) {
    await models?.close();
    store.close();
    throw e;
  }
  const opened = models;
  return {
    index,
    store,
    close: async () => {
      try {
        await index.close();
      } finally {
        store.close();
        await opened.close();
      }
    },
  };
}
