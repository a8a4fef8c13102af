/**
 * Bundles the `yarrow` executable (src/cli.ts) into dist/cli.js and a few chunks next to it, so
 * that a process start reads a handful of files instead of resolving, reading and compiling the
 * ~500 modules of tsc's output and node_modules one by one (issue 17: most of `yarrow search`'s
 * time to its first answer was the module loader).
 *
 * - The executable, dist/cli.cjs (package.json "bin"), is src/cli.ts as one small CommonJS file:
 *   node starts it without its ES module loader. It loads main.ts (argv parsing, commander) from
 *   dist/cli-main-<hash>.cjs under V8's code cache, as below: `--help` loads those two files and
 *   nothing else. dist/cli.js, the executable's former name, is an ES module that runs it.
 * - The modes (src/cli/run-mode.ts and all it imports: config, storage, engine, server) are one
 *   CommonJS file, dist/cli-modes-<hash>.cjs, loaded with V8's code cache like the vendored packages
 *   below: on Node 20, compiling our own ES chunks was ~35 ms of every `yarrow search` start. The
 *   lazy imports inside it stay lazy (esbuild runs such a module's body on first import); the file
 *   lists the modules it ran, which test/e2e/cli/startup.test.ts reads, since one file holds every
 *   mode (dist/cli-meta.json, written here, tells which sources each other output holds).
 * - Packages that are native, optional or big and rarely used stay outside the bundle and are
 *   imported from node_modules when a mode needs them: the ONNX runtime, the AWS SDK, Kafka.
 * - The big packages the modes load after parsing argv (fastify, yaml, zod, pino) are bundled apart, each
 *   into one CommonJS file dist/cli-vendor-<name>-<hash>.cjs holding just the exports this code
 *   imports, and the chunks import them through src/cli/vendored.ts, which loads such a file with
 *   V8's code cache: on Node 20, which has no compile cache for modules, compiling them was half of
 *   what loading them cost a fresh `yarrow search` (issue 17).
 * - Chunks sit in dist/ itself, next to tsc's output of src/ (which stays: it is the library,
 *   `main`, and worker threads start from it). A module that finds files relative to
 *   `import.meta.url` (package.json, the built web page, the plant store's OpenAPI document,
 *   worker entry points, packages resolved with createRequire) is given the URL of its tsc output
 *   file instead, so every such path resolves exactly as it does unbundled.
 *
 * Run by `npm run build` after tsc.
 */
import { createHash } from 'node:crypto';
import { chmod, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const out = join(root, 'dist');

/** Prefix of the ES chunks earlier builds wrote (the CLI has none now), so that a rebuild removes them. */
const CHUNK_PREFIX = 'cli-chunk-';
/** Prefix of every vendored file's name (see {@link VENDORED}). */
const VENDOR_PREFIX = 'cli-vendor-';

/** The executable's file name in dist/ (package.json "bin"). */
const ENTRY = 'cli.cjs';

/** Prefix of the main file's name (see {@link cliMain}). */
const MAIN_PREFIX = 'cli-main-';

/** Prefix of the modes file's name (see {@link buildModes}). */
const MODES_PREFIX = 'cli-modes-';

/** Prefix of the bundled bulk-load thread's file name (see {@link buildBulkWorker}). */
const WORKER_PREFIX = 'cli-worker-';

/** Packages bundled apart into CommonJS files loaded with V8's code cache (src/cli/vendored.ts). */
const VENDORED = ['fastify', '@fastify/cors', 'yaml', 'zod', 'pino'];

/** Packages never bundled: native add-ons, optional dependencies, and clients only one mode uses. */
const EXTERNAL = ['onnxruntime-node', '@aws-sdk/*', '@smithy/*', '@platformatic/kafka', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler'];

/**
 * `import.meta.url` in src/<path>.ts -> the URL of dist/<path>.js, computed from the URL of the
 * output file (`base`: `import.meta.url` in an ES chunk, the file's own URL in the CommonJS modes file).
 */
function distUrlOfSource(base: string): esbuild.Plugin {
  return {
    name: 'dist-import-meta-url',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (!args.path.startsWith(src)) return undefined;
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        return { contents: rewriteImportMetaUrl(args.path, source, base), loader: 'ts' };
      });
    },
  };
}

