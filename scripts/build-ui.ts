/**
 * Builds the search page (src/ui) into dist/ui: esbuild bundles the TypeScript/JSX and Preact into
 * one ES module and the stylesheet into one file, both with content hashes in their names, and
 * writes index.html pointing at them. The server serves dist/ui as is (src/api/routes/ui-routes.ts):
 * nothing is loaded from anywhere else, so the page works offline and under a strict CSP.
 *
 * Run by `npm run build`; `--watch` rebuilds on change while working on the page.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src/ui');
const out = join(root, 'dist/ui');

const options: esbuild.BuildOptions = {
  entryPoints: { app: join(src, 'main.tsx'), styles: join(src, 'styles.css') },
  bundle: true,
  format: 'esm',
  // Top-level await and modern CSS: browsers of 2023 on.
  target: ['es2022', 'chrome111', 'firefox115', 'safari16.4'],
  minify: true,
  sourcemap: 'linked',
  outdir: out,
  entryNames: '[name]-[hash]',
  tsconfig: join(src, 'tsconfig.json'),
  jsx: 'automatic',
  jsxImportSource: 'preact',
  metafile: true,
  logLevel: 'warning',
};

/** Writes index.html with the hashed names of this build's outputs. */
async function writeHtml(result: esbuild.BuildResult): Promise<void> {
  const outputs = Object.keys(result.metafile?.outputs ?? {}).map((p) => basename(p));
  const js = outputs.find((f) => /^app-[A-Z0-9]+\.js$/i.test(f));
  const css = outputs.find((f) => /^styles-[A-Z0-9]+\.css$/i.test(f));
  if (js === undefined || css === undefined) throw new Error(`esbuild did not produce app-*.js and styles-*.css (got ${outputs.join(', ')})`);
  const template = await readFile(join(src, 'index.html'), 'utf8');
  await writeFile(join(out, 'index.html'), template.replace('{{js}}', js).replace('{{css}}', css));
}

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
if (process.argv.includes('--watch')) {
  const ctx = await esbuild.context({
    ...options,
    plugins: [{ name: 'html', setup: (build) => { build.onEnd(async (r) => { if (r.errors.length === 0) await writeHtml(r); }); } }],
  });
  await ctx.watch();
  console.log(`watching ${src} -> ${out}`);
} else {
  const result = await esbuild.build(options);
  await writeHtml(result);
  const sizes = Object.entries(result.metafile?.outputs ?? {}).filter(([p]) => !p.endsWith('.map')).map(([p, o]) => `${basename(p)} ${(o.bytes / 1024).toFixed(1)} KB`);
  console.log(`search page built in dist/ui: ${sizes.join(', ')}`);
}
