/**
 * Id resolution across the segments of one bulk load (engine/commit/bulk-ids.ts): the copy of an
 * id from the latest input line survives, whether the segments' id hashes were computed as they
 * arrived or at the end, filed one segment at a time (as a bulk load adds them) or all at once; and
 * the hashes a bulk-load thread computes as it buffers docs are those.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BuiltIdResolver, hashBuiltIds, hashId, resolveBuiltIds } from '../../../src/engine/commit/bulk-ids.js';
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

/** The surviving (segment, doc) of each id by a plain scan: the latest line wins (a doc deleted inside its segment never does). */
function expectedLive(built: readonly BuiltIds[]): boolean[][] {
  const best = new Map<string, { line: number; s: number; d: number }>();
  built.forEach((seg, s) => {
    for (let d = 0; d < seg.info.maxDoc; d++) {
      if (seg.deletedDocs.includes(d)) continue;
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

/** The live flags of `live`, by segment and doc. */
function flags(built: readonly BuiltIds[], live: readonly { isLive(doc: number): boolean }[]): boolean[][] {
  return live.map((l, s) => Array.from({ length: built[s].info.maxDoc }, (_, d) => l.isLive(d)));
}

/** Two different ids of the same {@link hashId}, found by trying `c-0`, `c-1`, ... (FNV-1a's 32 bits collide among ~10^5 ids). */
function collidingIds(): [string, string] {
  const seen = new Map<number, string>();
  for (let i = 0; ; i++) {
    const id = `c-${i}`;
    const other = seen.get(hashId(id));
    if (other !== undefined) return [other, id];
    seen.set(hashId(id), id);
  }
}

/** A segment of `ids` on `lines`, with `deletedDocs` deleted inside it, and its hashes computed as a bulk thread sends them. */
function segmentOf(ids: readonly string[], lines: readonly number[], deletedDocs: readonly number[] = []): BuiltIds {
  const idEnds = new Uint32Array(ids.length);
  let end = 0;
  ids.forEach((id, d) => { idEnds[d] = end += id.length; });
  const segment = { info: { maxDoc: ids.length }, deletedDocs, lines: Int32Array.from(lines), idText: ids.join(''), idEnds };
  return { ...segment, idHashes: hashBuiltIds(segment) };
}

describe('BuiltIdResolver', () => {
  it('gives what resolveBuiltIds gives when segments are filed one at a time, across table growth, with docs deleted inside segments', () => {
    const random = mulberry32(17);
    // Sizes that make the table grow between segments and within one (a first segment far smaller than the rest).
    const built = segments(random, [3, 5000, 40, 12000, 1, 9000, 0, 700], 6000).map((b) => {
      // Delete a few docs inside each segment, as a later line of the same id in that segment would.
      const deletedDocs = Array.from({ length: Math.floor(b.info.maxDoc / 50) }, (_, i) => i * 50);
      return { ...b, deletedDocs };
    });
    const expected = expectedLive(built);
    const ids = new BuiltIdResolver();
    for (const b of built) ids.add(b);
    assert.deepEqual(flags(built, ids.resolve(built)), expected);
    assert.deepEqual(flags(built, resolveBuiltIds(built)), expected);
  });

  for (const counts of [[400], [1, 300], [300, 0, 2]]) {
    it(`resolves ${counts.length} segment(s) whose own repeats are deleted inside them, as a bulk thread flushes them (${counts.join(', ')} docs)`, () => {
      const built = segments(mulberry32(counts.length + 40), counts, 120).map((b) => {
        // Inside a segment only the latest line of an id stays live (the segment buffer's upsert).
        const latest = new Map<string, number>();
        for (let d = 0; d < b.info.maxDoc; d++) {
          const id = b.idText.slice(d === 0 ? 0 : b.idEnds[d - 1], b.idEnds[d]);
          const other = latest.get(id);
          if (other === undefined || b.lines[other] < b.lines[d]) latest.set(id, d);
        }
        const keep = new Set(latest.values());
        return { ...b, deletedDocs: Array.from({ length: b.info.maxDoc }, (_, d) => d).filter((d) => !keep.has(d)) };
      });
      const ids = new BuiltIdResolver();
      for (const b of built) ids.add(b);
      assert.deepEqual(flags(built, ids.resolve(built)), expectedLive(built));
    });
  }

  it('keeps different ids whose hashes are equal, and resolves each among its own copies', () => {
    const [a, b] = collidingIds();
    assert.notEqual(a, b);
    assert.equal(hashId(a), hashId(b));
    // Lines: a on 1 and 4, b on 2 and 3, spread over three segments in an order other than the lines'.
    const built = [segmentOf([b, 'x'], [3, 5]), segmentOf([a], [4]), segmentOf([a, b, 'y'], [1, 2, 6])];
    const ids = new BuiltIdResolver();
    for (const s of built) ids.add(s);
    assert.deepEqual(flags(built, ids.resolve(built)), [[true, true], [true], [false, false, true]]);
  });

  it('refuses to resolve segments other than those it was given', () => {
    const built = [segmentOf(['a'], [1]), segmentOf(['a'], [2])];
    const ids = new BuiltIdResolver();
    ids.add(built[0]);
    assert.throws(() => ids.resolve(built), /other segments/);
    ids.add(segmentOf(['a'], [2]));
    assert.throws(() => ids.resolve(built), /other segments/);
  });
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
  });
});
