/**
 * Query A/B of several builds (a development tool, not part of `npm run bench`): one searcher child
 * (bench/engines/yarrow/search-child.ts, started as the `yarrow-cli` engine starts it) per build's
 * dist/, all on the same index that `PROBE_CLI=1 bench/query-probe.ts` built, each query sent to
 * every child in turn (the order rotating from query to query), so the builds share the machine's
 * load. Prints per build, over the timed rounds: the main thread's CPU ms per query (mean of each
 * round: median and range over rounds, and its ratio to the first build's in the same round), and
 * pooled wall and CPU p50 / p99.
 *
 *   node --import tsx bench/query-ab.ts [--in-process] <npm|debian> <rounds> <dist> <dist>...
 *
 * PROBE_DIR: the probe's cache directory (default /tmp/yarrow-probe-cli-<corpus>); AB_NODE_FLAGS:
 * node options added to every child's (e.g. `--cpu-prof --cpu-prof-dir=<dir>`).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { CORPORA, REPO_ROOT, isCorpusName, loadCorpus } from './corpus.js';
import type { CorpusSpec } from './corpus.js';
import { benchSearchRequest } from './engines/yarrow-request.js';
import { MAPPINGS } from './engines/yarrow.js';
import { executableLaunch } from './executable-launch.js';
import { buildQuerySet } from './queries.js';
import { summarize } from './stats.js';

interface Child {
  /** The child's user + system CPU ms so far (Linux /proc, clock ticks of 10 ms). */
  cpuMs(): number[];
  call(command: Record<string, unknown>): Promise<Record<string, unknown>>;
  end(): void;
}

