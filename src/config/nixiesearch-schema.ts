/**
 * Nixiesearch 0.8's config shape (NIXIESEARCH.md §1.2-1.6: `core`, `searcher`, and per index
 * `alias`, `config.indexer`, `store.local` / `store.distributed`) as zod, strict like Yarrow's own
 * shape: an unknown key is an error, not silently ignored as in 0.8. nixiesearch-config.ts reads
 * the validated file into Yarrow's config model.
 */
// A namespace import, not `{ z }`: esbuild then bundles only the parts used (not zod's ~40 locales), which halves the CLI's zod load (issue 17).
import * as z from 'zod';
import { aliasSchema, checkIndexNames, configSchema } from './config-schema.js';
import { inferenceSchema } from '../inference/inference-config.js';
import { CORE_LOG_LEVELS } from './config-model.js';

/** A byte size as Nixiesearch writes it: `512mb`, `16 mb`, `5gb`, `1024k`, or a number of bytes. */
export const sizeSchema = z.union([
  z.number().nonnegative(),
  z
    .string()
    .regex(/^([0-9.]+(?:e[0-9]+)?) ?(k|kb|m|mb|g|gb)?$/i, 'expected a size such as 512mb, 16mb or 5gb')
    .transform((s) => {
      const m = /^([0-9.]+(?:e[0-9]+)?) ?(k|kb|m|mb|g|gb)?$/i.exec(s)!;
      const unit = ((m[2] as string | undefined) ?? '').toLowerCase();
      const scale = unit.startsWith('g') ? 1024 ** 3 : unit.startsWith('m') ? 1024 ** 2 : unit.startsWith('k') ? 1024 : 1;
      return Math.round(Number(m[1]) * scale);
    }),
]);

/** A duration as Nixiesearch writes it: `5s`, `1m`, `2h`, `1d`; read as milliseconds. */
export const durationSchema = z
  .string()
  .regex(/^[0-9]+[smhd]$/, 'expected a duration such as 5s, 1m or 1h')
  .transform((s) => Number(s.slice(0, -1)) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[s.slice(-1) as 's' | 'm' | 'h' | 'd']);

/** `core` (CoreConfig.scala). */
const coreSchema = z.strictObject({
  host: z.string().min(1).optional(),
  port: z.number().int().min(1).max(65535).optional(),
  loglevel: z.enum(CORE_LOG_LEVELS).optional(),
  /** Yarrow sends no telemetry; the key is accepted so 0.8 configs load. */
  telemetry: z.union([z.boolean(), z.strictObject({ usage: z.boolean().optional() })]).optional(),
  cache: z.strictObject({ dir: z.string().min(1).optional() }).nullable().optional(),
});

const diskSchema = z.strictObject({ path: z.string().min(1).optional() }).nullable();
// `memory:` with nothing after it is YAML null.
const memorySchema = z.strictObject({}).nullable();

/** `disk: { path }` or `memory: {}`, exactly one. */
const localLocationSchema = z
  .strictObject({ disk: diskSchema.optional(), memory: memorySchema.optional() })
  .refine((l) => (l.disk !== undefined) !== (l.memory !== undefined), { message: 'expected exactly one of disk, memory' });

/**
 * A local location of a distributed store. Some 0.8 docs wrap it in `local:` (lambda.md), which the
 * 0.8 code rejects; Yarrow reads both.
 */
const distributedLocalSchema = z.union([localLocationSchema, z.strictObject({ local: localLocationSchema })]);

const s3Schema = z.strictObject({
  bucket: z.string().min(1),
  prefix: z.string().default(''),
  region: z.string().min(1).optional(),
  endpoint: z.string().min(1).optional(),
});

/** `remote`: `s3: {...}` or `disk: { path }` (a shared file system), exactly one. */
const remoteSchema = z
  .strictObject({ s3: s3Schema.optional(), disk: z.strictObject({ path: z.string().min(1) }).optional() })
  .refine((r) => (r.s3 !== undefined) !== (r.disk !== undefined), { message: 'expected exactly one of s3, disk' });

