/**
 * `npm run bench [-- --corpus npm|debian|all] [-- --engines yarrow,sqlite-fts5,minisearch]`.
 * Runs each engine on each corpus in its own child process, one after another, prints a report per
 * corpus and writes every figure to bench/.out/results.json.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CorpusName } from './corpus.js';
import { CORPUS_NAMES, REPO_ROOT, dataDir, docLimit, isCorpusName } from './corpus.js';
import type { EngineResult } from './engine-result.js';
import { RESULT_MARKER } from './engine-result.js';
import type { EngineName } from './engines/bench-engine.js';
import { ENGINE_NAMES, isEngineName } from './engines/bench-engine.js';
import type { EngineOutcome } from './report.js';
import { checkTargets, formatCorpusReport } from './report.js';

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
  const requested = values.engines === undefined ? [...ENGINE_NAMES] : values.engines.split(',').map((s) => s.trim());
  const unknown = requested.filter((e) => !isEngineName(e));
  if (unknown.length > 0) throw new Error(`unknown engine(s) ${unknown.join(', ')}; known: ${ENGINE_NAMES.join(', ')}`);
  // Report order is fixed (Yarrow first) whatever order the flag lists them in.
  const engines = ENGINE_NAMES.filter((e) => requested.includes(e));
  return { corpora, engines };
}

/** Runs one engine on one corpus in a child process and parses its result line. */
function runChild(engine: EngineName, corpus: CorpusName): Promise<EngineOutcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', RUNNER, engine, corpus], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderrTail = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => { stdout += chunk; });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      process.stderr.write(chunk);
      // Kept so a failure's cause appears in the report and results.json, not only in the scrollback.
      stderrTail = (stderrTail + chunk).slice(-4096);
    });
    child.on('error', (err) => { resolve({ engine, ok: false, error: err.message }); });
    child.on('close', (code, signal) => {
      let result: EngineResult | undefined;
      for (const line of stdout.split('\n')) {
        if (line.startsWith(RESULT_MARKER)) result = JSON.parse(line.slice(RESULT_MARKER.length)) as EngineResult;
        // An engine's own stdout chatter is passed on, not lost.
        else if (line !== '') process.stderr.write(`  [${engine}/${corpus} stdout] ${line}\n`);
      }
      if (code === 0 && result !== undefined) resolve({ engine, ok: true, result });
      else resolve({ engine, ok: false, error: `runner exited with ${signal ?? `code ${code ?? '?'}`}: ${failureCause(stderrTail)}` });
    });
  });
}

/** The line of a runner's stderr that says why it failed. */
function failureCause(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return lines.find((l) => l.startsWith('engine-runner failed:'))?.slice('engine-runner failed: '.length) ?? lines.at(-1) ?? 'no result';
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

  const summary = {
    startedAt: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cpus: os.cpus().length,
    limit: limit ?? null,
    corpora: Object.fromEntries(Object.entries(outcomes).map(([corpus, list]) => {
      const yarrow = list.find((o) => o.ok && o.engine === 'yarrow');
      const fts5 = list.find((o) => o.ok && o.engine === 'sqlite-fts5');
      const targets = yarrow?.ok === true && fts5?.ok === true ? checkTargets(yarrow.result, fts5.result) : null;
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
