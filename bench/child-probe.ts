/**
 * Latency probe of the `yarrow-cli` engine's searcher child (a development tool, not part of `npm run
 * bench`): runs bench/engines/yarrow/search-child.ts on an index that `PROBE_CLI=1 bench/query-probe.ts`
 * built, with the executable's V8 flags plus `--trace-gc`, exactly as the bench drives it (one warm-up
 * round, then timed rounds, one query at a time over a pipe), and prints each query slower than
 * `PROBE_SLOW_MS` together with the GC events the child logged while answering it.
 *
 *   node --import tsx bench/child-probe.ts <npm|debian> [rounds] [extra node flags...]
 *
 * PROBE_BASE_DIST=<dir> starts a second Yarrow child on another build's dist/ (e.g. main's, to
 * compare a change with it under the same load). PROBE_PEER=xapian also starts the bench's Xapian child (bench/engines/xapian/xapian-child.py, a
 * fresh database indexed first) and sends it each query right after Yarrow, so both answer under
 * the same load; it then prints both engines' per-class wall and CPU-time percentiles and the
 * queries whose CPU time (fastest round) is highest. On a shared machine the CPU time is the figure
 * to compare: wall time counts the time a search waited for a core.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { CORPORA, REPO_ROOT, dataDir, isCorpusName, loadCorpus } from './corpus.js';
import { MAPPINGS } from './engines/yarrow.js';
import { QUERY_CLASSES, buildQuerySet } from './queries.js';
import type { BenchQuery } from './queries.js';
import { summarize } from './stats.js';

/** One child answering JSON lines; lines that are not JSON (--trace-gc) are kept in `noise`. */
interface LineChild {
  readonly process: ChildProcess;
  call(command: Record<string, unknown>): Promise<Record<string, unknown>>;
  noise: string[];
}

function lineChild(command: string, args: readonly string[], env: Record<string, string> = {}): LineChild & { next(): Promise<Record<string, unknown>> } {
  const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, NODE_OPTIONS: '', ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const self = {
    process: child,
    noise: [] as string[],
    async next(): Promise<Record<string, unknown>> {
      for (;;) {
        const line = await lines.next();
        if (line.done === true) throw new Error(`${command} closed`);
        if (line.value.startsWith('{')) return JSON.parse(line.value) as Record<string, unknown>;
        self.noise.push(line.value.replace(/^\[\d+:0x[0-9a-f]+\]\s+/, ''));
      }
    },
    call(cmd: Record<string, unknown>): Promise<Record<string, unknown>> {
      child.stdin.write(`${JSON.stringify(cmd)}\n`);
      return self.next();
    },
  };
  return self;
}

/** Wall and CPU ms of every timed answer of one engine, per query. */
class Timings {
  readonly wall: number[][];
  readonly cpu: number[][];
  constructor(readonly name: string, queries: readonly BenchQuery[]) {
    this.wall = queries.map(() => []);
    this.cpu = queries.map(() => []);
  }
  add(i: number, answer: Record<string, unknown>): void {
    this.wall[i].push(answer.ms as number);
    // The main thread's CPU time where the child reports it (search-child.ts), else the process's.
    this.cpu[i].push(typeof answer.mainCpuMs === 'number' ? answer.mainCpuMs : (answer.cpuMs as number));
  }
}

