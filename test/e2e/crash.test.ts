import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Index } from '../../src/engine/search-index.js';
import { LocalDirectory } from '../../src/storage/local-directory.js';
import { CRASH_BATCH_SIZE } from './fixtures/crash-batch.js';

const writer = fileURLToPath(new URL('./fixtures/crash-writer.ts', import.meta.url));
const ROUNDS = 20;

/**
 * Runs the writer child until it has acknowledged `acks` batches, then SIGKILLs it at a random
 * moment; `threads`: the child inverts and merges on background threads, which write the segment
 * files themselves (as `api` does).
 */
async function runAndKill(path: string, start: number, acks: number, killDelayMs: number, threads: boolean): Promise<number[]> {
  const args = ['--import', 'tsx', writer, path, String(start), ...(threads ? ['threads'] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const acked: number[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => { resolve(); }));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const m = /^ack (\d+)$/.exec(line);
    if (m === null) return;
    acked.push(Number(m[1]));
    // The kill lands at a random point of whatever the child does next (append, fsync, flush, commit, merge).
    if (acked.length === acks) setTimeout(() => child.kill('SIGKILL'), killDelayMs);
  });
  await exited;
  return acked;
}

describe('crash safety', () => {
  it(`keeps every acknowledged batch and a verifiable index across ${ROUNDS} SIGKILLs`, { timeout: 300_000 }, async () => {
    const path = await mkdtemp(join(tmpdir(), 'yarrow-crash-'));
    try {
      const ackedAll = new Set<number>();
      let next = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const acks = 1 + Math.floor(Math.random() * 12);
        // Every other round the child writes through background threads.
        const acked = await runAndKill(path, next, acks, Math.floor(Math.random() * 25), round % 2 === 1);
        for (const b of acked) ackedAll.add(b);
        const highest = Math.max(next - 1, ...acked);

        const index = await Index.open(await LocalDirectory.open(path), { refreshIntervalMs: 0 });
        try {
          await index.verify();
          await index.refresh();
          let present = 0;
          for (let b = 0; b <= highest + 1; b++) {
            const res = index.search({ query: { match: { batch: `b${b}` } }, size: CRASH_BATCH_SIZE + 1, track_total_hits: true });
            if (ackedAll.has(b)) assert.equal(res.total, CRASH_BATCH_SIZE, `round ${round}: acknowledged batch ${b} has ${res.total} docs`);
            // A batch is one WAL record: all of it or none of it survives.
            assert.ok(res.total === 0 || res.total === CRASH_BATCH_SIZE, `round ${round}: batch ${b} is partial (${res.total})`);
            if (res.total > 0) present++;
          }
          assert.equal(index.stats().docs, present * CRASH_BATCH_SIZE, 'no duplicates');
        } finally {
          await index.close();
        }
        next = highest + 2;
      }
      assert.ok(ackedAll.size >= ROUNDS);
    } finally {
      await rm(path, { recursive: true, force: true });
    }
  });
});
