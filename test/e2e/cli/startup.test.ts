/**
 * Start-up: each mode loads only what it uses (issue 17). The built CLI runs under an `--import`
 * hook that records every module the ES loader resolves and, at exit, every CommonJS module in
 * the require cache; the test then names the packages a command must not have loaded.
 *
 * The executable, dist/cli.cjs, is a bundle (scripts/build-cli.ts): a loaded file of it stands for
 * the sources and packages bundled into it, which the build lists in dist/cli-meta.json. The modes sit in one file
 * (dist/cli-modes-<hash>.cjs) whose exports list the bundled modules the process has run: that list,
 * not the whole file, is what a mode loaded.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLI, MOVIES_CONFIG, Workspace } from './cli-harness.js';

/** Output file of the bundle -> the files bundled into it (relative to the repository root). */
function bundleInputs(): Map<string, readonly string[]> {
  const meta = JSON.parse(readFileSync(join(dirname(CLI), 'cli-meta.json'), 'utf8')) as Record<string, string[]>;
  return new Map(Object.entries(meta));
}

/**
 * The hook, as a data: URL so that plain node runs it (no TypeScript): a resolve hook, on the
 * loader thread, appends each resolved URL to $RECORD_FILE; the main thread appends the
 * CommonJS cache (what packages `require` internally) when the process exits.
 */
const HOOKS = `
import { appendFileSync } from 'node:fs';
let out;
export function initialize(data) { out = data; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(out, r.url + '\\n');
  return r;
}`;
const RECORDER = `
import { register, createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
const out = process.env.RECORD_FILE;
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}), { data: out });
const require = createRequire(process.cwd() + '/');
const evaluated = Symbol.for('yarrow.evaluatedModules');
process.on('exit', () => {
  const cached = Object.values(require.cache);
  const run = cached.flatMap((m) => m.exports?.[evaluated]?.map((path) => 'evaluated ' + path) ?? []);
  const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => 'builtin ' + m.slice('NativeModule '.length));
  appendFileSync(out, [...Object.keys(require.cache), ...run, ...builtins].join('\\n') + '\\n');
});`;

/**
 * Packages (node_modules/<name>) the process loaded while running `yarrow <args>`; with `stopWhen`,
 * the process is sent SIGTERM once `stopWhen(stderr so far)` resolves true (a server, after its
 * first answer).
 */
