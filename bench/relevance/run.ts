/**
 * `npm run bench:relevance [-- cranfield|manpages ...]`: nDCG@10 and recall@100 of lexical,
 * semantic, rrf and linear search on judged collections, through Yarrow's own CLI and HTTP API:
 * `yarrow index file` embeds and indexes a corpus (its time and peak RSS are the embedding
 * throughput figures), `yarrow standalone` serves it, and every query is sent as search requests.
 * The model is the local all-MiniLM-L6-v2 (`npm run models:fetch`).
 *
 * Collections (all by default):
 * - `cranfield`: the human-judged Cranfield collection (bench/relevance/cranfield.ts), laid out by
 *   scripts/relevance/fetch-cranfield.sh;
 * - `manpages`: a known-item set built from Debian's `manpages-dev` (bench/relevance/manpages.ts).
 *
 * Fusion parameters are never chosen on the queries they are reported on: the defaults (rrf k 60,
 * linear 0.5 / 0.5) are reported on all queries, and the best rrf k and linear weight on the even
 * positions of the query list (the dev half) are reported on the odd positions (the test half).
 *
 * Options (environment): YARROW_RELEVANCE_DIR (work directory, default .tools/relevance; the
 * manpages package and the indexes go there; Cranfield is always laid out in .tools/relevance),
 * YARROW_RELEVANCE_WINDOW (rank_window_size, default 100).
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCranfield } from './cranfield.js';
import { fetchManpages, readManpages } from './manpages.js';
import { mean, ndcgAt, pairedRandomizationP, recallAt } from './metrics.js';
import type { JudgedQuery } from './metrics.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MODEL = join(ROOT, '.tools/models/all-MiniLM-L6-v2');
const WORK = resolve(process.env.YARROW_RELEVANCE_DIR ?? join(ROOT, '.tools/relevance'));
const WINDOW = Number(process.env.YARROW_RELEVANCE_WINDOW ?? 100);
const CLI = ['--import', 'tsx', join(ROOT, 'src/cli.ts')];

/** rrf `k` and linear lexical weights tried on the dev half. */
const RRF_K = [10, 20, 40, 60, 100];
const LINEAR_LEXICAL_WEIGHT = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
const DEFAULT_RRF = 'rrf k=60';
const DEFAULT_LINEAR = 'linear 0.5/0.5';

/** A judged collection as the benchmark indexes and queries it. */
interface Collection {
  readonly name: string;
  readonly description: string;
  readonly docs: readonly object[];
  readonly queries: readonly JudgedQuery[];
  /** YAML of the index's `fields`, indented for `schema.<name>.fields`. */
  readonly fields: string;
  readonly lexicalFields: readonly string[];
  readonly semanticField: string;
  /** `max_tokens` of the model (the inference default when absent). */
  readonly maxTokens?: number;
}

function cranfield(): Collection {
  // Checks the files and returns at once when they are in place.
  execFileSync('bash', [join(ROOT, 'scripts/relevance/fetch-cranfield.sh')], { stdio: 'inherit' });
  const { docs, queries } = readCranfield(join(ROOT, '.tools/relevance/cranfield'));
  return {
    name: 'cranfield',
    description: `Cranfield: ${docs.length} aeronautics abstracts, ${queries.length} queries with graded human judgements`,
    docs,
    queries,
    fields: `      title: { type: text, search: { lexical: { analyze: english } } }
      text:
        type: text
        search:
          lexical: { analyze: english }
          semantic: { model: minilm }
`,
    lexicalFields: ['title', 'text'],
    semanticField: 'text',
    // The model's own limit (sentence-transformers' max_seq_length 256); a quarter of the abstracts are cut.
    maxTokens: 256,
  };
}

function manpages(): Collection {
  const { pages, queries } = readManpages(fetchManpages(join(WORK, 'manpages-dev')));
  return {
    name: 'manpages',
    description: `manpages-dev known-item set: ${pages.length} pages, ${queries.length} queries (one or two relevant pages each)`,
    docs: pages,
    queries,
    fields: `      names: { type: text, search: { lexical: { analyze: english } } }
      body:
        type: text
        search:
          lexical: { analyze: english }
          semantic: { model: minilm }
`,
    lexicalFields: ['names', 'body'],
    semanticField: 'body',
  };
}

const COLLECTIONS: Record<string, () => Collection> = { cranfield, manpages };

function config(c: Collection, dataDir: string): string {
  const tokens = c.maxTokens === undefined ? '' : `\n      max_tokens: ${c.maxTokens}`;
  return `inference:
  embedding:
    minilm:
      model: ${JSON.stringify(MODEL)}${tokens}
schema:
  ${c.name}:
    store: { local: { disk: { path: ${JSON.stringify(dataDir)} } } }
    fields:
${c.fields}`;
}

