/**
 * Id resolution across the segments of one bulk load (engine/commit/bulk-ids.ts): the copy of an
 * id from the latest input line survives, whether the segments' id hashes were computed as they
 * arrived or at the end; and the hashes a bulk-load thread computes as it buffers docs are those.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashBuiltIds, resolveBuiltIds } from '../../../src/engine/commit/bulk-ids.js';
import type { BuiltIds } from '../../../src/engine/commit/bulk-ids.js';
import { mulberry32 } from '../../../bench/queries.js';
import { getAnalyzer } from '../../../src/engine/analysis/index.js';
import { BulkBuffer } from '../../../src/engine/commit/bulk-chunk.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';

/** Segments of `docs` random docs each, ids drawn from a small set (so they repeat), lines a shuffled 1..n. */
function segments(random: () => number, counts: readonly number[], idSpace: number): BuiltIds[] {
  const total = counts.reduce((a, b) => a + b, 0);
  const lines = Array.from({ length: total }, (_, i) => i + 1);
  for (let i = lines.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [lines[i], lines[j]] = [lines[j], lines[i]];
  }
  let at = 0;
  return counts.map((n) => {
    const ids = Array.from({ length: n }, () => `id-${Math.floor(random() * idSpace)}`);
    const idEnds = new Uint32Array(n);
    let end = 0;
    ids.forEach((id, d) => { idEnds[d] = end += id.length; });
    const segmentLines = Int32Array.from(lines.slice(at, at + n));
    at += n;
    return { info: { maxDoc: n }, deletedDocs: [], lines: segmentLines, idText: ids.join(''), idEnds };
  });
}

/** The surviving (segment, doc) of each id by a plain scan: the latest line wins. */
function expectedLive(built: readonly BuiltIds[]): boolean[][] {
  const best = new Map<string, { line: number; s: number; d: number }>();
  built.forEach((seg, s) => {
    for (let d = 0; d < seg.info.maxDoc; d++) {
      const id = seg.idText.slice(d === 0 ? 0 : seg.idEnds[d - 1], seg.idEnds[d]);
      const b = best.get(id);
      if (b === undefined || b.line < seg.lines[d]) best.set(id, { line: seg.lines[d], s, d });
    }
  });
  const live = built.map((seg) => new Array<boolean>(seg.info.maxDoc).fill(false));
  for (const { s, d } of best.values()) live[s][d] = true;
  return live;
}

describe('resolveBuiltIds', () => {
  for (const counts of [[50, 70], [300, 10, 200, 1, 90], [1000, 1000, 1000, 1000, 1000, 1000, 1000]]) {
    it(`keeps the latest line of each id across ${counts.length} segments, with hashes computed ahead or not`, () => {
      const random = mulberry32(counts.length);
      const built = segments(random, counts, Math.max(10, counts.reduce((a, b) => a + b, 0) / 3));
      const expected = expectedLive(built);
      const atEnd = resolveBuiltIds(built).map((l, s) => Array.from({ length: built[s].info.maxDoc }, (_, d) => l.isLive(d)));
      const ahead = resolveBuiltIds(built.map((b) => ({ ...b, idHashes: hashBuiltIds(b) }))).map((l, s) => Array.from({ length: built[s].info.maxDoc }, (_, d) => l.isLive(d)));
      assert.deepEqual(atEnd, expected);
      assert.deepEqual(ahead, expected);
    });
  }
});

describe('BulkBuffer id hashes', () => {
  it('hashes each id as it is buffered exactly as hashBuiltIds hashes the flushed ids, on both line paths, repeated ids included', async () => {
    const mapping = parseMapping({ fields: { _id: { type: 'id' }, title: { type: 'text', search: { lexical: { analyze: 'english' } } } } }, 'ids');
    const buffer = new BulkBuffer(mapping, getAnalyzer);
    const lines = [
      '{"_id":"a1","title":"plain ascii"}',
      '{"_id":"caf\u00e9","title":"non-ASCII id: the general path"}',
      '{"title":"no id: derived from the line"}',
      '{"_id":42,"title":"numeric id"}',
      '{"_id":"a\\u0031x","title":"escaped id"}',
      '{"_id":"a1","title":"a repeated id"}',
      ...Array.from({ length: 3000 }, (_, i) => `{"_id":"doc-${i}","title":"more than the first array holds"}`),
    ];
    buffer.addChunk(Buffer.from(`${lines.join('\n')}\n`), 1, 'ids.jsonl', 'prefix:');
    const flushed = await buffer.flush('s');
    const expected = hashBuiltIds(flushed);
    assert.equal(flushed.idHashes.hashes.length, lines.length);
    assert.deepEqual(flushed.idHashes.hashes, expected.hashes);
    assert.deepEqual(flushed.idHashes.sorted, expected.sorted);
  });
});