/** `source` (of src/<path>.ts) with each `import.meta.url` made the URL of dist/<path>.js, relative to `base`. */
function rewriteImportMetaUrl(file: string, source: string, base: string): string {
  const distPath = relative(src, file).replaceAll('\\', '/').replace(/\.ts$/, '.js');
  return source.replaceAll('import.meta.url', `new URL(${JSON.stringify(`./${distPath}`)}, ${base}).href`);
}

/** The name of the symbol under which the modes file's exports list the modules it has run (see {@link recordEvaluation}). */
const EVALUATED_MODULES = 'yarrow.evaluatedModules';

/**
 * Appends to each module bundled into the modes file a call that records its path (relative to the
 * repository, as in dist/cli-meta.json) once its body has run; the list is exported under
 * Symbol.for({@link EVALUATED_MODULES}). One file holds every mode, so which modules a process
 * loaded is no longer which files it read: test/e2e/cli/startup.test.ts reads this list instead.
 * Runs after {@link distUrlOfSource} (which returns a source's contents itself when it rewrites them).
 */
const recordEvaluation: esbuild.Plugin = {
  name: 'record-evaluation',
  setup(build) {
    build.onLoad({ filter: /\.(ts|js|mjs|cjs)$/, namespace: 'file' }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const contents = args.path.startsWith(src) ? rewriteImportMetaUrl(args.path, source, '__yarrowModesUrl') : source;
      return { contents: `${contents}\n;__yarrowEvaluated(${JSON.stringify(relative(root, args.path).replaceAll('\\', '/'))});\n`, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
    });
  },
};

/** Every .ts file under `dir`, recursively. */
async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => join(e.parentPath, e.name));
}

/**
 * The names src imports from `pkg` as values (`{ a, b as c }`, a default import, the
 * properties read from a namespace import `* as z`, and the default of a dynamic import),
 * limited to those the package exports: what its vendored file must export.
 */
async function importedNames(pkg: string, files: ReadonlyMap<string, string>): Promise<string[]> {
  const names = new Set<string>();
  const from = new RegExp(`import\\s+(?!type\\s)([^;]*?)\\s+from\\s+'${pkg.replace(/[/.]/g, '\\$&')}'`, 'g');
  for (const text of files.values()) {
    for (const [, clause] of text.matchAll(from)) {
      const namespace = /\*\s+as\s+(\w+)/.exec(clause);
      if (namespace !== null) for (const [, name] of text.matchAll(new RegExp(`\\b${namespace[1]}\\.(\\w+)`, 'g'))) names.add(name);
      const braces = /\{([^}]*)\}/.exec(clause);
      for (const spec of braces?.[1].split(',') ?? []) {
        const name = spec.trim().split(/\s+as\s+/)[0];
        if (name !== '' && !name.startsWith('type ')) names.add(name);
      }
      if (/^\w+/.test(clause.trim())) names.add('default');
    }
    // A dynamic import (`app.register(import('@fastify/cors'))`) takes the default export.
    if (text.includes(`import('${pkg}')`)) names.add('default');
  }
  const exported = new Set(Object.keys((await import(pkg)) as object));
  return [...names].filter((n) => exported.has(n)).sort();
}

/**
 * Node built-ins a package requires at load but only calls for something Yarrow never does, by the
 * module that requires them: fastify's server module loads node:http2 and node:https for its
 * `http2` and `https` options (~12 ms of a fresh process's CPU, with tls), commander loads
 * node:child_process for executable subcommands (~3 ms, `--help` included). Issue 17.
 */
