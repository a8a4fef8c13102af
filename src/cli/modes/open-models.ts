/**
 * The process's embedding models (`inference.embedding`), opened once per process and handed to
 * every index it opens (`IndexOpenOptions.embedders`), then closed at shutdown. Only the models a
 * mode needs are opened, and the inference code (with its ONNX runtime worker) is imported only
 * when there is at least one: a lexical config starts as fast as before.
 */
import { resolve } from 'node:path';
import type { Config } from '../../config/index.js';
import type { Embedder, Mapping } from '../../engine/index.js';
import type { EmbeddingModel } from '../../inference/index.js';
import type { ModeContext } from './mode-context.js';

/** Nixiesearch's default `core.cache.dir`: downloaded models go to `<dir>/models/...`. */
export const DEFAULT_CACHE_DIR = './cache';

/** Opened models, by name. */
export interface OpenedModels {
  /** The models, for the engine (`embedders`) and the inference routes. */
  readonly models: ReadonlyMap<string, EmbeddingModel>;
  /** The same models as the engine's port. */
  readonly embedders: ReadonlyMap<string, Embedder>;
  /** Stops every model's worker. */
  close(): Promise<void>;
}

const none: OpenedModels = { models: new Map(), embedders: new Map(), close: () => Promise.resolve() };

/** Names of the models the semantic fields of `mappings` embed with. */
export function modelsOf(mappings: Iterable<Mapping>): Set<string> {
  const names = new Set<string>();
  for (const mapping of mappings) for (const f of mapping.fields) if (f.semantic?.model != null) names.add(f.semantic.model);
  return names;
}

/**
 * Opens the `inference.embedding` models named in `wanted` (`all`: every configured one, for the
 * modes that serve `POST /inference/embedding/<model>`). Resolves to no models, without loading
 * any inference code, when there is nothing to open.
 */
export async function openModels(config: Config, wanted: ReadonlySet<string> | 'all', ctx: ModeContext): Promise<OpenedModels> {
  const configured = config.inference?.embedding ?? {};
  const names = wanted === 'all' ? Object.keys(configured) : [...wanted];
  if (names.length === 0) return none;
  const { openEmbedders, closeEmbedders } = await import('../../inference/index.js');
  const selected = Object.fromEntries(names.map((n) => [n, configured[n]]));
  ctx.log.info(`opening embedding model${names.length === 1 ? '' : 's'} ${names.join(', ')}`);
  const models = await openEmbedders(
    { embedding: selected, ranker: {}, completion: {} },
    {
      cacheDir: resolve(config.core.cacheDir ?? DEFAULT_CACHE_DIR),
      ...(ctx.env.HF_ENDPOINT === undefined || ctx.env.HF_ENDPOINT === '' ? {} : { hubEndpoint: ctx.env.HF_ENDPOINT }),
      log: (line) => { ctx.log.info(line); },
    },
  );
  return { models, embedders: models, close: () => closeEmbedders(models) };
}
