/**
 * The crash loop of issue 18's reliability suites, shared by test/e2e/reliability/crash-loop.test.ts
 * (a bounded run in `npm test`) and `npm run soak` (scripts/soak.ts, 100 rounds). Each round starts
 * the built `yarrow standalone` on the same data directory, checks that the index opens and that
 * every document acknowledged in earlier rounds is there, then pushes batches over HTTP from
 * several clients while another flushes, and SIGKILLs the process at a random moment. A batch is
 * one request: an acknowledged batch must be there in full after every later restart, and a batch
 * whose answer never came must be there in full or not at all.
 */
import { Workspace } from '../cli/cli-harness.js';
import { ServerProcess } from '../api/server-harness.js';

/** What the loop counted. */
export interface CrashLoopReport {
  /** Rounds run (each ends in a SIGKILL). */
  rounds: number;
  /** Documents in batches the server answered 200 to. */
  acknowledgedDocs: number;
  /** Acknowledged documents missing after a restart (each counted once, however many restarts miss it). */
  lostDocs: number;
  /** Restarts after which the index did not open or did not answer a search. */
  unreadableOpens: number;
  /** Batches found with some but not all of their documents (each counted once). */
  partialBatches: number;
  /** Flushes the server answered 200 to. */
  flushes: number;
  /** Responses with a 5xx status while pushing or flushing. */
  serverErrors: number;
}

/** How the loop runs. */
export interface CrashLoopOptions {
  readonly rounds: number;
  /** Concurrent pushing clients (default 2). */
  readonly writers?: number;
  /** Documents per request (default 40). */
  readonly batchSize?: number;
  /** Longest time a round pushes after its first acknowledgement (default 1500 ms; the kill lands uniformly in [0, this]). */
  readonly maxRoundMs?: number;
  /** Called after each round with the totals so far. */
  readonly onRound?: (round: number, report: Readonly<CrashLoopReport>) => void;
}

const BATCH_FIELD = 'batch';

/** A small buffer and tier size, so that rounds also flush segments and merge them while killed. */
const CONFIG = `store:
  local: { path: ./data }
indexing:
  buffer_mb: 1
  segments_per_tier: 2
schema:
  docs:
    fields:
      _id:   { type: id }
      ${BATCH_FIELD}: { type: text, search: false, filter: true, facet: true }
      body:  { type: text, search: { lexical: { analyze: english } } }
      n:     { type: int, filter: true, sort: true }
`;

const WORDS = ['yarrow', 'segment', 'posting', 'commit', 'merge', 'flush', 'durable', 'kill', 'replay', 'ledger', 'meadow', 'achillea', 'bloom', 'stem'];

function batchBody(batch: string, size: number): string {
  let out = '';
  for (let i = 0; i < size; i++) {
    let body = '';
    for (let w = 0; w < 60; w++) body += `${WORDS[(i * 7 + w * 13 + batch.length) % WORDS.length]} `;
    out += `${JSON.stringify({ _id: `${batch}-${i}`, [BATCH_FIELD]: batch, body, n: i })}\n`;
  }
  return out;
}

/** Documents per batch, from one search with a term aggregation over every batch. */
async function batchCounts(server: ServerProcess): Promise<Map<string, number> | null> {
  // A one-document push with ?refresh=true makes what the restart replayed searchable too.
  const probe = await server.fetch(`/docs/_index?refresh=true`, { method: 'POST', body: JSON.stringify({ _id: 'probe', [BATCH_FIELD]: 'probe', body: 'probe', n: 0 }) });
  if (probe.status !== 200) return null;
  const res = await server.search('docs', { query: { match_all: {} }, size: 0, track_total_hits: true, aggs: { batches: { term: { field: BATCH_FIELD, size: 'all' } } } });
  if (res.status !== 200) return null;
  const buckets = (res.json.aggs as { batches: { buckets: { term: string; count: number }[] } }).batches.buckets;
  return new Map(buckets.map((b) => [b.term, b.count]));
}

