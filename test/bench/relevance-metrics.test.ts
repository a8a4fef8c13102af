import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readCranfield } from '../../bench/relevance/cranfield.js';
import { mean, ndcgAt, pairedRandomizationP, recallAt } from '../../bench/relevance/metrics.js';

describe('relevance metrics', () => {
  const grades = new Map([['b', 2], ['d', 1], ['x', 0]]);

  it('nDCG@k uses linear gains, a log2(rank + 1) discount and the ideal order of the judged gains', () => {
    // DCG = 2/log2(3); ideal = 2/log2(2) + 1/log2(3).
    const expected = (2 / Math.log2(3)) / (2 + 1 / Math.log2(3));
    assert.ok(Math.abs(ndcgAt(['a', 'b', 'c'], grades, 3) - expected) < 1e-12);
    assert.equal(ndcgAt(['b', 'd', 'a'], grades, 3), 1);
    // The cut: d at rank 3 does not count at k = 2, and the ideal is cut at 2 as well.
    assert.ok(Math.abs(ndcgAt(['a', 'd', 'b'], grades, 2) - (1 / Math.log2(3)) / (2 + 1 / Math.log2(3))) < 1e-12);
    // A judged document with gain 0 is not relevant; a query without relevant documents scores 0.
    assert.equal(ndcgAt(['x'], grades, 10), 0);
    assert.equal(ndcgAt(['a'], new Map([['a', 0]]), 10), 0);
  });

  it('recall@k is the share of relevant documents in the first k', () => {
    assert.equal(recallAt(['a', 'b', 'x'], grades, 100), 0.5);
    assert.equal(recallAt(['d', 'a', 'b'], grades, 2), 0.5);
    assert.equal(recallAt(['d', 'a', 'b'], grades, 3), 1);
    assert.equal(recallAt(['a'], new Map(), 100), 0);
    assert.equal(mean([]), 0);
    assert.equal(mean([0.25, 0.75]), 0.5);
  });
});

describe('pairedRandomizationP', () => {
  it('finds no difference between a system and itself and a small p for a consistent gain', () => {
    const base = Array.from({ length: 60 }, (_, i) => (i % 7) / 10);
    assert.equal(pairedRandomizationP(base, base, 2000), 1);
    const better = base.map((x, i) => x + 0.05 + (i % 3) / 100);
    assert.ok(pairedRandomizationP(better, base, 2000) < 0.01);
    // Half the queries up, half down by the same amount: no evidence either way.
    const mixed = base.map((x, i) => x + (i % 2 === 0 ? 0.1 : -0.1));
    assert.ok(pairedRandomizationP(mixed, base, 2000) > 0.5);
    assert.throws(() => pairedRandomizationP([1], [1, 2]), /equal lengths/);
  });
});

describe('readCranfield', () => {
  it('numbers queries by position as cranqrel does, inverts Cleverdon grades into gains keeps the title when the abstract is empty and leaves out an empty text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'yarrow-cranfield-'));
    try {
      writeFileSync(join(dir, 'cran.all.1400'), '.I 1\r\n.T\r\nwing in a\r\nslipstream .\r\n.A\r\nsmith\r\n.B\r\nj. ae. 1958\r\n.W\r\nwing in a slipstream .\r\n  lift increase .\r\n.I 2\r\n.T\r\nempty abstract .\r\n.A\r\n.B\r\n.W\r\n.I 3\r\n.T\r\n.A\r\n.B\r\n.W\r\n');
      // Query ids in cran.qry skip numbers (001, 002, 004): cranqrel numbers them 1, 2, 3.
      writeFileSync(join(dir, 'cran.qry'), '.I 001\n.W\nwhat similarity laws\nmust be obeyed .\n.I 002\n.W\nslipstream lift .\n.I 004\n.W\nno relevant document .\n');
      writeFileSync(join(dir, 'cranqrel'), '1 1 1\n1 2 4\n2 1 2\n2 2 -1\n3 2 -1\n');
      const { docs, queries } = readCranfield(dir);
      assert.deepEqual(docs, [
        { _id: '1', title: 'wing in a slipstream .', text: 'wing in a slipstream . lift increase .' },
        { _id: '2', title: 'empty abstract .', text: 'empty abstract .' },
        { _id: '3', title: '' },
      ]);
      // Query 3 has only a "no interest" judgement: it is left out, as trec_eval leaves out queries with nothing relevant.
      assert.deepEqual(queries.map((q) => [q.id, q.text, [...q.grades]]), [
        ['1', 'what similarity laws must be obeyed .', [['1', 4], ['2', 1]]],
        ['2', 'slipstream lift .', [['1', 3], ['2', 0]]],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
