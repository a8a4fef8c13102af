/**
 * Postings read by position (postings-file.ts) decode exactly as the same files held in memory:
 * docs, frequencies, positions, skipping and block bounds, for terms of one block, of many blocks
 * (skip tables longer than the first read's guess), singletons, docs-only terms, both format
 * versions.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PostingsFile, PostingsStream, TermPostings, TermPostingsPool } from '../../../../src/engine/codec/postings/postings-file.js';
import { IndexOptions, NO_MORE_DOCS } from '../../../../src/engine/codec/postings/postings-format.js';
import type { TermInfo } from '../../../../src/engine/codec/postings/postings-format.js';
import { PostingsIterator } from '../../../../src/engine/codec/postings/postings-reader.js';
import { PostingsWriter } from '../../../../src/engine/codec/postings/postings-writer.js';
import { LocalRandomAccessFile } from '../../../../src/storage/local-random-access-file.js';
import { temporaryDirectories } from '../../../helpers/temp-dirs.js';

const tempDir = temporaryDirectories('yarrow-postings-file-');

/** A term: ascending docs, each with its positions (empty lists for a docs-only term). */
type Term = { docs: number[]; positions: number[][]; docsOnly: boolean };

const MAX_DOC = 20_000;

const term: fc.Arbitrary<Term> = fc
  .tuple(fc.uniqueArray(fc.integer({ min: 0, max: MAX_DOC - 1 }), { minLength: 1, maxLength: 700 }), fc.boolean(), fc.integer({ min: 1, max: 12 }))
  .chain(([docs, docsOnly, spread]) =>
    fc.record({
      docs: fc.constant(docs.sort((a, b) => a - b)),
      positions: fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 70_000 }), { minLength: 1, maxLength: spread }), { minLength: docs.length, maxLength: docs.length }),
      docsOnly: fc.constant(docsOnly),
    }),
  );

async function writeTerms(terms: readonly Term[], norms: Uint8Array, version: 1 | 2): Promise<{ infos: TermInfo[]; postings: Uint8Array; positions: Uint8Array; file: PostingsFile }> {
  const writer = new PostingsWriter(version);
  const infos = terms.map((t) => {
    if (t.docsOnly) return writer.addTerm(IndexOptions.docs, t.docs.length, t.docs, null, null, norms);
    const sorted = t.positions.map((p) => [...p].sort((a, b) => a - b));
    return writer.addTerm(IndexOptions.docsFreqsPositions, t.docs.length, t.docs, sorted.map((p) => p.length), sorted.flat(), norms);
  });
  const { postings, positions } = writer.finish();
  const dir = await tempDir();
  await writeFile(join(dir, 'a.pst'), postings);
  await writeFile(join(dir, 'a.pos'), positions);
  const file = new PostingsFile(LocalRandomAccessFile.open('a.pst', join(dir, 'a.pst')), LocalRandomAccessFile.open('a.pos', join(dir, 'a.pos')));
  return { infos, postings, positions, file };
}

/** Everything an iterator yields: docs, freqs, positions, and the bounds it exposes on the way. */
function walk(it: PostingsIterator, withFreqs: boolean, normInverse: Float64Array): unknown[] {
  const out: unknown[] = [];
  const buf = new Int32Array(64);
  for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) {
    const upTo = it.advanceShallow(d);
    out.push(d, upTo, it.maxFreqNormUpTo(upTo, normInverse));
    if (!withFreqs) continue;
    const f = it.freq();
    out.push(f, [...buf.subarray(0, it.readPositions(buf))]);
  }
  return out;
}

/** Docs reached by advancing to every `step`-th doc id. */
function leap(it: PostingsIterator, step: number): number[] {
  const out: number[] = [];
  for (let target = 0; target < MAX_DOC; target += step) {
    const d = it.advance(target);
    out.push(d, it.freq());
    if (d === NO_MORE_DOCS) break;
  }
  return out;
}