/** `store` of an index (StoreConfig.scala): `local` or `distributed`, exactly one. */
export const nixieStoreSchema = z
  .strictObject({
    local: localLocationSchema.optional(),
    distributed: z
      .strictObject({
        searcher: distributedLocalSchema.nullable().optional(),
        indexer: distributedLocalSchema.nullable().optional(),
        remote: remoteSchema,
      })
      .optional(),
  })
  .refine((s) => (s.local !== undefined) !== (s.distributed !== undefined), { message: 'expected exactly one of local, distributed' });

const tieredSchema = z.strictObject({
  segments_per_tier: z.number().int().min(1).optional(),
  max_merge_at_once: z.number().int().min(2).optional(),
  max_merged_segment_size: sizeSchema.optional(),
  floor_segment_size: sizeSchema.optional(),
  /** Accepted; Yarrow's merges do not plan for search concurrency. */
  target_search_concurrency: z.number().int().min(1).optional(),
});

const byteSizeSchema = z.strictObject({
  max_merge_size: sizeSchema.optional(),
  min_merge_size: sizeSchema.optional(),
  /** Accepted; a forced merge in Yarrow merges whatever it is asked to. */
  min_merge_size_for_forced_merge: sizeSchema.optional(),
});

const docCountSchema = z.strictObject({
  min_merge_docs: z.number().int().min(1).optional(),
  max_merge_docs: z.number().int().min(1).optional(),
});

/** `merge_policy` (MergePolicyConfig.scala): a name, or one key with its settings. */
export const mergePolicySchema = z.union([
  z.enum(['none', 'tiered', 'byte_size', 'doc_count']),
  z.strictObject({ none: z.unknown().optional(), tiered: tieredSchema.nullable().optional(), byte_size: byteSizeSchema.nullable().optional(), doc_count: docCountSchema.nullable().optional() })
    .refine((p) => Object.keys(p).length === 1, { message: 'expected exactly one of none, tiered, byte_size, doc_count' }),
]);

/** `config` of an index (IndexConfig.scala). */
const indexConfigSchema = z.strictObject({
  indexer: z
    .strictObject({
      flush: z.strictObject({ interval: durationSchema.optional() }).optional(),
      ram_buffer_size: sizeSchema.optional(),
      ramBufferSize: sizeSchema.optional(),
      merge_policy: mergePolicySchema.optional(),
    })
    .optional(),
  /** Accepted (`mmap` or `nio`); Yarrow reads index files its own way. */
  directory: z.enum(['mmap', 'nio']).optional(),
});

const nixieIndexSchema = z.strictObject({
  alias: aliasSchema.default([]),
  config: indexConfigSchema.optional(),
  store: nixieStoreSchema.optional(),
  /** Checked by the engine's `checkMapping`. */
  fields: z.unknown().optional(),
});

/** A whole config file in Nixiesearch's shape. `api` is Yarrow's own section, allowed in both shapes. */
export const nixiesearchConfigSchema = z
  .strictObject({
    core: coreSchema.nullable().optional(),
    /** Reserved and empty in 0.8. */
    searcher: z.strictObject({}).nullable().optional(),
    inference: inferenceSchema.optional(),
    api: configSchema.shape.api,
    schema: z.record(z.string(), nixieIndexSchema).nullable().default({}),
  })
  .superRefine((config, ctx) => {
    checkIndexNames(Object.keys(config.schema ?? {}), ctx);
  });

/** A validated file in Nixiesearch's shape. */
export type NixiesearchFileConfig = z.output<typeof nixiesearchConfigSchema>;
/** One index of it. */
export type NixiesearchIndex = z.output<typeof nixieIndexSchema>;
/** `store` of one index. */
export type NixiesearchStore = z.output<typeof nixieStoreSchema>;
/** `merge_policy`. */
export type NixiesearchMergePolicy = z.output<typeof mergePolicySchema>;
