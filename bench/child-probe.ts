/**
 * Latency probe of the `yarrow-cli` engine's searcher child (a development tool, not part of `npm run
 * bench`): runs bench/engines/yarrow/search-child.ts on an index that `PROBE_CLI=1 bench/query-probe.ts`
 * built, with the executable's V8 flags plus `--trace-gc`, exactly as the bench drives it (one warm-up
 * round, then timed rounds, one query at a time over a pipe), and prints each query slower than
 * `PROBE_SLOW_MS` together with the GC events the child logged while answering it.
 *
 *   node --import tsx bench/child-probe.ts <npm|debian> [rounds] [extra node flags...]
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { CORPORA, REPO_ROOT, isCorpusName, loadCorpus } from './corpus.js';
import { MAPPINGS } from './engines/yarrow.js';
import { QUERY_CLASSES, buildQuerySet } from './queries.js';
import { summarize } from './stats.js';

async function main(): Promise<void> {
  const [corpusArg = 'debian', roundsArg = '3', ...extraFlags] = process.argv.slice(2);
  if (!isCorpusName(corpusArg)) throw new Error(`unknown corpus ${corpusArg}`);
  const spec = CORPORA[corpusArg];
  const queries = buildQuerySet(await loadCorpus(spec), spec.textFields);
  // PROBE_DIR: the probe's cache directory, when not the default one of query-probe.ts.
  const dir = path.join(process.env.PROBE_DIR ?? path.join('/tmp', `yarrow-probe-cli-${corpusArg}`), 'store', spec.name);
  const flags = ['--max-semi-space-size=4', '--heap-growing-percent=25', ...extraFlags];
  const args = [...flags, '--trace-gc', '--import', 'tsx', path.join(REPO_ROOT, 'bench', 'engines', 'yarrow', 'search-child.ts'), dir, spec.name, JSON.stringify(MAPPINGS[spec.name]), spec.textFields.join(',')];
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  // --trace-gc lines go to the child's stdout between the answers.
  let gcLines: string[] = [];
  const next = async (): Promise<Record<string, unknown>> => {
    for (;;) {
      const line = await lines.next();
      if (line.done === true) throw new Error('child closed');
      if (line.value.startsWith('{')) return JSON.parse(line.value) as Record<string, unknown>;
      gcLines.push(line.value.replace(/^\[\d+:0x[0-9a-f]+\]\s+/, ''));
    }
  };
  await next();
  const slowMs = Number(process.env.PROBE_SLOW_MS ?? 1);
  const samples = new Map<string, number[]>(QUERY_CLASSES.map((c) => [c, []]));
  const rounds = Number(roundsArg);
  let gcInTimed = 0;
  const perQuery = queries.map((): string[] => []);
  for (let round = -1; round < rounds; round++) {
    for (const q of queries) {
      gcLines = [];
      child.stdin.write(`${JSON.stringify({ op: 'search', terms: q.terms, operator: q.operator })}\n`);
      const answer = await next();
      const ms = answer.ms as number;
      perQuery[queries.indexOf(q)].push(`${ms.toFixed(2)}/${(answer.cpuMs as number).toFixed(2)}`);
      if (round < 0) continue;
      samples.get(q.class)!.push(ms);
      gcInTimed += gcLines.length;
      if (ms >= slowMs) console.log(`slow ${ms.toFixed(3)} cpu ${(answer.cpuMs as number).toFixed(3)} ${q.class} ${q.terms.join(' ')}${gcLines.map((l) => `\n    gc: ${l.slice(0, 110)}`).join('')}`);
    }
  }
  child.stdin.end();
  // Every round of each query that was slow once (warm-up first): wall/cpu ms.
  queries.forEach((q, i) => {
    if (perQuery[i].slice(1).some((x) => Number(x.split('/')[0]) >= slowMs)) console.log(`rounds ${q.class} ${q.terms.join(' ')}: ${perQuery[i].join(' ')}`);
  });
  const f = (x: number): string => x.toFixed(3);
  const o = summarize([...samples.values()].flat());
  console.log(`overall p50 ${f(o.p50)} p95 ${f(o.p95)} p99 ${f(o.p99)} max ${f(o.max)}; gc events during timed queries: ${gcInTimed}`);
  for (const [c, s] of samples) {
    const x = summarize(s);
    console.log(`  ${c.padEnd(10)} p50 ${f(x.p50)} p95 ${f(x.p95)} p99 ${f(x.p99)} max ${f(x.max)}`);
  }
}

main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
