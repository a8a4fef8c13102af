import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { IndexOptions, NO_MORE_DOCS } from '../../../../src/engine/codec/postings/postings-format.js';
import { PostingsIterator } from '../../../../src/engine/codec/postings/postings-reader.js';
import { PostingsWriter } from '../../../../src/engine/codec/postings/postings-writer.js';

/** A term's postings: ascending docs, each with its ascending positions. */
const postingList = fc
  .uniqueArray(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 700 })
  .chain((docs) =>
    fc.tuple(
      fc.constant(docs.sort((a, b) => a - b)),
      fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 6 }), { minLength: docs.length, maxLength: docs.length }),
    ),
  );

function write(lists: [number[], number[][]][], norms: Uint8Array) {
  const writer = new PostingsWriter();
  const infos = lists.map(([docs, positions]) => {
    const sorted = positions.map((p) => [...p].sort((a, b) => a - b));
    return writer.addTerm(IndexOptions.docsFreqsPositions, docs.length, docs, sorted.map((p) => p.length), sorted.flat(), norms);
  });
  return { infos, ...writer.finish() };
}

describe('PostingsWriter / PostingsIterator', () => {
  it('round-trips docs, frequencies and positions for any term', () => {
    fc.assert(
      fc.property(fc.array(postingList, { minLength: 1, maxLength: 5 }), fc.uint8Array({ minLength: 5001, maxLength: 5001 }), (lists, norms) => {
        const { infos, postings, positions } = write(lists, norms);
        lists.forEach(([docs, pos], t) => {
          const it = new PostingsIterator(postings, positions, infos[t], IndexOptions.docsFreqsPositions);
          const out = new Int32Array(16);
          for (let i = 0; i < docs.length; i++) {
            assert.equal(it.nextDoc(), docs[i]);
            assert.equal(it.freq(), pos[i].length);
            const n = it.readPositions(out);
            assert.deepEqual([...out.subarray(0, n)], [...pos[i]].sort((a, b) => a - b));
          }
          assert.equal(it.nextDoc(), NO_MORE_DOCS);
          assert.equal(infos[t].maxFreq, Math.max(...pos.map((p) => p.length)));
          assert.equal(infos[t].minNorm, Math.min(...docs.map((d) => norms[d])));
        });
      }),
      { numRuns: 150 },
    );
  });

  it('round-trips doc gaps and frequencies of every bit width, blocks whole and partial', () => {
    // The block decoder reads the packed doc deltas four bytes at a time: widths that do and do not
    // divide 32, values straddling words, and a block's last bytes (read one by one).
    const limit = 1 << 24;
    const norms = new Uint8Array(limit);
    let seed = 17;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let bits = 0; bits <= 23; bits++) {
      const docs: number[] = [];
      const count = Math.min(300, Math.floor(limit / 2 ** bits) - 1);
      let doc = -1;
      for (let i = 0; i < count; i++) {
        // A delta of exactly `bits` bits (doc - previous - 1), 0 for bits 0.
        const delta = bits === 0 ? 0 : 2 ** (bits - 1) + Math.floor(random() * 2 ** (bits - 1));
        doc += delta + 1;
        docs.push(doc);
      }
      // Frequencies of up to min(bits, 9) bits too (freq - 1 is what is packed).
      const freqs = docs.map(() => 1 + Math.floor(random() * 2 ** Math.min(bits, 9)));
      const { infos, postings, positions } = write([[docs, freqs.map((f) => Array.from({ length: f }, (_, p) => p))]], norms);
      const it = new PostingsIterator(postings, positions, infos[0], IndexOptions.docsFreqsPositions);
      docs.forEach((d, i) => {
        assert.equal(it.nextDoc(), d, `${bits}-bit gaps`);
        assert.equal(it.freq(), freqs[i], `${bits}-bit gaps, freq`);
      });
      assert.equal(it.nextDoc(), NO_MORE_DOCS);
      const again = new PostingsIterator(postings, positions, infos[0], IndexOptions.docsFreqsPositions);
      const target = docs[Math.floor(docs.length / 2)];
      assert.equal(again.advance(target), target, `${bits}-bit gaps, advance`);
    }
  });

  it('reads frequencies of 10-17 bits whether a block is read doc by doc or a few docs of it', () => {
    // freq() answers a block's first reads from the packed bits and unpacks the block after that:
    // both must give the written frequencies, at widths beyond the test above's.
    for (let bits = 10; bits <= 17; bits++) {
      const docs = Array.from({ length: 300 }, (_, i) => i * 3);
      // One wide frequency per block sets its width; the others are small.
      const freqs = docs.map((_, i) => (i % 128 === 77 ? 2 ** (bits - 1) + 1 : 1 + ((i * 37) % 50)));
      const { infos, postings, positions } = write([[docs, freqs.map((f) => Array.from({ length: f }, (_, p) => p))]], new Uint8Array(1000));
      const every = new PostingsIterator(postings, positions, infos[0], IndexOptions.docsFreqsPositions);
      docs.forEach((d, i) => {
        assert.equal(every.nextDoc(), d);
        assert.equal(every.freq(), freqs[i], `${bits} bits, doc ${d}`);
      });
      const some = new PostingsIterator(postings, positions, infos[0], IndexOptions.docsFreqsPositions);
      for (let i = 5; i < docs.length; i += 9) {
        assert.equal(some.advance(docs[i]), docs[i]);
        assert.equal(some.freq(), freqs[i], `${bits} bits, doc ${docs[i]} alone`);
      }
    }
  });

  it('advances to the first doc at or after any target', () => {
    fc.assert(
      fc.property(postingList, fc.array(fc.integer({ min: 0, max: 5200 }), { maxLength: 30 }), ([docs, pos], targets) => {
        const { infos, postings, positions } = write([[docs, pos]], new Uint8Array(5001));
        const it = new PostingsIterator(postings, positions, infos[0], IndexOptions.docsFreqsPositions);
        let current = -1;
        for (const t of [...targets].sort((a, b) => a - b)) {
          const expected = docs.find((d) => d >= Math.max(t, current)) ?? NO_MORE_DOCS;
          current = it.advance(t);
          assert.equal(current, expected);
          if (current === NO_MORE_DOCS) break;
          assert.equal(it.freq(), pos[docs.indexOf(current)].length);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('bounds every block by its max frequency and min norm', () => {
    fc.assert(
      fc.property(postingList, fc.uint8Array({ minLength: 5001, maxLength: 5001 }), fc.integer({ min: 0, max: 5000 }), ([docs, pos], norms, target) => {
        const { infos, postings, positions } = write([[docs, pos]], norms);
        const it = new PostingsIterator(postings, positions, infos[0], IndexOptions.docsFreqsPositions);
        const end = it.advanceShallow(target);
        const bounds = { ...it.boundsUpTo(end) };
        for (let i = 0; i < docs.length; i++) {
          if (docs[i] < target || docs[i] > end) continue;
          assert.ok(pos[i].length <= bounds.maxFreq);
          assert.ok(norms[docs[i]] >= bounds.minNorm);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('PostingsIterator once exhausted (review of issue #2)', () => {
  it('stays exhausted on nextDoc after advance ran past the last doc', () => {
    fc.assert(
      fc.property(postingList, ([docs, pos]) => {
        const { infos, postings, positions } = write([[docs, pos]], new Uint8Array(5001));
        const it = new PostingsIterator(postings, positions, infos[0], IndexOptions.docsFreqsPositions);
        assert.equal(it.advance(docs[docs.length - 1] + 1), NO_MORE_DOCS);
        assert.equal(it.nextDoc(), NO_MORE_DOCS);
      }),
    );
  });
});