async function packagesLoaded(
  ws: Workspace,
  args: readonly string[],
  stopWhen?: (stderr: string) => Promise<boolean>,
  extraEnv: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string; packages: Set<string>; modules: string[]; files: string[]; builtins: Set<string> }> {
  const record = ws.path('modules.txt');
  await writeFile(record, '');
  const env: Record<string, string | undefined> = { ...process.env, ...extraEnv, RECORD_FILE: record };
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(RECORDER)}`, CLI, ...args], { cwd: ws.dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let stopping = false;
  child.stderr.setEncoding('utf8').on('data', (s: string) => {
    stderr += s;
    if (stopWhen === undefined || stopping) return;
    stopping = true;
    void stopWhen(stderr).then((stop) => {
      if (stop) child.kill('SIGTERM');
      else stopping = false;
    });
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c) => { resolve(c); });
  });
  // What the loader resolved; a file of the bundle stands for what was bundled into it.
  // The modes file stands for the modules it ran ("evaluated <path>" lines), not all it holds.
  const lines = (await readFile(record, 'utf8')).split('\n').filter((l) => l !== '');
  const files = lines.filter((l) => !l.startsWith('evaluated ') && !l.startsWith('builtin '));
  const builtins = new Set(lines.filter((l) => l.startsWith('builtin ')).map((l) => l.slice('builtin '.length)));
  const evaluated = lines.filter((l) => l.startsWith('evaluated ')).map((l) => l.slice('evaluated '.length));
  const bundle = bundleInputs();
  const modes = files.some((m) => /[\\/]cli-modes-[0-9a-f]+\.cjs$/.test(m));
  assert.equal(modes, evaluated.length > 0, 'the modes file was loaded but listed no module it ran, or the reverse');
  const modules = [...new Set([...evaluated, ...files.flatMap((m) => (/[\\/]cli-modes-[0-9a-f]+\.cjs$/.test(m) ? [] : m.includes(dirname(CLI)) ? bundle.get(basename(m)) : undefined) ?? [m])])];
  const packages = new Set<string>();
  for (const m of modules) {
    const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(m);
    if (match !== null) packages.add(match[1].replace('\\', '/'));
  }
  return { code, stderr, packages, modules, files, builtins };
}

/** Whatever an HTTP mode, Kafka or S3 needs; no command but the ones that use them may load these. */
const SERVER = ['fastify', 'prom-client', 'lossless-json'];
const KAFKA = ['@platformatic/kafka'];
const S3 = ['@aws-sdk/client-s3', '@aws-sdk/lib-storage'];

describe('yarrow start-up loads only what the mode uses', () => {
  let ws: Workspace;
  before(async () => {
    ws = await Workspace.create(MOVIES_CONFIG);
    await ws.write('movies.jsonl', '{"_id":"1","title":"Alien","year":1979}\n{"_id":"2","title":"Heat","year":1995}\n');
  });
  after(async () => {
    await ws.cleanup();
  });

  for (const args of [['--help'], ['index', 'file', '--help'], ['search', '--help'], ['--version'], ['index', 'file', '-c', 'conf.yml']]) {
    it(`yarrow ${args.join(' ')} loads commander and nothing else`, async () => {
      const run = await packagesLoaded(ws, args);
      // --help and --version exit 0; the last command lacks required options and exits 2.
      assert.equal(run.code, args.includes('-c') ? 2 : 0, run.stderr);
      assert.deepEqual([...run.packages].sort(), ['commander']);
      // Nor any of the engine beyond its error codes (the engine barrel loads the stemmers).
      const engine = run.modules.filter((m) => /(dist|src)[\\/]engine[\\/]/.test(m) && !/engine[\\/]errors\.[jt]s$/.test(m));
      assert.deepEqual(engine, []);
      // From the bundle, not tsc's one-file-per-module output: the CommonJS entry and the main file
      // (commander and argv parsing), both CommonJS: node's ES loader and an ES module's compile
      // without a code cache cost a start ~10 ms of CPU on Node 20 (issue 17). Distinct files: the
      // recorder logs a file at each resolution of it (a URL; the require cache a path).
      const own = [...new Set(run.files.filter((f) => f.includes(dirname(CLI)) && !f.includes('node_modules')).map((f) => basename(f)))].sort();
      assert.deepEqual(own.map((f) => f.replace(/-[0-9a-f]{10}\./, '-<hash>.')), ['cli-main-<hash>.cjs', 'cli.cjs']);
    });
  }

  it('yarrow index file from a local path loads neither the HTTP server, nor Kafka, nor the S3 SDK', async () => {
    // A cache directory of its own: the first run parses the config, the second takes it from the
    // config cache (config-cache.ts), whose hit loads neither yaml nor zod.
    const env = { NODE_COMPILE_CACHE: ws.path(`compile-cache-index-${String(Date.now())}`) };
    for (const cached of [false, true]) {
      const run = await packagesLoaded(ws, ['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'movies.jsonl'], undefined, env);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /indexing done: 2 docs/);
      // It did load what it uses: the config schema, unless the config was cached; pino only
      // writes JSON logs (YARROW_LOG_FORMAT=json).
      const packages = [...run.packages].join(', ');
      assert.equal(run.packages.has('zod'), !cached, packages);
      assert.equal(run.packages.has('yaml'), !cached, packages);
      assert.ok(!run.packages.has('pino'), packages);
      // Nor, on a config without semantic fields, the embedding runtime (issue 14).
      for (const pkg of [...SERVER, ...KAFKA, ...S3, 'onnxruntime-node', '@huggingface/tokenizers']) assert.ok(!run.packages.has(pkg), `index file loaded ${pkg}`);
      // The config's schema of the inference section (zod only) is all of src/inference it loads.
      assert.deepEqual(run.modules.filter((m) => /(dist|src)[\\/]inference[\\/]/.test(m) && !/inference-config\.[jt]s$/.test(m)), []);
    }
  });

  it('yarrow search answers a query without loading Kafka, the S3 SDK, the embedding runtime or the plant store', async () => {
    assert.equal((await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'movies.jsonl'])).code, 0);
    // A cache directory of its own: the first start parses the config, the second takes it from the cache.
    const env = { NODE_COMPILE_CACHE: ws.path(`compile-cache-${String(Date.now())}`) };
    const searchOnce = async (): Promise<Awaited<ReturnType<typeof packagesLoaded>>> => {
      let answer: unknown;
      const run = await packagesLoaded(ws, ['search', '-c', 'conf.yml', '-h', '127.0.0.1', '-p', '0'], async (stderr) => {
        const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
        if (url === undefined) return false;
        answer = await (await fetch(`${url}/movies/_search?q=alien`)).json();
        return true;
      }, env);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual((answer as { hits: { _id: string }[] }).hits.map((h) => h._id), ['1']);
      return run;
    };
    const first = await searchOnce();
    // It did load the server and, parsing the config, its parser and schema.
    for (const pkg of ['fastify', 'zod', 'yaml']) assert.ok(first.packages.has(pkg), `search did not load ${pkg}: ${[...first.packages].join(', ')}`);
    // The same config, environment and build again: from the config cache, without yaml or zod (src/config/config-cache.ts).
    const run = await searchOnce();
    assert.ok(run.packages.has('fastify') && !run.packages.has('zod') && !run.packages.has('yaml'), [...run.packages].join(', '));
    // Nor the CORS plugin, which a config without api.cors never registers. (pino is bundled into
    // fastify's vendored file, which requires it only for a fastify logger: there is none.)
    for (const pkg of [...KAFKA, ...S3, 'lossless-json', 'onnxruntime-node', '@huggingface/tokenizers', '@fastify/cors']) assert.ok(!run.packages.has(pkg), `search loaded ${pkg}`);
    // Nor node:crypto (~7 ms), which only bearer tokens, lock files and env references in a config use.
    assert.ok(run.builtins.has('http') && !run.builtins.has('crypto'), [...run.builtins].join(', '));
    // Untraced (no YARROW_STARTUP_TRACE), the start-up steps are not logged.
    assert.doesNotMatch(run.stderr, /^startup /m);
    // Of src/inference only the config schema and the error the inference routes answer with; of src/ingest only the zstd decoder request bodies may need.
    const allowed = /(inference-config|inference-error|zstd-decompressor|source-error)\.[jt]s$/;
    assert.deepEqual(run.modules.filter((m) => /(dist|src)[\\/](inference|plants|ingest)[\\/]/.test(m) && !allowed.test(m)), []);
  });

  it('the CommonJS bundles are ASCII, so that the CLI reads them as one-byte strings', async () => {
    const bundles = Object.keys(JSON.parse(await readFile(join(dirname(CLI), 'cli-meta.json'), 'utf8')) as Record<string, unknown>).filter((f) => f.endsWith('.cjs'));
    assert.ok(bundles.some((f) => f.startsWith('cli-modes-')) && bundles.some((f) => f.startsWith('cli-vendor-zod-')), bundles.join(', '));
    for (const file of bundles) {
      const bytes = await readFile(join(dirname(CLI), file));
      const at = bytes.findIndex((b) => b > 0x7f);
      assert.equal(at, -1, `${file}: byte 0x${at < 0 ? '' : bytes[at].toString(16)} at offset ${String(at)} (scripts/build-cli.ts asciiOnly)`);
    }
  });

  it('YARROW_STARTUP_TRACE=1 logs each start-up step of yarrow search, in order, up to its first answer', async () => {
    assert.equal((await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'movies.jsonl'])).code, 0);
    const env: Record<string, string | undefined> = { ...process.env, YARROW_STARTUP_TRACE: '1' };
    delete env.NODE_TEST_CONTEXT;
    delete env.NODE_OPTIONS;
    const child = spawn(process.execPath, [CLI, 'search', '-c', 'conf.yml', '-h', '127.0.0.1', '-p', '0'], { cwd: ws.dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    let stderr = '';
    const answered = new Promise<unknown>((resolve, reject) => {
      let asked = false;
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
        if (url === undefined || asked) return;
        asked = true;
        fetch(`${url}/movies/_search?q=alien`).then((r) => r.json()).then(resolve, reject);
      });
    });
    const answer = await answered;
    // The last step is logged once the answer has been written: wait for it, then stop the server.
    while (!/^startup first response sent /m.test(stderr)) await new Promise((resolve) => child.stderr.once('data', resolve));
    child.kill('SIGTERM');
    assert.equal(await closed, 0, stderr);
    assert.deepEqual((answer as { hits: { _id: string }[] }).hits.map((h) => h._id), ['1']);
    const steps = [...stderr.matchAll(/^startup (.+) ([\d.]+) cpu ([\d.]+) main ([\d.]+|NaN)$/gm)].map((m) => ({ step: m[1], wall: Number(m[2]), cpu: Number(m[3]), main: Number(m[4]) }));
    assert.deepEqual(steps.map((s) => s.step), [
      'entry', 'cli loaded', 'argv parsed', 'modes loaded', 'logger created', 'mode loaded', 'config loaded',
      'store of movies opened', 'index movies opened', 'server built', 'fastify ready', 'listening',
      'first request received', 'first response sending', 'first response sent',
    ]);
    // Times since the process started: they never go back, and node's own start comes first.
    for (let i = 1; i < steps.length; i++) assert.ok(steps[i].wall >= steps[i - 1].wall, `${steps[i].step} at ${String(steps[i].wall)} ms, before ${steps[i - 1].step}`);
    assert.ok(steps[0].wall > 0 && steps[0].cpu > 0, JSON.stringify(steps[0]));
    // The event loop's own CPU (Linux; NaN elsewhere) never goes back either.
    if (process.platform === 'linux') for (let i = 1; i < steps.length; i++) assert.ok(steps[i].main >= steps[i - 1].main, `${steps[i].step}: main ${String(steps[i].main)} ms`);
  });
});