/** Runs the loop in a fresh workspace (removed at the end) and returns what it counted. */
export async function runCrashLoop(options: CrashLoopOptions): Promise<CrashLoopReport> {
  const writers = options.writers ?? 2;
  const batchSize = options.batchSize ?? 40;
  const maxRoundMs = options.maxRoundMs ?? 1500;
  const report: CrashLoopReport = { rounds: 0, acknowledgedDocs: 0, lostDocs: 0, unreadableOpens: 0, partialBatches: 0, flushes: 0, serverErrors: 0 };
  const acknowledged = new Set<string>();
  const missing = new Map<string, number>();
  const partial = new Set<string>();
  const check = (counts: ReadonlyMap<string, number>): void => {
    for (const batch of acknowledged) {
      const gone = batchSize - Math.min(batchSize, counts.get(batch) ?? 0);
      if (gone > (missing.get(batch) ?? 0)) missing.set(batch, gone);
    }
    for (const [batch, count] of counts) if (batch !== 'probe' && count !== batchSize) partial.add(batch);
    report.lostDocs = [...missing.values()].reduce((a, b) => a + b, 0);
    report.partialBatches = partial.size;
  };
  const ws = await Workspace.create(CONFIG);
  let serial = 0;
  try {
    for (let round = 1; round <= options.rounds; round++) {
      let server: ServerProcess;
      try {
        server = await ServerProcess.start(ws, 'standalone', {}, [], 60_000);
      } catch {
        report.unreadableOpens++;
        break;
      }
      const counts = await batchCounts(server);
      if (counts === null) {
        report.unreadableOpens++;
      } else {
        check(counts);
      }

      // Push and flush until the kill.
      let killed = false;
      let firstAck = (): void => undefined;
      const acked = new Promise<void>((resolve) => { firstAck = resolve; });
      const pushers = Array.from({ length: writers }, async () => {
        while (!killed) {
          const batch = `r${round}b${serial++}`;
          try {
            const res = await server.fetch('/docs/_index', { method: 'POST', body: batchBody(batch, batchSize), headers: { 'content-type': 'application/x-ndjson' } });
            await res.arrayBuffer();
            if (res.status === 200) {
              firstAck();
              acknowledged.add(batch);
              report.acknowledgedDocs += batchSize;
            } else if (res.status >= 500) {
              report.serverErrors++;
            }
          } catch {
            // The connection died with the process: this batch was not acknowledged.
          }
        }
      });
      const flusher = (async () => {
        while (!killed) {
          await new Promise((r) => setTimeout(r, 20 + Math.random() * 200));
          try {
            const res = await server.fetch('/docs/_flush', { method: 'POST' });
            await res.arrayBuffer();
            if (res.status === 200) report.flushes++;
            else if (res.status >= 500) report.serverErrors++;
          } catch {
            // Killed mid-flush.
          }
        }
      })();
      // The kill lands at a random moment once the round has had its first acknowledgement, so that
      // every round has something to lose however slow the machine is.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([acked, new Promise((r) => { timer = setTimeout(r, 30_000); })]);
      clearTimeout(timer);
      await new Promise((r) => setTimeout(r, Math.random() * maxRoundMs));
      await server.stop('SIGKILL');
      killed = true;
      await Promise.all([...pushers, flusher]);
      report.rounds = round;
      options.onRound?.(round, report);
    }

    // A last restart checks what the last round acknowledged.
    try {
      const server = await ServerProcess.start(ws, 'standalone', {}, [], 60_000);
      try {
        const counts = await batchCounts(server);
        if (counts === null) report.unreadableOpens++;
        else check(counts);
      } finally {
        await server.stop();
      }
    } catch {
      report.unreadableOpens++;
    }
    return report;
  } finally {
    await ws.cleanup();
  }
}
