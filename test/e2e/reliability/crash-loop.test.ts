/**
 * Issue 18's crash loop, bounded for `npm test` (`npm run soak` runs the same loop for 100
 * rounds): SIGKILLs of a real `yarrow standalone` during HTTP pushes and flushes lose no
 * acknowledged document, leave no batch half there, and never leave the index unreadable.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCrashLoop } from './crash-loop.js';

const ROUNDS = 10;

describe('crash loop', () => {
  it(`keeps every acknowledged document across ${ROUNDS} SIGKILLs during pushes and flushes`, { timeout: 300_000 }, async (t) => {
    const report = await runCrashLoop({ rounds: ROUNDS });
    t.diagnostic(JSON.stringify(report));
    assert.equal(report.rounds, ROUNDS);
    assert.equal(report.unreadableOpens, 0);
    assert.equal(report.lostDocs, 0);
    assert.equal(report.partialBatches, 0);
    assert.equal(report.serverErrors, 0);
    // The kills landed while work was going on: every round acknowledged a batch, and flushes were answered.
    assert.ok(report.acknowledgedDocs >= ROUNDS * 40, `acknowledged ${report.acknowledgedDocs}`);
    assert.ok(report.flushes > 0);
  });
});