const LAZY_BUILTINS: readonly { readonly builtin: RegExp; readonly importer: RegExp }[] = [
  // node:dns too (~0.5 ms): fastify looks the host up only to bind every address of `localhost`.
  { builtin: /^node:(http2|https|dns)$/, importer: /[\\/]fastify[\\/]lib[\\/]server\.js$/ },
  { builtin: /^node:child_process$/, importer: /[\\/]commander[\\/]lib[\\/]command\.js$/ },
  // Loading node:crypto (all of it, webcrypto and x509 included) cost ~7 ms of `yarrow search`'s start,
  // for hashes only bearer tokens, lock files and line ids take, none on the way to a first answer.
  { builtin: /^node:crypto$/, importer: /[\\/]src[\\/]/ },
  // find-my-way and fastify check each route's options with assert() as routes are added (~2.5 ms
  // to load node:assert and its error classes), and it never fails for routes Yarrow declares.
  { builtin: /^node:assert$/, importer: /[\\/]node_modules[\\/](fastify|find-my-way|light-my-request)[\\/]/ },
];

/**
 * Packages a bundled package requires at load but calls only for something a Yarrow start never
 * does, by the module that requires them: fastify's plugin loader checks a plugin's declared
 * fastify version with semver, whose module bodies (~40 regular expressions built, every range
 * function loaded) were ~1.7 ms of each `yarrow search` start, for the CORS plugin alone (issue 17).
 * Each gets the stand-in of a CommonJS built-in in {@link lazyBuiltins}: a proxy that requires the
 * package, bundled as usual, on its first property read.
 */
const LAZY_PACKAGES: readonly { readonly pkg: RegExp; readonly importer: RegExp }[] = [
  { pkg: /^semver$/, importer: /[\\/]node_modules[\\/]fastify[\\/]lib[\\/]plugin-utils\.js$/ },
  // fastify's request module compiles a trust function with it only when `trustProxy` is set, which
  // Yarrow never sets; its module bodies (ipaddr.js's address tables, forwarded) were ~0.4-0.6 ms.
  { pkg: /^@fastify[\\/]proxy-addr$/, importer: /[\\/]node_modules[\\/]fastify[\\/]lib[\\/]request\.js$/ },
];

/** Resolves each of {@link LAZY_PACKAGES} to its stand-in (see there). */
const lazyPackages: esbuild.Plugin = {
  name: 'lazy-packages',
  setup(build) {
    build.onResolve({ filter: /^[@a-z]/ }, async (args) => {
      if (args.pluginData === 'lazy-package' || !LAZY_PACKAGES.some((l) => l.pkg.test(args.path) && l.importer.test(args.importer))) return undefined;
      const real = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'lazy-package' });
      if (real.errors.length > 0) return { errors: real.errors };
      // Relative to the repository, as esbuild names bundled files: the output must not depend on where the checkout is.
      return { path: relative(root, real.path).replaceAll('\\', '/'), namespace: 'lazy-package' };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => ({
      contents: `let real;\nconst load = () => (real ??= require(${JSON.stringify(join(root, args.path))}));\nmodule.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });\n`,
      resolveDir: root,
      loader: 'js',
    }));
  },
};

/**
 * The stand-in for node:assert: `assert(value, message)` on a truthy value does nothing, as the
 * real one does, without loading it; a falsy value (or no argument) calls the real one, which
 * throws its own error. Its methods (`assert.equal`, ...) load the real module.
 */
const LAZY_ASSERT = `let real;
const load = () => (real ??= require('node:assert'));
function assert(...args) {
  if (args.length === 0 || !args[0]) return Reflect.apply(load(), this, args);
}
module.exports = new Proxy(assert, { get: (_, key) => load()[key], has: (_, key) => key in load() });
`;

/**
 * Gives each of {@link LAZY_BUILTINS} a stand-in that requires the real module on first use: for a
 * CommonJS package a proxy that does so on the first property read; for our ES sources, whose named
 * imports esbuild copies from the module's own properties when it loads, a module exporting each
 * function of the built-in as a function that calls it (a name that is not a function of it fails
 * the build, as an import the module lacks).
 */
