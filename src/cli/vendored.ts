/**
 * Loads the CLI's vendored packages (fastify, yaml, zod, pino: scripts/build-cli.ts bundles each
 * into one CommonJS file, dist/cli-vendor-<name>-<hash>.cjs) and its modes (our own code, one
 * CommonJS file dist/cli-modes-<hash>.cjs) with V8's code cache, so that a process start
 * deserializes their compiled code instead of parsing and compiling ~2.5 MB of JavaScript again
 * (issue 17: about half of the CPU `yarrow search` spent loading them).
 *
 * Node >= 22.1 has its own compile cache (`module.enableCompileCache`, turned on by src/cli.ts),
 * which covers files loaded with `require`: there the file is simply required. Node 20 has none
 * for modules, but `vm.Script` takes and produces V8 code caches; this module keeps them where
 * node's own cache lives (NODE_COMPILE_CACHE, else `<tmpdir>/node-compile-cache`), one file per
 * node version, architecture, node options and the V8 flags the entry set at start (V8 rejects a cache made under other flags, so a process
 * started with other options must not overwrite it) and vendored file (whose name carries its
 * content hash), honouring NODE_DISABLE_COMPILE_CACHE as node does. A cache is written at exit when there was none or V8
 * rejected it (another node, other flags), so it holds the functions that run compiled too. A
 * missing, unreadable or rejected cache only costs the compile: the code runs the same.
 */
import { isAscii } from 'node:buffer';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { fnv1aHex } from '../config/text-hash.js';

const require = createRequire(import.meta.url);

/** The directory holding dist/cli.js and its vendored files (this module sits in dist/cli/). */
const distDir = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * The exports of a vendored file, by its name in dist/ (`cli-vendor-zod-<hash>.cjs`); loaded once
 * per process and kept in the CommonJS cache like any required module.
 *
 * `cacheVariant` names a code cache of its own for the file (Node 20): the modes file passes the
 * mode. A cache holds what the run that wrote it compiled, and an accepted cache is never written
 * again, so with one cache for all modes a `yarrow search` after the first `index file` of a build
 * compiled its server code on every start (~5-9 ms of CPU, issue 17).
 */
