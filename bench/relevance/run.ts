/**
 * `npm run bench:relevance`: nDCG@10 and recall@100 of lexical, semantic, rrf and linear search on
 * a judged collection (bench/relevance/manpages.ts), through Yarrow's own CLI and HTTP API:
 * `yarrow index file` embeds and indexes the corpus (its time and peak RSS are the embedding
 * throughput figures), `yarrow standalone` serves it, and every query is sent as four search
 * requests. The model is the local all-MiniLM-L6-v2 (`npm run models:fetch`).
 *
 * Options (environment): YARROW_RELEVANCE_DIR (work directory, default .tools/relevance; the
 * downloaded package stays there), YARROW_RELEVANCE_WINDOW (rank_window_size, default 100).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchManpages, readManpages } from './manpages.js';
import type { JudgedQuery } from './manpages.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MODEL = join(ROOT, '.tools/models/all-MiniLM-L6-v2');
const WORK = resolve(process.env.YARROW_RELEVANCE_DIR ?? join(ROOT, '.tools/relevance'));
const WINDOW = Number(process.env.YARROW_RELEVANCE_WINDOW ?? 100);
const CLI = ['--import', 'tsx', join(ROOT, 'src/cli.ts')];

const CONFIG = `inference:
  embedding:
    minilm:
      model: ${JSON.stringify(MODEL)}
schema:
  man:
    store: { local: { disk: { path: ${JSON.stringify(join(WORK, 'data'))} } } }
    fields:
      names: { type: text, search: { lexical: { analyze: english } } }
      body:
        type: text
        search:
          lexical: { analyze: english }
          semantic: { model: minilm }
`;

/** The four ways a query is asked. */
function requests(text: string): Record<string, unknown> {
  const lexical = { multi_match: { query: text, fields: ['names', 'body'], type: 'most_fields' } };
  const semantic = { semantic: { field: 'body', query: text, k: WINDOW } };
  return {
    lexical,
    semantic,
    rrf: { rrf: { retrieve: [lexical, semantic], rank_window_size: WINDOW } },
    'linear 0.5/0.5': { linear: { retrieve: [lexical, semantic], rank_window_size: WINDOW } },
    'linear 0.3/0.7': { linear: { retrieve: [{ query: lexical, weight: 0.3 }, { query: semantic, weight: 0.7 }], rank_window_size: WINDOW } },
    'linear 0.7/0.3': { linear: { retrieve: [{ query: lexical, weight: 0.7 }, { query: semantic, weight: 0.3 }], rank_window_size: WINDOW } },
  };
}

/** Binary-relevance nDCG@k. */
function ndcg(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => { if (relevant.has(id)) dcg += 1 / Math.log2(i + 2); });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

function recall(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  return ranked.slice(0, k).filter((id) => relevant.has(id)).length / relevant.size;
}

/** Runs `yarrow index file` under /usr/bin/time; returns seconds and peak RSS in MB. */
function indexCorpus(corpus: string, config: string): { seconds: number; rssMb: number } {
  const rssFile = join(WORK, 'index-file.rss');
  const started = performance.now();
  execFileSync('/usr/bin/time', ['-f', '%M', '-o', rssFile, process.execPath, ...CLI, 'index', 'file', '-c', config, '-i', 'man', '-u', corpus], { cwd: WORK, stdio: ['ignore', 'ignore', 'inherit'] });
  return { seconds: (performance.now() - started) / 1000, rssMb: Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024 };
}

async function startServer(config: string): Promise<{ url: string; stop: () => Promise<void> }> {
  // In the work directory: the server's own stores (the plant store) go there, not into the clone.
  const child = spawn(process.execPath, [...CLI, 'standalone', '-c', config, '-p', '0', '-h', '127.0.0.1'], { cwd: WORK, stdio: ['ignore', 'ignore', 'pipe'] });
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

async function main(): Promise<void> {
  if (!existsSync(join(MODEL, 'model.onnx'))) throw new Error(`no model at ${MODEL}: run npm run models:fetch`);
  mkdirSync(WORK, { recursive: true });
  const { pages, queries } = readManpages(fetchManpages(join(WORK, 'manpages-dev')));
  console.log(`collection: ${pages.length} pages of manpages-dev, ${queries.length} judged queries`);
  rmSync(join(WORK, 'data'), { recursive: true, force: true });
  const corpus = join(WORK, 'corpus.jsonl');
  writeFileSync(corpus, pages.map((p) => JSON.stringify(p)).join('\n') + '\n');
  const config = join(WORK, 'relevance.yml');
  writeFileSync(config, CONFIG);

  const indexed = indexCorpus(corpus, config);
  console.log(`index file: ${pages.length} docs in ${indexed.seconds.toFixed(1)} s = ${(pages.length / indexed.seconds).toFixed(1)} docs/s (embedding ~${BODY_TOKENS} tokens each, model load included), peak RSS ${indexed.rssMb.toFixed(0)} MB`);

  const server = await startServer(config);
  try {
    const sums = new Map<string, { ndcg: number; recall: number; ms: number }>();
    for (const q of queries) await evaluate(server.url, q, sums);
    console.log(`\n| retrieval | nDCG@10 | recall@100 | ms/query (HTTP) |\n|---|---|---|---|`);
    for (const [name, s] of sums) console.log(`| ${name} | ${(s.ndcg / queries.length).toFixed(3)} | ${(s.recall / queries.length).toFixed(3)} | ${(s.ms / queries.length).toFixed(1)} |`);
    console.log(`\n${queries.length} queries, rank_window_size ${WINDOW}, model all-MiniLM-L6-v2 (int8 vectors, HNSW), collection manpages-dev`);
  } finally {
    await server.stop();
  }
}

/** Approximate model tokens of a body (bench/relevance/manpages.ts keeps 180 words). */
const BODY_TOKENS = 256;

async function evaluate(url: string, q: JudgedQuery, sums: Map<string, { ndcg: number; recall: number; ms: number }>): Promise<void> {
  for (const [name, query] of Object.entries(requests(q.text))) {
    const started = performance.now();
    const res = await fetch(`${url}/man/_search`, { method: 'POST', body: JSON.stringify({ query, size: 100, fields: [] }), headers: { 'content-type': 'application/json' } });
    if (res.status !== 200) throw new Error(`${name} "${q.text}": HTTP ${res.status} ${await res.text()}`);
    const ms = performance.now() - started;
    const ids = ((await res.json()) as { hits: { _id: string }[] }).hits.map((h) => h._id);
    const s = sums.get(name) ?? { ndcg: 0, recall: 0, ms: 0 };
    sums.set(name, { ndcg: s.ndcg + ndcg(ids, q.relevant, 10), recall: s.recall + recall(ids, q.relevant, 100), ms: s.ms + ms });
  }
}

await main();