const lazyBuiltins: esbuild.Plugin = {
  name: 'lazy-builtins',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) => {
      if (!LAZY_BUILTINS.some((l) => l.builtin.test(args.path) && l.importer.test(args.importer))) return undefined;
      return { path: args.path, namespace: args.importer.startsWith(src) ? 'lazy-builtin-esm' : 'lazy-builtin' };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: args.path === 'node:assert' ? LAZY_ASSERT : `let real;\nconst load = () => (real ??= require(${JSON.stringify(args.path)}));\nmodule.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });\n`,
      loader: 'js',
    }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin-esm' }, async (args) => {
      const real = (await import(args.path)) as Record<string, unknown>;
      const functions = Object.keys(real).filter((name) => name !== 'default' && typeof real[name] === 'function');
      const lines = [`let real;`, `const load = () => (real ??= require(${JSON.stringify(args.path)}));`];
      for (const name of functions) lines.push(`export function ${name}(...args) { return load().${name}(...args); }`);
      return { contents: `${lines.join('\n')}\n`, loader: 'js' };
    });
  },
};

/**
 * `text` (a CommonJS bundle) with every non-ASCII character written as a `\\uXXXX` escape, so that
 * src/cli/vendored.ts reads it as a one-byte (latin1) string: decoding ~1.3 MB of UTF-8 holding a
 * handful of non-ASCII characters into a two-byte string cost 5-15 ms of every `yarrow search`
 * start, reading it as latin1 0.3 ms (issue 17). esbuild already escapes strings, identifiers and
 * cooked template text; what it leaves are regular expression literals (where the escape means the
 * same character, with or without the u or v flag) and comments. A raw template (`String.raw`, a
 * tagged template) would change meaning, and so would a character escaped by a backslash, so a
 * non-ASCII character on a code line with a backtick, or after a backslash, fails the build: write
 * that character as an escape in its source instead.
 */
