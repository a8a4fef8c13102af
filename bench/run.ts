/**
 * `npm run bench [-- --corpus npm|debian|all] [-- --engines yarrow,yarrow-cli,sqlite-fts5,...]`.
 * Runs each engine on each corpus in its own child process, one after another, prints a report per
 * corpus, then issue 17's indexing table over every corpus, and writes every figure to
 * bench/.out/results.json.
 */
import { machine } from './format.js';
import { runBenchChild } from './child-runner.js';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CorpusName } from './corpus.js';
import { CORPUS_NAMES, REPO_ROOT, dataDir, docLimit, isCorpusName } from './corpus.js';
import type { EngineResult } from './engine-result.js';
import { RESULT_MARKER } from './engine-result.js';
import type { EngineName } from './engines/bench-engine.js';
import { DEFAULT_ENGINES, ENGINE_NAMES, isEngineName } from './engines/bench-engine.js';
import type { EngineOutcome } from './report.js';
import { checkTargets, formatCorpusReport, formatIndexingTable, indexingRows } from './report.js';

const RUNNER = path.join(REPO_ROOT, 'bench', 'engine-runner.ts');
const OUT_FILE = path.join(REPO_ROOT, 'bench', '.out', 'results.json');

function parseCli(): { corpora: CorpusName[]; engines: EngineName[] } {
  const { values } = parseArgs({
    options: { corpus: { type: 'string', default: 'all' }, engines: { type: 'string' } },
    strict: true,
  });
  const corpus = values.corpus;
  if (corpus !== 'all' && !isCorpusName(corpus)) throw new Error(`--corpus must be npm, debian or all, got ${corpus}`);
  const corpora = corpus === 'all' ? [...CORPUS_NAMES] : [corpus];
  const requested = values.engines === undefined ? [...DEFAULT_ENGINES] : values.engines.split(',').map((s) => s.trim());
  const unknown = requested.filter((e) => !isEngineName(e));
  if (unknown.length > 0) throw new Error(`unknown engine(s) ${unknown.join(', ')}; known: ${ENGINE_NAMES.join(', ')}`);
  // Report order is fixed (Yarrow first) whatever order the flag lists them in.
  const engines = ENGINE_NAMES.filter((e) => requested.includes(e));
  return { corpora, engines };
}

/** Runs one engine on one corpus in a child process and parses its result line. */
async function runChild(engine: EngineName, corpus: CorpusName): Promise<EngineOutcome> {
  const outcome = await runBenchChild<EngineResult>(RUNNER, [engine, corpus], RESULT_MARKER, `${engine}/${corpus}`);
  return outcome.ok ? { engine, ok: true, result: outcome.result } : { engine, ok: false, error: outcome.error };
}

async function main(): Promise<void> {
  const { corpora, engines } = parseCli();
  const limit = docLimit();
  process.stderr.write(`bench: corpora ${corpora.join(', ')}; engines ${engines.join(', ')}; data ${dataDir()}` +
    `${limit === undefined ? '' : `; limit ${limit} docs`}\n`);

  const outcomes: Partial<Record<CorpusName, EngineOutcome[]>> = {};
  const reports: string[] = [];
  for (const corpus of corpora) {
    const perCorpus: EngineOutcome[] = [];
    for (const engine of engines) {
      process.stderr.write(`bench: ${engine} on ${corpus}\n`);
      perCorpus.push(await runChild(engine, corpus));
    }
    outcomes[corpus] = perCorpus;
    const report = formatCorpusReport(corpus, perCorpus);
    reports.push(report);
    process.stdout.write(`\n${report}\n`);
  }

  const indexing = indexingRows(outcomes);
  process.stdout.write(`\n${formatIndexingTable(indexing)}\n`);

  const summary = {
    ...machine(),
    limit: limit ?? null,
    indexing,
    corpora: Object.fromEntries(Object.entries(outcomes).map(([corpus, list]) => {
      const result = (engine: EngineName): EngineResult | undefined => list.flatMap((o) => (o.ok && o.engine === engine ? [o.result] : [])).at(0);
      const fts5 = result('sqlite-fts5');
      const targets = fts5 === undefined ? null : checkTargets({ library: result('yarrow'), cli: result('yarrow-cli'), fts5, xapian: result('xapian') });
      return [corpus, { outcomes: list, targets }];
    })),
  };
  await mkdir(path.dirname(OUT_FILE), { recursive: true });
  await writeFile(OUT_FILE, `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`\nresults written to ${path.relative(process.cwd(), OUT_FILE)}\n`);
  if (Object.values(outcomes).some((list) => list.some((o) => !o.ok))) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
