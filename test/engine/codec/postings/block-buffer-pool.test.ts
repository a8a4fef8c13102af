/**
 * Iterators whose block buffers are lent by a BlockBufferPool read exactly what iterators with
 * buffers of their own read, the pool lends the same buffers again once released to a mark (and only
 * those lent after it), and past its bound iterators fall back to buffers of their own.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { IndexOptions, NO_MORE_DOCS } from '../../../../src/engine/codec/postings/postings-format.js';
import { BlockBufferPool, PostingsIterator } from '../../../../src/engine/codec/postings/postings-reader.js';
import { PostingsWriter } from '../../../../src/engine/codec/postings/postings-writer.js';

const postingList = fc
  .uniqueArray(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 600 })
  .chain((docs) => fc.tuple(fc.constant(docs.sort((a, b) => a - b)), fc.array(fc.integer({ min: 1, max: 5 }), { minLength: docs.length, maxLength: docs.length })));

/** Docs and freqs, interleaving the iterators one step at a time so that they share nothing. */
function readInterleaved(its: readonly PostingsIterator[]): number[][] {
  const out = its.map(() => [] as number[]);
  let live = its.length;
  while (live > 0) {
    live = 0;
    its.forEach((it, i) => {
      if (it.doc === NO_MORE_DOCS) return;
      const d = it.nextDoc();
      if (d === NO_MORE_DOCS) return;
      out[i].push(d, it.freq());
      live++;
    });
  }
  return out;
}

/** Every doc's positions, read as a phrase query reads them. */
function readPositions(it: PostingsIterator): number[][] {
  const out: number[][] = [];
  const buffer = new Int32Array(8);
  for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) out.push([...buffer.subarray(0, it.readPositions(buffer))]);
  return out;
}

describe('BlockBufferPool', () => {
  it('lends iterators buffers that give the docs and freqs written, however many iterators are live at once', () => {
    fc.assert(
      fc.property(fc.array(postingList, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 10 }), (lists, maxPairs) => {
        const writer = new PostingsWriter();
        const norms = new Uint8Array(5_001).fill(7);
        const infos = lists.map(([docs, freqs]) => writer.addTerm(IndexOptions.docsFreqsPositions, docs.length, docs, freqs, freqs.flatMap((f) => Array.from({ length: f }, (_, p) => p)), norms));
        const { postings, positions } = writer.finish();
        const expected = lists.map(([docs, freqs]) => docs.flatMap((d, j) => [d, freqs[j]]));
        const pool = new BlockBufferPool(maxPairs);
        for (let round = 0; round < 3; round++) {
          const mark = pool.mark;
          const its = infos.map((info) => new PostingsIterator(postings, positions, info, IndexOptions.docsFreqsPositions, null, pool));
          assert.ok(pool.mark <= maxPairs);
          assert.deepEqual(readInterleaved(its), expected);
          pool.release(mark);
          assert.equal(pool.mark, mark);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('lends iterators that are reused after a release and read what fresh ones read, positions included', () => {
    fc.assert(
      fc.property(fc.array(postingList, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 3 }), (lists, maxPairs, takenFirst) => {
        const writer = new PostingsWriter();
        const norms = new Uint8Array(5_001).fill(7);
        const infos = lists.map(([docs, freqs]) => writer.addTerm(IndexOptions.docsFreqsPositions, docs.length, docs, freqs, freqs.flatMap((f) => Array.from({ length: f }, (_, p) => p * 3 + 1)), norms));
        const { postings, positions } = writer.finish();
        const fresh = (): PostingsIterator[] => infos.map((info) => new PostingsIterator(postings, positions, info, IndexOptions.docsFreqsPositions));
        const expected = readInterleaved(fresh());
        const expectedPositions = fresh().map(readPositions);
        const pool = new BlockBufferPool(maxPairs);
        // Pairs taken without an iterator (as a plain iterator's buffers are) sit below the mark.
        for (let i = 0; i < takenFirst; i++) pool.take();
        const mark = pool.mark;
        const lent: PostingsIterator[][] = [];
        for (let round = 0; round < 3; round++) {
          // Each round reads the terms in another order, so a reused iterator changes term.
          const order = infos.map((_, i) => (i + round) % infos.length);
          const its = order.map((i) => pool.iterator(postings, positions, infos[i], IndexOptions.docsFreqsPositions, null));
          lent.push(its);
          assert.deepEqual(readInterleaved(its), order.map((i) => expected[i]));
          pool.release(mark);
          const again = order.map((i) => pool.iterator(postings, positions, infos[i], IndexOptions.docsFreqsPositions, null));
          assert.deepEqual(again.map(readPositions), order.map((i) => expectedPositions[i]));
          pool.release(mark);
          assert.equal(pool.mark, mark);
        }
        // Within the pool's bound, a later search gets the same iterator objects back.
        const inPool = Math.max(0, Math.min(infos.length, maxPairs - mark));
        for (let j = 0; j < inPool; j++) assert.equal(lent[2][j], lent[0][j]);
      }),
      { numRuns: 60 },
    );
  });

  it('releases to a mark: pairs lent before it stay lent, pairs after it are lent again', () => {
    const pool = new BlockBufferPool(8);
    const outer = pool.take();
    const mark = pool.mark;
    const inner = [pool.take(), pool.take()];
    assert.deepEqual([outer, ...inner], [0, 1, 2]);
    const innerDocs = pool.docsAt(inner[0]);
    pool.release(mark);
    assert.equal(pool.mark, 1);
    assert.equal(pool.take(), 1);
    assert.equal(pool.docsAt(1), innerDocs, 'the released pair is reused, not reallocated');
    assert.notEqual(pool.docsAt(0), pool.docsAt(1));
    // A release to a later mark than the current one changes nothing.
    pool.release(5);
    assert.equal(pool.mark, 2);
  });

  it('lends nothing past its bound', () => {
    const pool = new BlockBufferPool(2);
    assert.deepEqual([pool.take(), pool.take(), pool.take()], [0, 1, -1]);
  });
});