function asciiOnly(text: string, file: string): string {
  const nonAscii = /[\u0080-\uffff]/;
  if (!nonAscii.test(text)) return text;
  text.split('\n').forEach((line, i) => {
    if (!nonAscii.test(line) || /^\s*(\/\/|\/\*|\*)/.test(line) || (!line.includes('`') && !/\\[\u0080-\uffff]/.test(line))) return;
    throw new Error(`${file}:${String(i + 1)}: a non-ASCII character on a line with a template literal, or after a backslash; write it as an escape in its source`);
  });
  // One escape per UTF-16 unit: a character outside the BMP becomes its surrogate pair, which a
  // regular expression with the u or v flag reads as the one character.
  return text.replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Bundles `pkg`'s `names` into dist/cli-vendor-<name>-<hash>.cjs; resolves to the file name and its inputs. */
async function buildVendored(pkg: string, names: readonly string[]): Promise<{ file: string; inputs: string[] }> {
  const built = await esbuild.build({
    stdin: { contents: `export { ${names.join(', ')} } from '${pkg}';\n`, resolveDir: root, loader: 'js', sourcefile: `vendored-${pkg}.js` },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.19',
    external: EXTERNAL,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    write: false,
    plugins: [lazyBuiltins, lazyPackages],
  });
  const text = asciiOnly(built.outputFiles[0].text, `vendored ${pkg}`);
  const file = `${VENDOR_PREFIX}${pkg.replace(/^@/, '').replace('/', '-')}-${createHash('sha256').update(text).digest('hex').slice(0, 10)}.cjs`;
  await writeFile(join(out, file), text);
  return { file, inputs: Object.keys(built.metafile.inputs).filter((i) => !i.startsWith('<stdin>') && !i.startsWith('vendored-')).sort() };
}

/** Resolves each vendored package, imported from src, to a module that takes its exports from the vendored file. */
function vendoredImports(files: ReadonlyMap<string, { file: string; names: readonly string[] }>): esbuild.Plugin {
  const loader = join(src, 'cli', 'vendored.ts');
  return {
    name: 'vendored-imports',
    setup(build) {
      build.onResolve({ filter: /^[@a-z]/ }, (args) => (files.has(args.path) ? { path: args.path, namespace: 'vendored' } : undefined));
      build.onLoad({ filter: /.*/, namespace: 'vendored' }, (args) => {
        const { file, names } = files.get(args.path)!;
        const lines = [`import { loadVendored } from ${JSON.stringify(loader)};`, `const m = loadVendored(${JSON.stringify(file)});`];
        names.forEach((name, i) => { lines.push(`const v${String(i)} = m[${JSON.stringify(name)}];`); });
        lines.push(`export { ${names.map((name, i) => `v${String(i)} as ${name}`).join(', ')} };`);
        return { contents: lines.join('\n'), resolveDir: src, loader: 'js' };
      });
    },
  };
}

for (const name of await readdir(out)) if ([CHUNK_PREFIX, MAIN_PREFIX, VENDOR_PREFIX, MODES_PREFIX, WORKER_PREFIX].some((prefix) => name.startsWith(prefix))) await rm(join(out, name));

const srcFiles = new Map<string, string>();
for (const file of await sources(src)) if (!file.startsWith(join(src, 'ui'))) srcFiles.set(file, await readFile(file, 'utf8'));
const vendored = new Map<string, { file: string; names: string[]; inputs: string[] }>();
for (const pkg of VENDORED) {
  const names = await importedNames(pkg, srcFiles);
  vendored.set(pkg, { names, ...(await buildVendored(pkg, names)) });
}

/**
 * Bundles `entry` (one of our sources) and all it imports into one CommonJS file,
 * dist/<prefix><hash>.cjs, which src/cli/vendored.ts loads with V8's code cache; resolves to the
 * file name and its inputs. `options` add what one bundle needs (its banner, defines, plugins).
 */
async function bundleCommonJs(entry: string, prefix: string, options: Pick<esbuild.BuildOptions, 'banner' | 'define' | 'footer' | 'plugins'>): Promise<{ file: string; inputs: string[] }> {
  const built = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.19',
    external: EXTERNAL,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    // import.meta.resolve appears only on paths taken when running from .ts sources.
    logOverride: { 'import-is-undefined': 'error', 'empty-import-meta': 'silent' },
    write: false,
    outdir: out,
    ...options,
  });
  const text = asciiOnly(built.outputFiles[0].text, prefix);
  const file = `${prefix}${createHash('sha256').update(text).digest('hex').slice(0, 10)}.cjs`;
  await writeFile(join(out, file), text);
  return { file, inputs: Object.keys(built.metafile.inputs).sort() };
}

/**
 * The bulk-load thread of `index file` (src/engine/commit/bulk-load-worker.ts and all it imports)
 * as one file, dist/cli-worker-bulk-load-<hash>.cjs, which src/cli/bulk-worker-entry.ts loads with
 * V8's code cache: started from tsc's output, each thread spent ~100 ms loading ~170 modules
 * before its first chunk (issue 17). node:crypto loads on first use (line ids of documents
 * without `_id`), as in the modes.
 */
