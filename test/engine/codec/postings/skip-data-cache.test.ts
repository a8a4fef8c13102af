import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { IndexOptions, NO_MORE_DOCS } from '../../../../src/engine/codec/postings/postings-format.js';
import { PostingsIterator, SkipDataCache } from '../../../../src/engine/codec/postings/postings-reader.js';
import { PostingsWriter } from '../../../../src/engine/codec/postings/postings-writer.js';

/** Ascending docs of a multi-block term (more than one 128-doc block), each with one position per freq. */
const postingList = fc
  .uniqueArray(fc.integer({ min: 0, max: 20_000 }), { minLength: 129, maxLength: 900 })
  .chain((docs) => fc.tuple(fc.constant(docs.sort((a, b) => a - b)), fc.array(fc.integer({ min: 1, max: 4 }), { minLength: docs.length, maxLength: docs.length })));

/** Everything an iterator reports while advancing through `targets` and then to the end. */
function trace(it: PostingsIterator, targets: readonly number[]): number[] {
  const out: number[] = [];
  for (const t of targets) {
    out.push(it.advanceShallow(t));
    const b = it.boundsUpTo(t + 300);
    out.push(b.maxFreq, b.minNorm, it.advance(t));
    if (it.doc === NO_MORE_DOCS) return out;
    out.push(it.freq());
  }
  for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) out.push(d, it.freq());
  return out;
}

/** Ascending docs of a term of any length, singletons and part-filled single blocks included. */
const anyPostingList = fc
  .uniqueArray(fc.integer({ min: 0, max: 2_000 }), { minLength: 1, maxLength: 300 })
  .chain((docs) => fc.tuple(fc.constant(docs.sort((a, b) => a - b)), fc.array(fc.integer({ min: 1, max: 4 }), { minLength: docs.length, maxLength: docs.length })));

/** Each doc with its freq and positions, as nextDoc and readPositions report them. */
function readAll(it: PostingsIterator): number[] {
  const out: number[] = [];
  const buf = new Int32Array(8);
  for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) {
    const n = it.readPositions(buf);
    out.push(d, it.freq(), n, ...buf.subarray(0, n));
  }
  return out;
}

describe('SkipDataCache', () => {
  it('serves singletons and short terms (iterator buffers sized to the term) with the docs, freqs and positions written', () => {
    fc.assert(
      fc.property(fc.array(anyPostingList, { minLength: 1, maxLength: 6 }), fc.uint8Array({ minLength: 2_001, maxLength: 2_001 }), (lists, norms) => {
        const writer = new PostingsWriter();
        const infos = lists.map(([docs, freqs]) => {
          const positions = freqs.map((f) => Array.from({ length: f }, (_, i) => 3 * i + 1));
          return writer.addTerm(IndexOptions.docsFreqsPositions, docs.length, docs, freqs, positions.flat(), norms);
        });
        const { postings, positions } = writer.finish();
        const cache = new SkipDataCache(4);
        for (let round = 0; round < 2; round++) {
          infos.forEach((info, i) => {
            const [docs, freqs] = lists[i];
            const expected = docs.flatMap((d, j) => [d, freqs[j], freqs[j], ...Array.from({ length: freqs[j] }, (_, p) => 3 * p + 1)]);
            assert.deepEqual(readAll(new PostingsIterator(postings, positions, info, IndexOptions.docsFreqsPositions, cache)), expected);
            assert.deepEqual(readAll(new PostingsIterator(postings, positions, info, IndexOptions.docsFreqsPositions)), expected);
            const it = new PostingsIterator(postings, positions, info, IndexOptions.docsFreqsPositions, cache);
            assert.equal(it.advance(docs[docs.length - 1]), docs[docs.length - 1]);
            assert.equal(it.freq(), freqs[freqs.length - 1]);
            assert.equal(it.nextDoc(), NO_MORE_DOCS);
          });
        }
      }),
      { numRuns: 80 },
    );
  });

  it('gives iterators the same docs, freqs and block bounds as decoding the skip data alone, also after it overflows', () => {
    fc.assert(
      fc.property(fc.array(postingList, { minLength: 2, maxLength: 4 }), fc.array(fc.integer({ min: 0, max: 21_000 }), { maxLength: 12 }), fc.uint8Array({ minLength: 20_001, maxLength: 20_001 }), (lists, rawTargets, norms) => {
        const writer = new PostingsWriter();
        const infos = lists.map(([docs, freqs]) => {
          const positions = freqs.map((f) => Array.from({ length: f }, (_, i) => i));
          return writer.addTerm(IndexOptions.docsFreqsPositions, docs.length, docs, freqs, positions.flat(), norms);
        });
        const { postings, positions } = writer.finish();
        const targets = [...rawTargets].sort((a, b) => a - b);
        // Room for about one term's blocks: every other lookup replaces the cache's content.
        const cache = new SkipDataCache(8);
        for (let round = 0; round < 2; round++) {
          infos.forEach((info) => {
            const alone = trace(new PostingsIterator(postings, positions, info, IndexOptions.docsFreqsPositions), targets);
            const cached = trace(new PostingsIterator(postings, positions, info, IndexOptions.docsFreqsPositions, cache), targets);
            assert.deepEqual(cached, alone);
          });
        }
      }),
      { numRuns: 60 },
    );
  });
});
