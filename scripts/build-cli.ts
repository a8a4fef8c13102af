/**
 * Bundles the `yarrow` executable (src/cli.ts) into dist/cli.js and a few chunks next to it, so
 * that a process start reads a handful of files instead of resolving, reading and compiling the
 * ~500 modules of tsc's output and node_modules one by one (issue 17: most of `yarrow search`'s
 * time to its first answer was the module loader).
 *
 * - Code splitting keeps the CLI's lazy imports lazy: `--help` loads the entry and commander's
 *   chunk, `index file` never loads the server's chunk, and so on (test/e2e/cli/startup.test.ts
 *   reads dist/cli-meta.json, written here, to tell which sources a chunk holds).
 * - Packages that are native, optional or big and rarely used stay outside the bundle and are
 *   imported from node_modules when a mode needs them: the ONNX runtime, the AWS SDK, Kafka.
 * - Chunks sit in dist/ itself, next to tsc's output of src/ (which stays: it is the library,
 *   `main`, and worker threads start from it). A module that finds files relative to
 *   `import.meta.url` (package.json, the built web page, the plant store's OpenAPI document,
 *   worker entry points, packages resolved with createRequire) is given the URL of its tsc output
 *   file instead, so every such path resolves exactly as it does unbundled.
 *
 * Run by `npm run build` after tsc.
 */
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const out = join(root, 'dist');

/** Prefix of every chunk's file name, so that a rebuild can remove the previous build's chunks. */
const CHUNK_PREFIX = 'cli-chunk-';

/** Packages never bundled: native add-ons, optional dependencies, and clients only one mode uses. */
const EXTERNAL = ['onnxruntime-node', '@aws-sdk/*', '@smithy/*', '@platformatic/kafka', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler'];

/** `import.meta.url` in src/<path>.ts -> the URL of dist/<path>.js, computed from the chunk's own URL. */
const distUrlOfSource: esbuild.Plugin = {
  name: 'dist-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!args.path.startsWith(src)) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const distPath = relative(src, args.path).replaceAll('\\', '/').replace(/\.ts$/, '.js');
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(`./${distPath}`)}, import.meta.url).href`), loader: 'ts' };
    });
  },
};

for (const name of await readdir(out)) if (name.startsWith(CHUNK_PREFIX)) await rm(join(out, name));

const result = await esbuild.build({
  entryPoints: { cli: join(src, 'cli.ts') },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  outdir: out,
  chunkNames: `${CHUNK_PREFIX}[hash]`,
  external: EXTERNAL,
  // Bundled CommonJS packages call require() for node's built-ins and for each other's optional
  // parts; in an ES module that needs a real require, relative to the chunk (which sits in dist/,
  // so it resolves packages from the package's node_modules as tsc's output does).
  banner: { js: "import { createRequire as __yarrowCreateRequire } from 'node:module'; const require = __yarrowCreateRequire(import.meta.url);" },
  // Not minified: a stack trace (`--loglevel debug`) names functions and lines one can read.
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  plugins: [distUrlOfSource],
});

/** Which sources each output holds, by output file name: the start-up test's map from chunks to modules. */
const meta: Record<string, string[]> = {};
for (const [file, output] of Object.entries(result.metafile.outputs)) meta[relative(out, join(root, file))] = Object.keys(output.inputs).sort();
await writeFile(join(out, 'cli-meta.json'), `${JSON.stringify(meta, null, 1)}\n`);

const sizes = Object.values(result.metafile.outputs).map((o) => o.bytes);
console.log(`CLI bundled in dist: cli.js and ${String(sizes.length - 1)} chunks, ${(sizes.reduce((a, b) => a + b, 0) / 1024).toFixed(0)} KB`);