/** Every way a query is asked, by name: lexical, semantic, and the fusion grid. */
function requests(c: Collection, text: string): Map<string, object> {
  const lexical = { multi_match: { query: text, fields: c.lexicalFields, type: 'most_fields' } };
  const semantic = { semantic: { field: c.semanticField, query: text, k: WINDOW } };
  const out = new Map<string, object>([['lexical', lexical], ['semantic', semantic]]);
  for (const k of RRF_K) out.set(`rrf k=${k}`, { rrf: { retrieve: [lexical, semantic], k, rank_window_size: WINDOW } });
  for (const w of LINEAR_LEXICAL_WEIGHT) {
    const retrieve = [{ query: lexical, weight: w }, { query: semantic, weight: Number((1 - w).toFixed(1)) }];
    out.set(`linear ${w}/${(1 - w).toFixed(1)}`, { linear: { retrieve, rank_window_size: WINDOW } });
  }
  return out;
}

/** Runs `yarrow index file` under /usr/bin/time; returns seconds and peak RSS in MB. */
function indexCorpus(dir: string, index: string, corpus: string, configFile: string): { seconds: number; rssMb: number } {
  const rssFile = join(dir, 'index-file.rss');
  const started = performance.now();
  execFileSync('/usr/bin/time', ['-f', '%M', '-o', rssFile, process.execPath, ...CLI, 'index', 'file', '-c', configFile, '-i', index, '-u', corpus], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  return { seconds: (performance.now() - started) / 1000, rssMb: Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024 };
}

async function startServer(dir: string, configFile: string): Promise<{ url: string; stop: () => Promise<void> }> {
  // In the work directory: the server's own stores (the plant store) go there, not into the clone.
  const child = spawn(process.execPath, [...CLI, 'standalone', '-c', configFile, '-p', '0', '-h', '127.0.0.1'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.setEncoding('utf8');
  let log = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.stderr.on('data', (s: string) => {
      log += s;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m !== null) resolveUrl(m[1]);
    });
    child.once('exit', (code) => { reject(new Error(`standalone exited with ${String(code)}:\n${log}`)); });
  });
  const exited = new Promise<void>((done) => child.once('exit', () => { done(); }));
  return { url, stop: async () => { child.kill('SIGTERM'); await exited; } };
}

/** Per request name, per query (in query order): nDCG@10, recall@100 and the HTTP time. */
type Scores = Map<string, { ndcg: number[]; recall: number[]; ms: number[] }>;

async function evaluate(url: string, c: Collection): Promise<Scores> {
  const scores: Scores = new Map();
  for (const q of c.queries) {
    for (const [name, query] of requests(c, q.text)) {
      const started = performance.now();
      const res = await fetch(`${url}/${c.name}/_search`, { method: 'POST', body: JSON.stringify({ query, size: 100, fields: [] }), headers: { 'content-type': 'application/json' } });
      if (res.status !== 200) throw new Error(`${name} "${q.text}": HTTP ${res.status} ${await res.text()}`);
      const ms = performance.now() - started;
      const ids = ((await res.json()) as { hits: { _id: string }[] }).hits.map((h) => h._id);
      const s = scores.get(name) ?? { ndcg: [], recall: [], ms: [] };
      s.ndcg.push(ndcgAt(ids, q.grades, 10));
      s.recall.push(recallAt(ids, q.grades, 100));
      s.ms.push(ms);
      scores.set(name, s);
    }
  }
  return scores;
}

/** The values at the positions `half` selects (0: even positions, the dev half; 1: odd, the test half). */
const pick = (values: readonly number[], half: 0 | 1): number[] => values.filter((_, i) => i % 2 === half);

/** The name among `names` with the best mean nDCG@10 on the dev half. */
function bestOnDev(scores: Scores, names: readonly string[]): string {
  return names.reduce((best, n) => (mean(pick(scores.get(n)!.ndcg, 0)) > mean(pick(scores.get(best)!.ndcg, 0)) ? n : best));
}