export function loadVendored(file: string, cacheVariant?: string): Record<string, unknown> {
  const path = join(distDir, file);
  const cached = require.cache[path];
  if (cached !== undefined) return cached.exports as Record<string, unknown>;
  if (typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function') return require(path) as Record<string, unknown>;
  return runWithCodeCache(path, cacheVariant === undefined ? file : file.replace(/\.cjs$/, `.${cacheVariant.replace(/[^\w-]/g, '-')}.cjs`));
}

/**
 * Like {@link loadVendored}, for a worker thread: a worker stopped by `terminate()` runs no `exit`
 * handler, so the caller writes the code cache itself, once the code it wants cached has run
 * (`writeCodeCache` does nothing when the cache was accepted or caching is off).
 */
export function loadVendoredInWorker(file: string): { readonly exports: Record<string, unknown>; readonly writeCodeCache: () => void } {
  const path = join(distDir, file);
  const compileCache = module as { enableCompileCache?: () => unknown; flushCompileCache?: () => void };
  if (typeof compileCache.enableCompileCache === 'function') {
    compileCache.enableCompileCache();
    return { exports: require(path) as Record<string, unknown>, writeCodeCache: () => { compileCache.flushCompileCache?.(); } };
  }
  let save = (): void => undefined;
  const exports = runWithCodeCache(path, file, (write) => { save = write; });
  return { exports, writeCodeCache: () => { save(); } };
}

/** Whether this run's code caches would be partial, shared by every bundled copy of this module (the entry's, the modes file's). */
const RUN_GOAL = Symbol.for('yarrow.codeCacheRunGoal');

function runGoal(): { pending: boolean } {
  const global = globalThis as unknown as Record<symbol, { pending: boolean } | undefined>;
  return (global[RUN_GOAL] ??= { pending: false });
}

/**
 * Declares that the code caches this process writes at exit hold what a start needs only once the
 * returned function has been called (a server: after its first answer). A cache holds what the
 * run that wrote it compiled, and an accepted one is never written again: a first `yarrow search`
 * of a build that failed or was stopped before answering left a cache without the code of the
 * first query, which every later start then compiled (~4 ms of CPU, issue 17). Until the call,
 * caches are written as partial ones, which a later run reads and replaces once it gets there.
 */
export function codeCacheCompleteWhen(): () => void {
  const goal = runGoal();
  goal.pending = true;
  return () => { goal.pending = false; };
}

/**
 * Compiles `path` as CommonJS with the code cache of `file`, runs it and registers its module.
 * When the cache is missing, rejected or partial (see {@link codeCacheCompleteWhen}), the function
 * that writes it goes to `saveLater` (default: run at the process's exit).
 */
function runWithCodeCache(path: string, file: string, saveLater: (write: () => void) => void = (write) => { process.once('exit', write); }): Record<string, unknown> {
  const cacheFile = codeCachePath(file);
  const partialFile = cacheFile?.replace(/\.v8cache$/, '.partial.v8cache');
  let cachedData: Buffer | undefined;
  let partial = false;
  if (cacheFile !== null && partialFile !== undefined) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      try {
        cachedData = readFileSync(partialFile);
        partial = true;
      } catch {
        // No cache yet: compiled from source, and cached at exit.
      }
    }
  }
  const script = new Script(module.wrap(sourceOf(readFileSync(path))), { filename: path, ...(cachedData === undefined ? {} : { cachedData }) });
  const mod = new module(path);
  mod.filename = path;
  require.cache[path] = mod;
  try {
    (script.runInThisContext() as (...args: unknown[]) => void).call(mod.exports, mod.exports, createRequire(path), mod, path, dirname(path));
  } catch (e) {
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- a module that failed must not stay cached, as with require
    delete require.cache[path];
    throw e;
  }
  mod.loaded = true;
  if (cacheFile !== null && partialFile !== undefined && (cachedData === undefined || partial || script.cachedDataRejected === true)) {
    saveLater(() => {
      const complete = !runGoal().pending;
      // A run that got no further than the partial cache's writer leaves it as it is.
      if (partial && script.cachedDataRejected !== true && !complete) return;
      writeCodeCache(complete ? cacheFile : partialFile, script);
    });
  }
  return mod.exports as Record<string, unknown>;
}

/**
 * The text of a bundled file: scripts/build-cli.ts writes them as ASCII, which is read as a latin1
 * (one-byte) string in a copy; UTF-8 decoding of ~1.3 MB with a few non-ASCII characters made a
 * two-byte string and cost 5-15 ms of a start (issue 17). Any other file is decoded as UTF-8.
 */
function sourceOf(bytes: Buffer): string {
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

/** Where the code cache of vendored `file` lives, or null when compile caching is turned off. */
function codeCachePath(file: string): string | null {
  const disabled = process.env.NODE_DISABLE_COMPILE_CACHE;
  if (disabled !== undefined && disabled !== '') return null;
  const root = process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'node-compile-cache');
  // The flags the entry set at start count like node's own: the modes with and without them keep
  // apart caches, instead of rejecting and replacing each other's. Read from the variable itself
  // (START_V8_FLAGS_ENV of src/cli/start-v8-flags.ts): importing that module here, into another of
  // the bundle's chunks than the entry, would put it into a chunk of its own, one more file to load.
  const flags = fnv1aHex([...process.execArgv, ...(process.env.YARROW_START_V8_FLAGS ?? '').split(' ').filter((f) => f !== '')].join('\0'));
  return join(root, `yarrow-${process.version}-${process.arch}-${flags}`, file.replace(/\.cjs$/, '.v8cache'));
}

/** Writes the cache atomically (another process may write the same file); failing is harmless. */
function writeCodeCache(cacheFile: string, script: Script): void {
  try {
    mkdirSync(dirname(cacheFile), { recursive: true });
    const temp = `${cacheFile}.${String(process.pid)}.tmp`;
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, cacheFile);
  } catch {
    // A read-only or full temp directory: the next start compiles again.
  }
}
