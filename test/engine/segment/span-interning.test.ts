import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Analyzer } from '../../../src/engine/analysis/analyzer.js';
import { getAnalyzer } from '../../../src/engine/analysis/analyzers.js';
import { hashSpan } from '../../../src/engine/analysis/span-hash.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';
import { validateDocument } from '../../../src/engine/schema/document.js';
import { RawTokenTable } from '../../../src/engine/segment/raw-token-table.js';
import { SegmentBuffer } from '../../../src/engine/segment/segment-buffer.js';

const mapping = parseMapping(
  {
    fields: {
      _id: { type: 'id' },
      title: { type: 'text', search: { lexical: { analyze: 'english' } } },
      body: { type: 'text[]', search: { lexical: { analyze: 'standard' } } },
      de: { type: 'text', search: { lexical: { analyze: 'german' } } },
    },
  },
  'mapping',
);

/** Text that takes every path of the span interning: case, non-ASCII case, curly apostrophes, CJK, long tokens. */
const samples = [
  'The Quick brown FOX jumps over the lazy dog’s back; the fox’s den',
  'ÉCOLE école Straße STRASSE İstanbul ıI DON’T don\'t Don\'T',
  '東京タワー and 東京 are in Tokyo; ภาษาไทย is Thai',
  `${'a'.repeat(300)} tail ${'Z'.repeat(256)} ${'q'.repeat(255)}`,
  'running Runs RUNNER ran run; caching Cached caches',
  'Ünïcödé ünïcödé UNICODE unicode Unicode 123 4567 x1y2 X1Y2',
];

function docs(): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < 400; i++) {
    const a = samples[i % samples.length];
    const b = samples[(i * 5 + 1) % samples.length];
    out.push({ _id: `d${i % 350}`, title: `${a} ${i}`, body: [b, `${i} W${i} w${i}`], de: `${b} Häuser HÄUSER häuser` });
  }
  return out;
}

/** An analyzer's string-only form: the same tokenizer and filters without `scan`. */
function withoutScan(analyzer: Analyzer): Analyzer {
  const { decomposed, name } = analyzer;
  const analyze: Analyzer['analyze'] = (text, sink, start) => analyzer.analyze(text, sink, start);
  if (decomposed === undefined) return { name, analyze };
  return {
    name,
    analyze,
    decomposed: { tokenize: (text, sink, start) => decomposed.tokenize(text, sink, start), normalize: (token) => decomposed.normalize(token) },
  };
}

async function segmentFiles(analyzer: (name: string) => Analyzer): Promise<Map<string, Uint8Array>> {
  const buffer = new SegmentBuffer(mapping, analyzer);
  for (const raw of docs()) {
    const doc = validateDocument(mapping, raw, {});
    buffer.add(doc, doc.id!, JSON.stringify(doc.stored));
  }
  return new Map((await buffer.flush('seg-000001')).files);
}

describe('span interning in the inverter', () => {
  it('writes byte for byte the segment the string path writes', async () => {
    assert.ok(getAnalyzer('english').decomposed?.scan !== undefined, 'english scans spans');
    const spans = await segmentFiles(getAnalyzer);
    const strings = await segmentFiles((name) => withoutScan(getAnalyzer(name)));
    assert.deepEqual([...spans.keys()].sort(), [...strings.keys()].sort());
    for (const [name, bytes] of spans) assert.ok(Buffer.from(bytes).equals(strings.get(name)!), `${name} differs`);
  });

  it('tells apart two tokens of one length whose hashes collide', () => {
    // FNV-1a (the table's hash) maps both to -1581475249: only comparing characters separates them.
    const fnv = (t: string): number => {
      let h = 0x811c9dc5 | 0;
      for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193);
      return h;
    };
    assert.equal(fnv('glbvs'), fnv('yacxa'));
    const table = new RawTokenTable();
    let next = 0;
    const resolved: string[] = [];
    const text = 'glbvs yacxa GLBVS YACXA';
    const lookup = (start: number, lower: boolean): number =>
      table.lookup(text, start, start + 5, lower, hashSpan(text, start, start + 5), (s, e) => {
        resolved.push(text.slice(s, e));
        return next++;
      });
    assert.deepEqual([lookup(0, false), lookup(6, false), lookup(0, false), lookup(6, false)], [0, 1, 0, 1]);
    // Uppercase ASCII read as lowercase finds the same entries.
    assert.deepEqual([lookup(12, true), lookup(18, true)], [0, 1]);
    assert.deepEqual(resolved, ['glbvs', 'yacxa']);
  });
});
