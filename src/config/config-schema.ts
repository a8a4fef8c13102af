/**
 * Yarrow's own config shape (SPEC §2) as zod: the TypeScript types are inferred from it and the
 * defaults live in it. Nixiesearch's shape (nixiesearch-schema.ts) is read into the same types.
 * Field mappings (`schema.<index>.fields`) are left to the engine's `checkMapping`, the one
 * authority on fields in both shapes.
 */
// A namespace import, not `{ z }`: esbuild then bundles only the parts used (not zod's ~40 locales), which halves the CLI's zod load (issue 17).
import * as z from 'zod';
import { inferenceSchema } from '../inference/inference-config.js';

/** Where indexes live when the config says nothing. */
export const DEFAULT_STORE_PATH = './yarrow-data';

/** A directory name that is safe on every file system and in object-storage keys; aliases follow it too. */
export const indexNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

const localStore = z.strictObject({ path: z.string().min(1).default(DEFAULT_STORE_PATH) });
const memoryStore = z.strictObject({});
/** Where an S3 index keeps its local files (write-ahead log, staged uploads, cache) by default. */
export const DEFAULT_S3_WORK_PATH = './yarrow-work';

const s3Store = z.strictObject({
  bucket: z.string().min(1),
  prefix: z.string().default(''),
  region: z.string().min(1).optional(),
  endpoint: z.string().min(1).optional(),
  /** Defaults to true when `endpoint` is set (S3-compatible servers), false on AWS. */
  forcePathStyle: z.boolean().optional(),
  workPath: z.string().min(1).default(DEFAULT_S3_WORK_PATH),
  cacheMaxBytes: z.number().int().positive().default(4 * 1024 ** 3),
  deleteGraceMs: z.number().int().nonnegative().default(3_600_000),
  lockTtlMs: z.number().int().min(1000).default(30_000),
  pollIntervalMs: z.number().int().positive().default(1000),
});

/** Default `indexing.buffer_mb`. */
export const DEFAULT_BUFFER_MB = 16;
/** Default `indexing.max_merged_segment_mb`. */
export const DEFAULT_MAX_MERGED_SEGMENT_MB = 32;

/** `store`: exactly one of `local`, `memory`, `s3`. */
export const storeSchema = z
  .strictObject({ local: localStore.optional(), memory: memoryStore.optional(), s3: s3Store.optional() })
  .refine((s) => [s.local, s.memory, s.s3].filter((x) => x !== undefined).length === 1, {
    message: 'expected exactly one of local, memory, s3',
  });

/** Writer settings of the `indexing` section; an index may override any of them. */
const indexingShape = {
  /** Flush the write buffer into a segment once it holds about this many MB. */
  buffer_mb: z.number().positive(),
  /** Merges never produce a larger segment: a merge holds its sources and its result in memory. */
  max_merged_segment_mb: z.number().positive(),
  /** Segments a size tier may hold before its smallest are merged. */
  segments_per_tier: z.number().int().min(1).optional(),
  /** Most segments merged at once. */
  max_merge_at_once: z.number().int().min(2).optional(),
  /** Segments smaller than this count as this size when merges are planned. */
  floor_segment_mb: z.number().positive().optional(),
  /** Merge segments in the background (Nixiesearch's `merge_policy: none` turns this off). */
  merges: z.boolean().optional(),
  /** How often a writable index makes new documents searchable; a `search` process polls for commits at this period too. */
  refresh_interval_ms: z.number().int().positive().optional(),
};

/** `indexing` of one index: any subset of the top-level keys. */
export const indexingOverrideSchema = z.strictObject({
  buffer_mb: indexingShape.buffer_mb.optional(),
  max_merged_segment_mb: indexingShape.max_merged_segment_mb.optional(),
  segments_per_tier: indexingShape.segments_per_tier,
  max_merge_at_once: indexingShape.max_merge_at_once,
  floor_segment_mb: indexingShape.floor_segment_mb,
  merges: indexingShape.merges,
  refresh_interval_ms: indexingShape.refresh_interval_ms,
});

/** `alias`: one name or a list (as Nixiesearch reads it). */
export const aliasSchema = z.union([z.string().min(1).transform((a) => [a]), z.array(z.string().min(1))]);

const indexSchema = z.strictObject({
  /** Other names the index answers to. */
  alias: aliasSchema.default([]),
  /** Checked by the engine's `checkMapping` (a map of field specs, or a list of one-key maps). */
  fields: z.unknown().optional(),
  /** Overrides the top-level `store` for this index. */
  store: storeSchema.optional(),
  /** Overrides keys of the top-level `indexing` for this index. */
  indexing: indexingOverrideSchema.optional(),
});

/** The whole config file. */
export const configSchema = z
  .strictObject({
    store: storeSchema.default({ local: { path: DEFAULT_STORE_PATH } }),
    api: z
      .strictObject({
        auth: z
          .strictObject({
            // tokens: may do everything; write_tokens: write and read; read_tokens: read only (and, when set, reads need a token).
            tokens: z.array(z.string().min(1)).default([]),
            write_tokens: z.array(z.string().min(1)).default([]),
            read_tokens: z.array(z.string().min(1)).default([]),
          })
          .optional(),
        /**
         * Cross-origin requests from browsers: off unless origins are listed (`*` allows any, as
         * Nixiesearch 0.8 does by default). In both config shapes, under `api`.
         */
        cors: z.strictObject({ origins: z.array(z.string().min(1)).min(1) }).optional(),
        /** Where the sample plant store keeps its index (default: the top-level `store`). */
        plants: z.strictObject({ store: storeSchema.optional() }).optional(),
      })
      .optional(),
    indexing: z
      .strictObject({
        ...indexingShape,
        buffer_mb: indexingShape.buffer_mb.default(DEFAULT_BUFFER_MB),
        max_merged_segment_mb: indexingShape.max_merged_segment_mb.default(DEFAULT_MAX_MERGED_SEGMENT_MB),
      })
      .default({ buffer_mb: DEFAULT_BUFFER_MB, max_merged_segment_mb: DEFAULT_MAX_MERGED_SEGMENT_MB }),
    /** Embedding, ranker and completion models (inference-section.ts). */
    inference: inferenceSchema.optional(),
    schema: z.record(z.string(), indexSchema).default({}),
  })
  .superRefine((config, ctx) => {
    checkIndexNames(Object.keys(config.schema), ctx);
  });

/** Index names must be safe directory names (both shapes). */
export function checkIndexNames(names: readonly string[], ctx: z.RefinementCtx): void {
  for (const name of names) {
    if (!indexNamePattern.test(name)) {
      ctx.addIssue({
        code: 'custom',
        path: ['schema', name],
        message: 'index names use letters, digits, "_", "." and "-", start with a letter or digit, and have at most 128 characters',
      });
    }
  }
}

/** A validated file in Yarrow's shape, every default filled in. */
export type YarrowFileConfig = z.output<typeof configSchema>;

/** The `store` section (or a per-index override). */
export type StoreConfig = z.output<typeof storeSchema>;

/** The `indexing` section. */
export type IndexingConfig = YarrowFileConfig['indexing'];

/** `indexing` of one index. */
export type IndexingOverride = z.output<typeof indexingOverrideSchema>;
