/**
 * The searcher process of the `yarrow-cli` engine, driven by bench/engines/yarrow-cli.ts over
 * stdin/stdout exactly as bench/engines/xapian/xapian-child.py is: it opens the committed index
 * read-only with the built library (dist/), answers one JSON line per command, and times each search inside
 * itself, so neither the pipe nor the runner counts and both peers sit behind the same harness.
 *
 * `node <shebang flags> --import tsx search-child.ts <index dir> <index name> <mapping json> <fields>`
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../corpus.js';
import { benchSearchRequest } from '../yarrow-request.js';

type Library = typeof import('../../../src/index.js');

async function main(): Promise<void> {
  const [dir = '', name = '', mappingJson = '{}', fieldList = ''] = process.argv.slice(2);
  // The built library, as the `yarrow` executable runs it (needs `npm run build`); YARROW_SEARCH_DIST
  // names another build's dist/ (bench/child-probe.ts compares two builds under the same load).
  const dist = process.env.YARROW_SEARCH_DIST ?? path.join(REPO_ROOT, 'dist');
  const lib = (await import(pathToFileURL(path.join(dist, 'index.js')).href)) as Library;
  // Read-only, as `yarrow search` opens an index: no lock, no writer, no merges in the searcher.
  const index = await lib.Index.open(await lib.LocalDirectory.open(dir), { name, mapping: JSON.parse(mappingJson) as object, readOnly: true });
  const fields = fieldList.split(',');
  const reply = (answer: Record<string, unknown>): void => {
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  };
  reply({ ready: true });
  for await (const line of createInterface({ input: process.stdin })) {
    const cmd = JSON.parse(line) as { op: string; terms?: string[]; operator?: 'or' | 'and' };
    if (cmd.op === 'search') {
      const query = { terms: cmd.terms ?? [], operator: cmd.operator ?? 'or' };
      // Read twice: the second read's cost is what the read after the search adds, and is taken off.
      const mainBefore = mainThreadCpuNs();
      const mainStart = mainThreadCpuNs();
      const readNs = mainBefore === null || mainStart === null ? 0 : mainStart - mainBefore;
      const cpuStart = process.cpuUsage();
      const start = process.hrtime.bigint();
      const res = index.search(benchSearchRequest(query, fields));
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      // The process's CPU time over the search (all threads): far below `ms` means the search waited
      // for a core (a loaded machine), not that it worked longer. bench/child-probe.ts reads it.
      const cpu = process.cpuUsage(cpuStart);
      // The main thread's own CPU time too: the process's counts V8's compiler and GC helper threads.
      const mainNs = mainThreadCpuNs();
      reply({ hits: res.hits.length, ms, cpuMs: (cpu.user + cpu.system) / 1000, mainCpuMs: mainNs === null || mainStart === null ? null : Math.max(0, mainNs - mainStart - readNs) / 1e6 });
    } else if (cmd.op === 'close') {
      await index.close();
      reply({ closed: true });
      return;
    } else {
      reply({ error: `unknown op ${cmd.op}` });
    }
  }
}

/** The main thread's CPU time in ns (Linux: /proc/self/task/<pid>/schedstat), null elsewhere. */
function mainThreadCpuNs(): number | null {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'latin1').split(' ')[0]);
  } catch {
    return null;
  }
}

main().catch((err: unknown) => {
  process.stdout.write(`${JSON.stringify({ error: err instanceof Error ? err.message : String(err) })}\n`);
  process.exitCode = 1;
});
