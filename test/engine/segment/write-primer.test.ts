import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { getAnalyzer } from '../../../src/engine/analysis/analyzers.js';
import { compressLz4Block, decompressLz4Block, maxCompressedLength } from '../../../src/engine/codec/stored-fields/lz4-block.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';
import { validateDocument } from '../../../src/engine/schema/document.js';
import { SegmentBuffer } from '../../../src/engine/segment/segment-buffer.js';
import { sortedTermIds } from '../../../src/engine/segment/term-order.js';
import { primeSegmentWrite } from '../../../src/engine/segment/write-primer.js';

const mapping = parseMapping({ fields: { _id: { type: 'id' }, body: { type: 'text', search: { lexical: { analyze: 'english' } } } } }, 'test');

/** The files of a segment of `bodies`, written through a fresh buffer. */
async function segmentOf(bodies: readonly string[]): Promise<Map<string, Uint8Array>> {
  const buffer = new SegmentBuffer(mapping, getAnalyzer);
  bodies.forEach((body, i) => {
    const source = { _id: `d${i}`, body };
    buffer.add(validateDocument(mapping, source), `d${i}`, JSON.stringify(source));
  });
  return new Map((await buffer.flush('_0')).files);
}

describe('write-out primer', () => {
  it('leaves no state behind: the flush that primes writes the bytes a later flush writes', async () => {
    // The primer runs once per thread (module instance), at the start of the first flush here.
    const bodies = ['Árvíztűrő tükörfúrógép 😀 packages', 'the quick brown fox', 'a package of packages', 'zz 12 3.4.5'];
    const before = await segmentOf(bodies);
    primeSegmentWrite();
    primeSegmentWrite();
    assert.deepEqual(await segmentOf(bodies), before);
  });

  it('leaves the term sort and the LZ4 matcher exact after priming', () => {
    primeSegmentWrite();
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 8 }), { maxLength: 120 }), (raw) => {
        const terms = [...new Set(raw)];
        assert.deepEqual([...sortedTermIds(terms)].map((id) => terms[id]), [...terms].sort());
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 1, max: 40 }), (seed, repeat) => {
        const input = new Uint8Array(seed.length * repeat);
        for (let r = 0; r < repeat; r++) input.set(seed, r * seed.length);
        const out = new Uint8Array(maxCompressedLength(input.length));
        const n = compressLz4Block(input, out);
        const decoded = new Uint8Array(input.length);
        decompressLz4Block(out.subarray(0, n), n, decoded, { src: 0, out: 0 }, input.length);
        assert.deepEqual(decoded, input);
      }),
      { numRuns: 100 },
    );
  });
});