async function main(): Promise<void> {
  const [corpusArg = 'debian', roundsArg = '3', ...extraFlags] = process.argv.slice(2);
  if (!isCorpusName(corpusArg)) throw new Error(`unknown corpus ${corpusArg}`);
  const spec = CORPORA[corpusArg];
  const queries = buildQuerySet(await loadCorpus(spec), spec.textFields);
  // PROBE_DIR: the probe's cache directory, when not the default one of query-probe.ts.
  const probeDir = process.env.PROBE_DIR ?? path.join('/tmp', `yarrow-probe-cli-${corpusArg}`);
  const dir = path.join(probeDir, 'store', spec.name);
  const flags = ['--max-semi-space-size=4', '--heap-growing-percent=25', ...extraFlags];
  const args = [...flags, '--trace-gc', '--import', 'tsx', path.join(REPO_ROOT, 'bench', 'engines', 'yarrow', 'search-child.ts'), dir, spec.name, JSON.stringify(MAPPINGS[spec.name]), spec.textFields.join(',')];
  const yarrow = lineChild(process.execPath, args);
  await yarrow.next();
  // PROBE_BASE_DIST=<another build's dist/>: a second Yarrow child on that build, asked each query too.
  const baseDist = process.env.PROBE_BASE_DIST;
  const base = baseDist === undefined ? null : lineChild(process.execPath, args, { YARROW_SEARCH_DIST: baseDist });
  await base?.next();
  let peer: LineChild | null = null;
  if (process.env.PROBE_PEER === 'xapian') {
    const db = path.join(probeDir, 'xapian');
    rmSync(db, { recursive: true, force: true });
    const python = process.env.YARROW_BENCH_PYTHON ?? '/usr/bin/python3';
    const x = lineChild(python, [path.join(REPO_ROOT, 'bench', 'engines', 'xapian', 'xapian-child.py'), path.join(dataDir(), spec.file), '-', spec.textFields.join(','), db]);
    await x.next();
    await x.call({ op: 'index' });
    await x.call({ op: 'commit' });
    peer = x;
  }
  const slowMs = Number(process.env.PROBE_SLOW_MS ?? 1);
  const rounds = Number(roundsArg);
  let gcInTimed = 0;
  let baseGcInTimed = 0;
  const timings = [new Timings('yarrow', queries), ...(base === null ? [] : [new Timings('base', queries)]), ...(peer === null ? [] : [new Timings('xapian', queries)])];
  const others = [...(base === null ? [] : [base]), ...(peer === null ? [] : [peer])];
  for (let round = -1; round < rounds; round++) {
    for (const [i, q] of queries.entries()) {
      yarrow.noise = [];
      if (base !== null) base.noise = [];
      const command = { op: 'search', terms: q.terms, operator: q.operator };
      const answer = await yarrow.call(command);
      const otherAnswers = [];
      for (const o of others) otherAnswers.push(await o.call(command));
      if (round < 0) continue;
      timings[0].add(i, answer);
      otherAnswers.forEach((a, j) => { timings[j + 1].add(i, a); });
      const ms = answer.ms as number;
      gcInTimed += yarrow.noise.length;
      baseGcInTimed += base?.noise.length ?? 0;
      if (ms >= slowMs) console.log(`slow ${ms.toFixed(3)} cpu ${(answer.cpuMs as number).toFixed(3)} main ${typeof answer.mainCpuMs === "number" ? answer.mainCpuMs.toFixed(3) : "-"} round ${round} ${q.class} ${q.terms.join(' ')}${yarrow.noise.map((l) => `\n    gc: ${l.slice(0, 110)}`).join('')}`);
    }
  }
  yarrow.process.stdin!.end();
  for (const o of others) o.process.stdin!.end();
  const f = (x: number): string => x.toFixed(3);
  console.log(`gc events during timed yarrow queries: ${gcInTimed}${base === null ? '' : `; base: ${baseGcInTimed}`}`);
  const pct = (xs: number[]): string => {
    const s = summarize(xs);
    return `${f(s.p50)} / ${f(s.p99)}`;
  };
  console.log(`p50 / p99 ms per class (${rounds} rounds of ${queries.length} queries): wall, then CPU time`);
  const header = ['class'.padEnd(10), ...timings.flatMap((t) => [`${t.name} wall`.padStart(16), `${t.name} cpu`.padStart(16)])];
  console.log(header.join(' '));
  for (const c of [...QUERY_CLASSES, 'all'] as const) {
    const of = (xs: number[][]): number[] => xs.filter((_, i) => c === 'all' || queries[i].class === c).flat();
    console.log([c.padEnd(10), ...timings.flatMap((t) => [pct(of(t.wall)).padStart(16), pct(of(t.cpu)).padStart(16)])].join(' '));
  }
  // The fastest round's CPU time of each query: its own cost, whatever else ran on the machine.
  const top = Number(process.env.PROBE_TOP ?? 15);
  for (const t of timings) {
    const best = t.cpu.map((xs) => Math.min(...xs));
    const order = best.map((_, i) => i).sort((a, b) => best[b] - best[a]).slice(0, top);
    console.log(`${t.name}: costliest queries by fastest-round CPU ms${timings.length > 1 ? ' (the others\' in brackets)' : ''}`);
    for (const i of order) {
      const otherBest = timings.filter((o) => o !== t).map((o) => ` [${o.name} ${f(Math.min(...o.cpu[i]))}]`).join('');
      console.log(`  ${f(best[i])}${otherBest} ${queries[i].class} ${queries[i].terms.join(' ')}`);
    }
  }
}

main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