describe('PostingsFile', () => {
  for (const version of [1, 2] as const) {
    it(`reads every term by position as the in-memory iterator does (version ${version})`, async () => {
      const normInverse = Float64Array.from({ length: 256 }, (_, i) => 1 / (1 + i));
      await fc.assert(
        fc.asyncProperty(fc.array(term, { minLength: 1, maxLength: 6 }), fc.uint8Array({ minLength: MAX_DOC, maxLength: MAX_DOC }), fc.integer({ min: 1, max: 900 }), async (terms, norms, step) => {
          const { infos, postings, positions, file } = await writeTerms(terms, norms, version);
          try {
            // Twice: read from the file, then from the pool.
            for (let round = 0; round < 2; round++) {
              terms.forEach((t, i) => {
                const info = infos[i];
                const options = t.docsOnly ? IndexOptions.docs : IndexOptions.docsFreqsPositions;
                const memory = (): PostingsIterator => new PostingsIterator(postings, t.docsOnly ? null : positions, info, options);
                const stored = file.term(info, !t.docsOnly);
                const fromFile = (): PostingsIterator => new PostingsIterator(stored.bytes, t.docsOnly ? null : stored, stored.info, options, stored);
                assert.deepEqual(walk(fromFile(), !t.docsOnly, normInverse), walk(memory(), !t.docsOnly, normInverse));
                assert.deepEqual(leap(fromFile(), step), leap(memory(), step));
              });
            }
          } finally {
            file.close();
          }
        }),
        { numRuns: 12 },
      );
    });
  }

  it('streams terms in order through small windows as a merge reads them, as the in-memory iterator does', async () => {
    const normInverse = Float64Array.from({ length: 256 }, (_, i) => 1 / (1 + i));
    await fc.assert(
      fc.asyncProperty(fc.array(term, { minLength: 1, maxLength: 6 }), fc.uint8Array({ minLength: MAX_DOC, maxLength: MAX_DOC }), fc.integer({ min: 16, max: 4096 }), async (terms, norms, chunk) => {
        const { infos, postings, positions, file } = await writeTerms(terms, norms, 2);
        file.close();
        const range = (bytes: Uint8Array) => (offset: number, length: number): Promise<Uint8Array> => Promise.resolve(bytes.slice(offset, offset + length));
        const stream = await PostingsStream.open(range(postings), postings.length, range(positions), positions.length, chunk);
        for (const [i, t] of terms.entries()) {
          const options = t.docsOnly ? IndexOptions.docs : IndexOptions.docsFreqsPositions;
          let it = stream.iterator(infos[i], options);
          if (it === null) {
            await stream.load(infos[i], options);
            it = stream.iterator(infos[i], options);
          }
          assert.ok(it !== null, 'a loaded term has its iterator');
          assert.deepEqual(walk(it, !t.docsOnly, normInverse), walk(new PostingsIterator(postings, t.docsOnly ? null : positions, infos[i], options), !t.docsOnly, normInverse));
        }
      }),
      { numRuns: 12 },
    );
  });

  it("holds a term's own bytes only, not the file's", async () => {
    const norms = new Uint8Array(MAX_DOC).fill(3);
    const big = { docs: Array.from({ length: 5000 }, (_, i) => i * 3), positions: Array.from({ length: 5000 }, (_, i) => [i % 50, 100 + (i % 7)]), docsOnly: false };
    const small = { docs: [4, 9, 11], positions: [[1], [2, 3], [4]], docsOnly: false };
    const { infos, postings, file } = await writeTerms([big, small, big], norms, 2);
    try {
      const entry = file.term(infos[1]);
      // The header copy and the term's one block: two bit widths, three 3-bit deltas, three 1-bit freqs.
      assert.equal(entry.bytes.length, 8 + 1 + 2 + 1 + 1);
      assert.ok(postings.length > 2 * 1000, 'two long terms around it');
      const again = file.term(infos[1]);
      assert.equal(again, entry, 'a term looked up again comes from the pool');
      // Positions are read only when asked for.
      assert.equal(entry.cost, file.term(infos[1]).cost);
      const it = new PostingsIterator(entry.bytes, entry, entry.info, IndexOptions.docsFreqsPositions, entry);
      const before = entry.cost;
      it.nextDoc();
      it.nextDoc();
      const buf = new Int32Array(4);
      assert.deepEqual([...buf.subarray(0, it.readPositions(buf))], [2, 3]);
      assert.ok(entry.cost > before, 'reading positions adds them to the entry');
    } finally {
      file.close();
    }
  });

  it('pool: a hit only marks its entry, eviction drops the oldest unmarked ones and stays within the budget', () => {
    const info: TermInfo = { docFreq: 1, totalTermFreq: 1, postingsOffset: 8, singletonDoc: -1, positionsOffset: 0, maxFreq: 1, minNorm: 0 };
    // The pool weighs entries by their bytes; their file is never read here.
    const entry = (bytes: number): TermPostings => new TermPostings(null as unknown as PostingsFile, new Uint8Array(bytes), info, 0, 0);
    const cost = entry(200).cost;
    const pool = new TermPostingsPool(3 * cost);
    const [a, b, c, d, e] = [entry(200), entry(200), entry(200), entry(200), entry(200)];
    pool.set(1, a);
    pool.set(2, b);
    pool.set(3, c);
    assert.equal(pool.bytes, 3 * cost);
    assert.equal(pool.get(1), a);
    pool.set(4, d);
    // a was looked up since it was pooled: b, the oldest unmarked, goes.
    assert.deepEqual([1, 2, 3, 4].map((k) => pool.has(k)), [true, false, true, true]);
    assert.equal(pool.bytes, 3 * cost);
    pool.set(5, e);
    // a was moved behind d, unmarked: c goes now, then d, then a.
    assert.deepEqual([1, 3, 4, 5].map((k) => pool.has(k)), [true, false, true, true]);
    pool.set(6, entry(200));
    assert.deepEqual([1, 4, 5, 6].map((k) => pool.has(k)), [true, false, true, true]);
    pool.set(4, d);
    assert.deepEqual([1, 4, 5, 6].map((k) => pool.has(k)), [false, true, true, true]);
    // Every entry marked: one still goes, the just-pooled one stays, the budget holds.
    for (const k of [4, 5, 6]) pool.get(k);
    pool.set(7, entry(200));
    assert.equal(pool.has(7), true);
    assert.equal([4, 5, 6].filter((k) => pool.has(k)).length, 2);
    assert.equal(pool.bytes, 3 * cost);
    // A grown entry is weighed again: the pool counts its new cost, and evicts to make room.
    const grown = pool.get(7)!;
    (grown as unknown as { positions: Uint8Array }).positions = new Uint8Array(cost);
    pool.set(7, grown);
    assert.equal(pool.has(7), true);
    assert.equal(grown.cost, 2 * cost);
    assert.equal([4, 5, 6].filter((k) => pool.has(k)).length, 1);
    assert.equal(pool.bytes, 3 * cost);
    // An entry over the whole budget is not pooled.
    pool.set(8, entry(4 * cost));
    assert.equal(pool.has(8), false);
  });
});