const bulkWorkerCode = await bundleCommonJs(join(src, 'engine', 'commit', 'bulk-load-worker.ts'), `${WORKER_PREFIX}bulk-load-`, {
  // The URL of this file, for the import.meta.url of each source bundled into it (distUrlOfSource).
  banner: { js: 'const __yarrowWorkerUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [distUrlOfSource('__yarrowWorkerUrl'), lazyBuiltins],
});

/**
 * The thread's entry, src/cli/bulk-worker-entry.ts with vendored.ts, as a small CommonJS file,
 * dist/cli-worker-bulk-entry-<hash>.cjs, that knows the code's file name: a thread started from
 * it skips node's ES module loader (issue 17: the threads' start is on the way to the first
 * chunk). The modes learn its name as YARROW_BULK_WORKER_BUNDLE (src/cli/modes/index-file-mode.ts).
 */
const bulkWorker = await bundleCommonJs(join(src, 'cli', 'bulk-worker-entry.ts'), `${WORKER_PREFIX}bulk-entry-`, {
  define: { YARROW_BULK_WORKER_CODE: JSON.stringify(bulkWorkerCode.file) },
  banner: { js: 'const __yarrowWorkerEntryUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [distUrlOfSource('__yarrowWorkerEntryUrl')],
});

/**
 * Bundles src/cli/run-mode.ts (the modes and all they import: config, storage, engine, server)
 * into one CommonJS file dist/cli-modes-<hash>.cjs, which src/cli/vendored.ts loads under V8's
 * code cache as it does the vendored packages: compiling these ~1 MB of our own code was ~35 ms
 * of each `yarrow search` start on Node 20 (issue 17). One file and one copy of each class: the
 * errors a mode throws are checked by run-mode.ts, in the same file. Its lazy imports (the plant
 * store, the embedding runtime, Kafka, S3) stay lazy: esbuild runs such a module's body on the
 * first import.
 */
function buildModes(): Promise<{ file: string; inputs: string[] }> {
  return bundleCommonJs(join(src, 'cli', 'run-mode.ts'), MODES_PREFIX, {
    define: { YARROW_BULK_WORKER_BUNDLE: JSON.stringify(bulkWorker.file), YARROW_CONFIG_BUILD_ID: JSON.stringify(configBuildId()) },
    // The URL of this file, for the import.meta.url of each source bundled into it (distUrlOfSource).
    banner: { js: 'const __yarrowModesUrl = require("node:url").pathToFileURL(__filename).href;\nconst __yarrowEvaluatedModules = [];\nconst __yarrowEvaluated = (path) => { __yarrowEvaluatedModules.push(path); };' },
    footer: { js: `Object.defineProperty(module.exports, Symbol.for(${JSON.stringify(EVALUATED_MODULES)}), { value: __yarrowEvaluatedModules });` },
    plugins: [vendoredImports(vendored), lazyBuiltins, recordEvaluation],
  });
}
const modes = await buildModes();

/**
 * The build's identity for the config cache (src/config/config-cache.ts): a hash of every source
 * file and of the vendored packages (their file names hash their contents), so that an entry made
 * by another build, whose config schema or defaults may differ, is never used.
 */
function configBuildId(): string {
  const hash = createHash('sha256');
  for (const [file, text] of [...srcFiles].sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(`${relative(src, file)}\0${text}\0`);
  for (const { file } of vendored.values()) hash.update(`${file}\0`);
  return hash.digest('hex').slice(0, 16);
}

/** Resolves main.ts's import of ./run-mode.js to a module that takes runMode from the modes file. */
const modesImport: esbuild.Plugin = {
  name: 'modes-import',
  setup(build) {
    build.onResolve({ filter: /^\.\/run-mode\.js$/ }, (args) => (args.importer === join(src, 'cli', 'main.ts') ? { path: 'run-mode', namespace: 'modes' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'modes' }, () => ({
      // The mode names the file's code cache: each mode's cache holds the code that mode runs (vendored.ts).
      contents: `import { loadVendored } from ${JSON.stringify(join(src, 'cli', 'vendored.ts'))};\nexport const runMode = (invocation, io) => loadVendored(${JSON.stringify(modes.file)}, invocation.mode).runMode(invocation, io);\n`,
      resolveDir: src,
      loader: 'js',
    }));
  },
};

/**
 * Resolves src/cli.ts's import of ./cli/index.js to a module that takes runCli from the main file
 * (see {@link cliMain}), loaded under its code cache when the entry imports it. Each mode keeps a
 * cache of its own, as with the modes file, and `--help` and `--version` another: they run
 * different parts of commander.
 */
const mainImport: esbuild.Plugin = {
  name: 'main-import',
  setup(build) {
    build.onResolve({ filter: /^\.\/cli\/index\.js$/ }, (args) => (args.importer === join(src, 'cli.ts') ? { path: 'cli-main', namespace: 'cli-main' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'cli-main' }, () => ({
      contents: [
        `import { loadVendored } from ${JSON.stringify(join(src, 'cli', 'vendored.ts'))};`,
        // Help and version runs keep their own cache: in a mode's, they would leave out its parsing and start.
        `const mode = process.argv.includes('--help') || process.argv.includes('--version') ? 'other' : process.argv[2];`,
        `const m = loadVendored(${JSON.stringify(cliMain.file)}, ['index', 'api', 'standalone', 'search'].includes(mode) ? mode : 'other');`,
        `export const runCli = m.runCli;`,
      ].join('\n'),
      resolveDir: src,
      loader: 'js',
    }));
  },
};

/**
 * The CLI after its entry: src/cli/main.ts (argv parsing with commander, 141 KB) as one CommonJS
 * file, dist/cli-main-<hash>.cjs, loaded under V8's code cache like the modes file (issue 17: as
 * an ES chunk it was compiled on every start, ~5-8 ms of CPU on Node 20, which has no compile
 * cache for ES modules). It takes runMode from the modes file when a mode runs.
 */
const cliMain = await bundleCommonJs(join(src, 'cli', 'main.ts'), MAIN_PREFIX, {
  banner: { js: '"use strict";\nconst __yarrowMainUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [distUrlOfSource('__yarrowMainUrl'), modesImport, lazyBuiltins],
});

/**
 * The executable, dist/cli.cjs (package.json "bin"): src/cli.ts as CommonJS, with the code it runs
 * before the main file (start flags, the bulk threads' early start, the code cache loader). A
 * CommonJS entry spares node's ES module loader, which an ES entry starts for itself and its
 * chunks (~5 ms of CPU of every start, `--help` included; issue 17). esbuild keeps its shebang.
 */
const entry = await esbuild.build({
  entryPoints: [join(src, 'cli.ts')],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.19',
  outfile: join(out, ENTRY),
  external: EXTERNAL,
  // Not minified: a stack trace (`--loglevel debug`) names functions and lines one can read.
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  logOverride: { 'import-is-undefined': 'error', 'empty-import-meta': 'silent' },
  write: false,
  // The URL of this file, for the import.meta.url of each source bundled into it (distUrlOfSource).
  banner: { js: '"use strict";\nconst __yarrowCliUrl = require("node:url").pathToFileURL(__filename).href;' },
  // The bulk-load threads of `index file` start from the entry (src/cli/bulk-prestart.ts).
  define: { YARROW_BULK_WORKER_BUNDLE: JSON.stringify(bulkWorker.file) },
  plugins: [distUrlOfSource('__yarrowCliUrl'), mainImport, lazyBuiltins],
});
const entryText = asciiOnly(entry.outputFiles[0].text, ENTRY);
await writeFile(join(out, ENTRY), entryText, { mode: 0o755 });
await chmod(join(out, ENTRY), 0o755);

/**
 * dist/cli.js, which scripts, benches and users may still run by that name (tsc writes its own
 * output of src/cli.ts there): an ES module that runs the executable, with the same shebang.
 */
const shebang = (await readFile(join(src, 'cli.ts'), 'utf8')).split('\n', 1)[0];
await writeFile(join(out, 'cli.js'), `${shebang}\n// The executable is dist/cli.cjs (package.json "bin", scripts/build-cli.ts); this runs it by its old name.\nimport './${ENTRY}';\n`, { mode: 0o755 });
await chmod(join(out, 'cli.js'), 0o755);

/** Which sources each output holds, by output file name: the start-up test's map from chunks to modules. */
const meta: Record<string, string[]> = {};
meta[ENTRY] = Object.keys(entry.metafile.inputs).sort();
for (const { file, inputs } of [...vendored.values(), cliMain, modes, bulkWorkerCode, bulkWorker]) meta[file] = inputs;
await writeFile(join(out, 'cli-meta.json'), `${JSON.stringify(meta, null, 1)}\n`);

console.log(`CLI bundled in dist: ${ENTRY} (${(entryText.length / 1024).toFixed(0)} KB), ${cliMain.file}, ${modes.file}; vendored: ${[...vendored.values()].map((v) => v.file).join(', ')}`);