function startChild(args: readonly string[], env: Record<string, string>): Child & { ready: Promise<unknown> } {
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: { ...process.env, NODE_OPTIONS: '', ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => {
    const line = await lines.next();
    if (line.done === true) throw new Error('search child closed');
    return JSON.parse(line.value) as Record<string, unknown>;
  };
  return {
    ready: next(),
    cpuMs() {
      const ticks = (file: string): number[] => {
        const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
        return [Number(fields[11]) * 10, Number(fields[12]) * 10];
      };
      return [...ticks(`/proc/${child.pid}/stat`), ...ticks(`/proc/${child.pid}/task/${child.pid}/stat`)];
    },
    call(command) {
      child.stdin.write(`${JSON.stringify(command)}\n`);
      return next();
    },
    end() {
      child.stdin.end();
    },
  };
}

/**
 * `--in-process`: every build's library loaded in this process, each round a loop of the query set
 * per build (the order rotating), timed with `process.cpuUsage()`: no pipe or JSON per query, so
 * the per-query figure is the search's own (the builds share one heap, so GC lands where it falls).
 */
async function inProcess(spec: CorpusSpec, dir: string, rounds: number, dists: readonly string[]): Promise<void> {
  type Library = typeof import('../src/index.js');
  const queries = buildQuerySet(await loadCorpus(spec), spec.textFields);
  const requests = queries.map((q) => benchSearchRequest({ terms: q.terms, operator: q.operator }, spec.textFields));
  const builds: { dist: string; index: Awaited<ReturnType<Library['Index']['open']>>; cpu: number[] }[] = [];
  for (const dist of dists) {
    const lib = (await import(pathToFileURL(path.resolve(dist, 'index.js')).href)) as Library;
    const index = await lib.Index.open(await lib.LocalDirectory.open(dir), { name: spec.name, mapping: MAPPINGS[spec.name], readOnly: true });
    for (let warm = 0; warm < 2; warm++) for (const r of requests) index.search(r);
    builds.push({ dist, index, cpu: [] });
  }
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < builds.length; k++) {
      const b = builds[(round + k) % builds.length];
      const start = process.cpuUsage();
      for (const r of requests) b.index.search(r);
      const used = process.cpuUsage(start);
      b.cpu.push((used.user + used.system) / 1000 / requests.length);
    }
  }
  console.log(`in process, ${rounds} rounds of ${queries.length} ${spec.name} queries: CPU ms per query (round means), paired ratio to the first build (median, quartiles)`);
  for (const b of builds) {
    const ratios = b.cpu.map((x, i) => x / builds[0].cpu[i]).sort((x, y) => x - y);
    const q = (f: number): string => ratios[Math.floor(f * (ratios.length - 1))].toFixed(3);
    console.log(`${b.dist}: median ${median(b.cpu).toFixed(4)} (min ${Math.min(...b.cpu).toFixed(4)}); ratio ${q(0.5)} (${q(0.25)}-${q(0.75)})`);
  }
  for (const b of builds) await b.index.close();
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const inProc = argv.includes('--in-process');
  const [corpusArg = 'npm', roundsArg = '5', ...dists] = argv.filter((a) => a !== '--in-process');
  if (!isCorpusName(corpusArg) || dists.length === 0) throw new Error('usage: query-ab.ts [--in-process] <npm|debian> <rounds> <dist>...');
  const spec = CORPORA[corpusArg];
  const probeDir = process.env.PROBE_DIR ?? path.join('/tmp', `yarrow-probe-cli-${corpusArg}`);
  const dir = path.join(probeDir, 'store', spec.name);
  if (inProc) return inProcess(spec, dir, Number(roundsArg), dists);
  const queries = buildQuerySet(await loadCorpus(spec), spec.textFields);
  const launch = executableLaunch(path.join(REPO_ROOT, 'dist', 'cli.js'));
  const extra = process.env.AB_NODE_FLAGS?.split(' ').filter((f) => f !== '') ?? [];
  const args = [...launch.flags, ...extra, '--import', 'tsx', path.join(REPO_ROOT, 'bench', 'engines', 'yarrow', 'search-child.ts'), dir, spec.name, JSON.stringify(MAPPINGS[spec.name]), spec.textFields.join(',')];
  const children = dists.map((d) => startChild(args, { ...launch.env, YARROW_SEARCH_DIST: path.resolve(d) }));
  await Promise.all(children.map((c) => c.ready));
  const rounds = Number(roundsArg);
  const wall = dists.map(() => [] as number[]);
  const cpu = dists.map(() => [] as number[]);
  const roundMeans = dists.map(() => [] as number[]);
  let turn = 0;
  const processCpu = dists.map(() => [0, 0, 0, 0]);
  for (let round = -1; round < rounds; round++) {
    if (round === 0) children.forEach((c, b) => { processCpu[b] = c.cpuMs().map((x) => -x); });
    const sums = dists.map(() => 0);
    for (const q of queries) {
      const command = { op: 'search', terms: q.terms, operator: q.operator };
      turn++;
      for (let k = 0; k < children.length; k++) {
        const b = (turn + k) % children.length;
        const answer = await children[b].call(command);
        if (round < 0) continue;
        const ms = answer.ms as number;
        const c = typeof answer.mainCpuMs === 'number' ? answer.mainCpuMs : (answer.cpuMs as number);
        wall[b].push(ms);
        cpu[b].push(c);
        sums[b] += c;
      }
    }
    if (round >= 0) sums.forEach((s, b) => roundMeans[b].push(s / queries.length));
  }
  children.forEach((c, b) => { processCpu[b] = c.cpuMs().map((x, i) => x + processCpu[b][i]); });
  for (const c of children) c.end();
  const f = (x: number): string => x.toFixed(4);
  console.log(`${rounds} rounds of ${queries.length} ${spec.name} queries; main-thread CPU ms per query (round means), pooled p50 / p99`);
  dists.forEach((d, b) => {
    const means = roundMeans[b];
    const ratios = means.map((m, r) => m / roundMeans[0][r]);
    const w = summarize(wall[b]);
    const c = summarize(cpu[b]);
    console.log(`${d}: cpu/query median ${f(median(means))} (min ${f(Math.min(...means))}, max ${f(Math.max(...means))}); ratio to first median ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}); wall p50/p99 ${f(w.p50)} / ${f(w.p99)}; cpu p50/p99 ${f(c.p50)} / ${f(c.p99)}; process CPU user ${processCpu[b][0]} + sys ${processCpu[b][1]} ms, of which the main thread ${processCpu[b][2]} + ${processCpu[b][3]}`);
  });
}

main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
