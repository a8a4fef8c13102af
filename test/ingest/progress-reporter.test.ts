import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProgressReporter } from '../../src/ingest/index.js';
import type { Progress } from '../../src/ingest/index.js';

describe('ProgressReporter', () => {
  it('logs docs, docs/s, MB/s and the share of input read', () => {
    let now = 0;
    const lines: string[] = [];
    const shown: Progress[] = [];
    let stopped = false;
    const reporter = new ProgressReporter({
      log: (m) => lines.push(m),
      now: () => now,
      display: { update: (p) => shown.push(p), stop: () => { stopped = true; } },
    });
    reporter.addTotal(1000);
    reporter.addTotal(1000);
    reporter.addSourceBytes(500);
    reporter.addDocs(2000, 4_000_000);
    now = 2000;
    reporter.tick();
    assert.deepEqual(lines, ['progress: 2000 docs, 1000 docs/s, 2.0 MB/s, 25% of input']);
    assert.equal(shown.at(-1)?.docs, 2000);
    const final = reporter.stop();
    assert.equal(final.docsPerSecond, 1000);
    assert.equal(final.totalSourceBytes, 2000);
    assert.ok(stopped);
  });

  it('leaves the total unknown once one size is unknown', () => {
    const lines: string[] = [];
    const reporter = new ProgressReporter({ log: (m) => lines.push(m), now: () => 1000 });
    reporter.addTotal(10);
    reporter.addTotal(undefined);
    reporter.tick();
    assert.equal(reporter.snapshot().totalSourceBytes, undefined);
    assert.doesNotMatch(lines[0], /% of input/);
  });
});