function table(scores: Scores, rows: readonly (readonly [string, string])[], half?: 0 | 1): string {
  const sel = (v: readonly number[]): number[] => (half === undefined ? [...v] : pick(v, half));
  const lexical = sel(scores.get('lexical')!.ndcg);
  const semantic = sel(scores.get('semantic')!.ndcg);
  const lines = ['| retrieval | nDCG@10 | recall@100 | p vs lexical | p vs semantic | ms/query (HTTP) |', '|---|---|---|---|---|---|'];
  for (const [label, name] of rows) {
    const s = scores.get(name)!;
    const ndcg = sel(s.ndcg);
    const p = (other: number[]): string => (name === 'lexical' || name === 'semantic' ? '' : pairedRandomizationP(ndcg, other).toFixed(3));
    lines.push(`| ${label} | ${mean(ndcg).toFixed(3)} | ${mean(sel(s.recall)).toFixed(3)} | ${name === 'lexical' ? '' : p(lexical)} | ${name === 'semantic' ? '' : p(semantic)} | ${mean(sel(s.ms)).toFixed(1)} |`);
  }
  return lines.join('\n');
}

async function run(c: Collection): Promise<void> {
  console.log(`\n## ${c.description}`);
  const dir = join(WORK, `${c.name}-run`);
  const corpusText = c.docs.map((d) => JSON.stringify(d)).join('\n') + '\n';
  const configText = config(c, join(dir, 'data'));
  // The index is the embedding cache: rebuilt only when the corpus or the config changed.
  const key = createHash('sha256').update(corpusText).update(configText).digest('hex');
  const keyFile = join(dir, 'indexed.sha256');
  const configFile = join(dir, 'relevance.yml');
  if (existsSync(keyFile) && readFileSync(keyFile, 'utf8') === key) {
    console.log(`index file: reusing the index in ${dir} (same corpus and config; delete the directory to rebuild and time it)`);
  } else {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const corpus = join(dir, 'corpus.jsonl');
    writeFileSync(corpus, corpusText);
    writeFileSync(configFile, configText);
    const indexed = indexCorpus(dir, c.name, corpus, configFile);
    writeFileSync(keyFile, key);
    console.log(`index file: ${c.docs.length} docs in ${indexed.seconds.toFixed(1)} s = ${(c.docs.length / indexed.seconds).toFixed(1)} docs/s (model load and embedding included, max_tokens ${c.maxTokens ?? 'default'}), peak RSS ${indexed.rssMb.toFixed(0)} MB`);
  }

  const server = await startServer(dir, configFile);
  let scores: Scores;
  try {
    scores = await evaluate(server.url, c);
  } finally {
    await server.stop();
  }
  const n = c.queries.length;
  console.log(`\nAll ${n} queries, default fusion parameters (p: paired randomisation test of nDCG@10, 10,000 rounds):\n`);
  console.log(table(scores, [['lexical (BM25)', 'lexical'], ['semantic', 'semantic'], ['rrf k 60', DEFAULT_RRF], ['linear 0.5 / 0.5', DEFAULT_LINEAR]]));

  const rrf = bestOnDev(scores, RRF_K.map((k) => `rrf k=${k}`));
  const linear = bestOnDev(scores, [...scores.keys()].filter((k) => k.startsWith('linear ')));
  console.log(`\nTuned on the dev half (${Math.ceil(n / 2)} queries at even positions): ${rrf}, ${linear} (lexical/semantic weights). Test half (${Math.floor(n / 2)} queries at odd positions):\n`);
  console.log(table(scores, [['lexical (BM25)', 'lexical'], ['semantic', 'semantic'], ['rrf k 60 (default)', DEFAULT_RRF], ['linear 0.5 / 0.5 (default)', DEFAULT_LINEAR], [`${rrf} (dev-tuned)`, rrf], [`${linear} (dev-tuned)`, linear]], 1));

  console.log('\nThe whole grid, nDCG@10 on dev / test half:\n');
  console.log([...scores].map(([name, s]) => `${name}: ${mean(pick(s.ndcg, 0)).toFixed(3)} / ${mean(pick(s.ndcg, 1)).toFixed(3)}`).join('\n'));
  console.log(`\nrank_window_size ${WINDOW}, model all-MiniLM-L6-v2 (int8 vectors, HNSW), lexical: multi_match most_fields over ${c.lexicalFields.join(' + ')}, semantic on ${c.semanticField}`);
}

async function main(): Promise<void> {
  if (!existsSync(join(MODEL, 'model.onnx'))) throw new Error(`no model at ${MODEL}: run npm run models:fetch`);
  mkdirSync(WORK, { recursive: true });
  const names = process.argv.slice(2);
  for (const name of names.length === 0 ? Object.keys(COLLECTIONS) : names) {
    const open = COLLECTIONS[name] as (() => Collection) | undefined;
    if (open === undefined) throw new Error(`unknown collection ${name}: expected one of ${Object.keys(COLLECTIONS).join(', ')}`);
    await run(open());
  }
}

await main();
