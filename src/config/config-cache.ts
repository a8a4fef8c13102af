/**
 * A cache of validated configs, so that a start of the built CLI whose config, environment and
 * build are those of an earlier start loads neither the YAML parser nor zod (issue 17: `yarrow
 * search`'s start to first answer; the two packages' module bodies and the parse were ~15-20 ms of
 * its CPU).
 *
 * An entry holds what {@link parseConfigParts} made of one config text, serialized with V8's
 * structured clone, next to the CLI's V8 code caches (NODE_COMPILE_CACHE, else
 * `<tmpdir>/node-compile-cache`; none under NODE_DISABLE_COMPILE_CACHE). It is used only when all
 * of these equal what it was made from, compared in full (the file name is only a hash of them):
 * - the build (YARROW_CONFIG_BUILD_ID, a hash of every source file and vendored package, defined
 *   by scripts/build-cli.ts; absent when running from sources or tsc's output, where nothing is
 *   cached);
 * - the node version (the serialization format);
 * - the config text, byte for byte;
 * - what each `${VAR}` reference of the text substitutes to in this environment (or that it
 *   fails), which is all the environment a parse reads besides the `YARROW_CORE_*` /
 *   `NIXIESEARCH_CORE_*` overrides; those are applied again on every load, to the `core` section
 *   the file gave.
 * A miss, an unreadable or foreign entry (another owner), or anything unexpected takes the normal
 * path, which writes the entry when the config is valid and its parse survives the round trip
 * through the serializer unchanged. Invalid configs are never cached: their errors come from the
 * normal path.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { deserialize, serialize } from 'node:v8';
import { checkMapping, MappingProblems } from '../engine/index.js';
import type { Mapping } from '../engine/index.js';
import type { Config } from './config-model.js';
import { applyCoreEnv } from './core-env.js';
import { substituteEnv, SubstitutionError, TEXT_REFERENCE } from './env-substitution.js';
import type { Env, LoadedConfig, ParsedConfigParts } from './load-config.js';
import { fnv1aHex } from './text-hash.js';

/** The build's identity, defined by scripts/build-cli.ts in the bundled CLI only. */
declare const YARROW_CONFIG_BUILD_ID: string | undefined;

/** Bumped when an entry's layout changes. */
const ENTRY_VERSION = 1;

/** Where the cache lives and which build it is for; null: no caching. */
export interface ConfigCacheOptions {
  readonly dir: string;
  readonly build: string;
}

/** What an entry must match, compared in full. */
interface EntryKey {
  readonly version: number;
  readonly node: string;
  readonly build: string;
  readonly text: string;
  /** Per `${...}` reference of the text, in order: what it substitutes to, or null when that fails. */
  readonly substitutions: readonly (string | null)[];
}

/** An entry: its key and what the parse made. */
interface Entry {
  readonly key: EntryKey;
  /** The config with the `core` section the file gave (the environment's overrides are applied on load). */
  readonly config: Config;
  readonly fieldSpecs: readonly (readonly [string, unknown])[];
}

/**
 * The cache of the bundled CLI: beside node's compile cache, for this build; null when running
 * from sources or when compile caching is turned off (NODE_DISABLE_COMPILE_CACHE).
 */
export function defaultConfigCache(env: Env = process.env): ConfigCacheOptions | null {
  if (typeof YARROW_CONFIG_BUILD_ID !== 'string') return null;
  const disabled = env.NODE_DISABLE_COMPILE_CACHE;
  if (disabled !== undefined && disabled !== '') return null;
  return { dir: join(env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'node-compile-cache'), 'yarrow-config'), build: YARROW_CONFIG_BUILD_ID };
}

/**
 * Reads and validates the config file at `file`, as `loadConfig` of load-config.ts does, from the
 * cache when it holds this text for this environment and build (see the module comment).
 * @throws ConfigError when the file cannot be read or is not a valid config.
 */
export async function loadConfigCached(file: string, env: Env = process.env, cache: ConfigCacheOptions | null = defaultConfigCache(env)): Promise<LoadedConfig> {
  if (cache === null) return (await import('./load-config.js')).loadConfig(file, env);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    // The normal path reads it again and reports why it cannot.
    return (await import('./load-config.js')).loadConfig(file, env);
  }
  const key: EntryKey = { version: ENTRY_VERSION, node: process.version, build: cache.build, text, substitutions: substitutionsOf(text, env) };
  const path = join(cache.dir, `${fnv1aHex(JSON.stringify(key))}.v8`);
  const hit = fromEntry(readEntry(path, key), file, env);
  if (hit !== undefined) return hit;
  const parts = (await import('./load-config.js')).parseConfigParts(text, file, env);
  writeEntry(path, key, parts);
  return parts.loaded;
}

/**
 * What each `${...}` reference of `text` substitutes to in `env`, or null where it fails: the
 * references the parser masks (load-config.ts, maskReferences), each substituted the same way.
 */
function substitutionsOf(text: string, env: Env): (string | null)[] {
  const out: (string | null)[] = [];
  for (const [ref] of text.matchAll(TEXT_REFERENCE)) {
    if (ref === '$${') continue;
    try {
      out.push(substituteEnv(ref, env));
    } catch (e) {
      if (!(e instanceof SubstitutionError)) throw e;
      out.push(null);
    }
  }
  return out;
}

/** The entry at `path` when it is this user's and its key is `key`, else undefined. */
function readEntry(path: string, key: EntryKey): Entry | undefined {
  try {
    // An entry another user could have written is not trusted (a shared temp directory).
    if (typeof process.getuid === 'function' && statSync(path).uid !== process.getuid()) return undefined;
    const entry = deserialize(readFileSync(path)) as Entry;
    return isDeepStrictEqual(entry.key, key) ? entry : undefined;
  } catch {
    return undefined;
  }
}

/** The loaded config of a cached entry, with this environment's `core` overrides; undefined when anything is off. */
function fromEntry(entry: Entry | undefined, file: string, env: Env): LoadedConfig | undefined {
  if (entry === undefined) return undefined;
  // A problem with an override is reported by the normal path, with the file's other problems.
  const { core, problems } = applyCoreEnv(entry.config.core, env);
  if (problems.length > 0) return undefined;
  const mappings = new Map<string, Mapping>();
  for (const [name, fields] of entry.fieldSpecs) {
    const found = new MappingProblems();
    const mapping = checkMapping({ fields }, `schema.${name}`, found);
    if (found.list.length > 0) return undefined;
    if (mapping !== undefined) mappings.set(name, mapping);
  }
  return { file, config: { ...entry.config, core }, mappings };
}

/**
 * Writes the entry of a valid parse atomically (another process may write the same file), unless
 * the parse does not come back from the serializer unchanged; failing is harmless.
 */
function writeEntry(path: string, key: EntryKey, parts: ParsedConfigParts): void {
  try {
    // `core` in its place, so that a hit's config has its keys in the parse's order.
    const entry: Entry = { key, config: { ...parts.loaded.config, core: parts.fileCore }, fieldSpecs: parts.fieldSpecs };
    const bytes = serialize(entry);
    if (!isDeepStrictEqual(deserialize(bytes), entry)) return;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const temp = `${path}.${String(process.pid)}.tmp`;
    writeFileSync(temp, bytes, { mode: 0o600 });
    renameSync(temp, path);
  } catch {
    // A read-only or full directory, or a value the serializer does not take: parsed again next time.
  }
}
