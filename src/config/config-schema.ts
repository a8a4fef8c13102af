/**
 * The config file's schema (SPEC §2) as zod: the TypeScript type is inferred from it and the
 * defaults live in it. Field mappings are checked here structurally, then once more by the engine's
 * own `parseMapping` (analyzer names, `_id` rules, nesting), which stays the authority.
 */
import { z } from 'zod';
import { analyzerNames } from '../engine/index.js';

const scalarTypes = ['int', 'long', 'float', 'double', 'bool', 'date', 'datetime'] as const;

/** Field types a mapping accepts, in the order the engine lists them. */
export const FIELD_TYPES = ['id', 'text', 'text[]', ...scalarTypes, ...scalarTypes.map((t) => `${t}[]` as const)] as const;

/** Where indexes live when the config says nothing. */
export const DEFAULT_STORE_PATH = './yarrow-data';

/** A directory name that is safe on every file system and in object-storage keys. */
const indexNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

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

const searchSchema = z.union([
  z.boolean(),
  z.strictObject({ lexical: z.strictObject({ analyze: z.enum(analyzerNames as [string, ...string[]]).default('standard') }) }),
]);

const fieldSchema = z.strictObject({
  type: z.enum(FIELD_TYPES),
  store: z.boolean().default(true),
  filter: z.boolean().default(false),
  facet: z.boolean().default(false),
  sort: z.boolean().default(false),
  required: z.boolean().default(false),
  search: searchSchema.optional(),
});

const indexSchema = z.strictObject({
  fields: z.record(z.string(), fieldSchema),
  /** Overrides the top-level `store` for this index. */
  store: storeSchema.optional(),
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
        /** Where the sample plant store keeps its index (default: the top-level `store`). */
        plants: z.strictObject({ store: storeSchema.optional() }).optional(),
      })
      .optional(),
    indexing: z
      .strictObject({
        /** Flush the write buffer into a segment once it holds about this many MB. */
        buffer_mb: z.number().positive().default(DEFAULT_BUFFER_MB),
        /** Merges never produce a larger segment: a merge holds its sources and its result in memory. */
        max_merged_segment_mb: z.number().positive().default(DEFAULT_MAX_MERGED_SEGMENT_MB),
      })
      .default({ buffer_mb: DEFAULT_BUFFER_MB, max_merged_segment_mb: DEFAULT_MAX_MERGED_SEGMENT_MB }),
    schema: z.record(z.string(), indexSchema).default({}),
  })
  .superRefine((config, ctx) => {
    for (const name of Object.keys(config.schema)) {
      if (!indexNamePattern.test(name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['schema', name],
          message: 'index names use letters, digits, "_", "." and "-", start with a letter or digit, and have at most 128 characters',
        });
      }
    }
  });

/** A validated config with every default filled in. */
export type Config = z.output<typeof configSchema>;

/** The `store` section (or a per-index override). */
export type StoreConfig = z.output<typeof storeSchema>;

/** The `indexing` section. */
export type IndexingConfig = Config['indexing'];

/** One index of the `schema` section. */
export type IndexConfig = Config['schema'][string];
