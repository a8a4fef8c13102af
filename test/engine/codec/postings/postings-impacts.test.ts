/**
 * Postings format version 2 stores each block's impacts (its competitive (freq, norm) pairs) where
 * version 1 stored the block's max freq and min norm. Both versions must read back the same postings,
 * version 2's impacts must be exactly the competitive pairs of each block, and the score bound they
 * give must hold every doc of the range while never exceeding version 1's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ErrorCode, YarrowError } from '../../../../src/engine/errors.js';
import { IndexOptions, NO_MORE_DOCS, POSTINGS_BLOCK, POSTINGS_VERSION, postingsVersion } from '../../../../src/engine/codec/postings/postings-format.js';
import { PostingsIterator, SkipData } from '../../../../src/engine/codec/postings/postings-reader.js';
import { PostingsWriter } from '../../../../src/engine/codec/postings/postings-writer.js';
import { bm25NormCache } from '../../../../src/engine/search/bm25.js';

/** Docs of a term spanning one to several blocks, with freqs drawn so that pairs compete. */
const postingList = fc
  .uniqueArray(fc.integer({ min: 0, max: 3_000 }), { minLength: 2, maxLength: 700 })
  .chain((docs) => fc.tuple(fc.constant(docs.sort((a, b) => a - b)), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: docs.length, maxLength: docs.length })));

function write(version: 1 | typeof POSTINGS_VERSION, docs: number[], freqs: number[], norms: Uint8Array) {
  const writer = new PostingsWriter(version);
  const positions = freqs.flatMap((f) => Array.from({ length: f }, (_, p) => 2 * p));
  const info = writer.addTerm(IndexOptions.docsFreqsPositions, docs.length, docs, freqs, positions, norms);
  return { info, ...writer.finish() };
}

function readAll(it: PostingsIterator): number[] {
  const out: number[] = [];
  const buf = new Int32Array(16);
  for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) {
    const n = it.readPositions(buf);
    out.push(d, it.freq(), ...buf.subarray(0, n));
  }
  return out;
}

/** The competitive (freq, norm) pairs of some docs, by brute force: none beaten on both by another. */
function competitive(pairs: [number, number][]): [number, number][] {
  const keep = pairs.filter(([f, n]) => !pairs.some(([f2, n2]) => f2 >= f && n2 <= n && (f2 > f || n2 < n)));
  const unique = [...new Map(keep.map((p) => [`${p[0]}/${p[1]}`, p])).values()];
  return unique.sort((a, b) => a[1] - b[1]);
}

describe('postings impacts (format version 2)', () => {
  it('writes the current version, and version 1 on request', () => {
    const norms = new Uint8Array(10);
    assert.equal(POSTINGS_VERSION, 2);
    assert.equal(postingsVersion(write(POSTINGS_VERSION, [1, 2], [1, 1], norms).postings), 2);
    assert.equal(postingsVersion(write(1, [1, 2], [1, 1], norms).postings), 1);
  });

  it('reads the same docs, freqs and positions from either version, and bounds every doc by no more than version 1 does', () => {
    fc.assert(
      fc.property(postingList, fc.uint8Array({ minLength: 3_001, maxLength: 3_001 }), fc.integer({ min: 0, max: 3_000 }), fc.integer({ min: 0, max: 400 }), fc.double({ min: 0.5, max: 200, noNaN: true }), (list, norms, target, span, avgdl) => {
        const [docs, freqs] = list;
        const v1 = write(1, docs, freqs, norms);
        const v2 = write(POSTINGS_VERSION, docs, freqs, norms);
        const expected = docs.flatMap((d, i) => [d, freqs[i], ...Array.from({ length: freqs[i] }, (_, p) => 2 * p)]);
        assert.deepEqual(readAll(new PostingsIterator(v1.postings, v1.positions, v1.info, IndexOptions.docsFreqsPositions)), expected);
        assert.deepEqual(readAll(new PostingsIterator(v2.postings, v2.positions, v2.info, IndexOptions.docsFreqsPositions)), expected);

        const normInverse = bm25NormCache(avgdl);
        const it1 = new PostingsIterator(v1.postings, v1.positions, v1.info, IndexOptions.docsFreqsPositions);
        const it2 = new PostingsIterator(v2.postings, v2.positions, v2.info, IndexOptions.docsFreqsPositions);
        const end1 = it1.advanceShallow(target);
        const end2 = it2.advanceShallow(target);
        assert.equal(end1, end2);
        const upTo = Math.min(end2, target + span);
        const bound1 = it1.maxFreqNormUpTo(upTo, normInverse);
        const bound2 = it2.maxFreqNormUpTo(upTo, normInverse);
        assert.ok(bound2 <= bound1, `${bound2} > ${bound1}`);
        let best = 0;
        docs.forEach((d, i) => {
          if (d < target || d > upTo) return;
          const x = freqs[i] * normInverse[norms[d]];
          assert.ok(x <= bound2, `doc ${d}: ${x} > ${bound2}`);
          best = Math.max(best, x);
        });
        assert.ok(best <= bound2);
      }),
      { numRuns: 300 },
    );
  });

  it('stores exactly the competitive (freq, norm) pairs of each block', () => {
    fc.assert(
      fc.property(postingList, fc.uint8Array({ minLength: 3_001, maxLength: 3_001, max: 40 }), (list, norms) => {
        const [docs, freqs] = list;
        const { info, postings } = write(POSTINGS_VERSION, docs, freqs, norms);
        const skip = new SkipData(postings, info, true, true);
        if (skip.numBlocks === 1) {
          assert.equal(skip.impactStarts, null);
          return;
        }
        for (let b = 0; b < skip.numBlocks; b++) {
          const pairs: [number, number][] = [];
          for (let i = b * POSTINGS_BLOCK; i < Math.min(docs.length, (b + 1) * POSTINGS_BLOCK); i++) pairs.push([freqs[i], norms[docs[i]]]);
          const stored: [number, number][] = [];
          for (let i = skip.impactStarts![b]; i < skip.impactStarts![b + 1]; i++) stored.push([skip.impactFreqs![i], skip.impactNorms![i]]);
          assert.deepEqual(stored, competitive(pairs));
          assert.equal(skip.blockMaxFreqs[b], Math.max(...pairs.map((p) => p[0])));
          assert.equal(skip.blockMinNorms[b], Math.min(...pairs.map((p) => p[1])));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a postings file of a version it does not know, naming it', () => {
    const docs = Array.from({ length: 300 }, (_, i) => i);
    const { info, postings } = write(POSTINGS_VERSION, docs, docs.map(() => 1), new Uint8Array(300));
    postings[4] = 9;
    assert.throws(
      () => new PostingsIterator(postings, null, info, IndexOptions.docsFreqsPositions),
      (e: unknown) => e instanceof YarrowError && e.code === ErrorCode.incompatibleFormat && /version 9/.test(e.message),
    );
  });
});
