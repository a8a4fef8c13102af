import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Analyzer } from '../../../src/engine/analysis/analyzer.js';
import { SpanFlags } from '../../../src/engine/analysis/analyzer.js';
import { getAnalyzer } from '../../../src/engine/analysis/analyzers.js';
import { scanStandard } from '../../../src/engine/analysis/standard-analyzer.js';
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

async function segmentFiles(analyzer: (name: string) => Analyzer, input: unknown[] = docs()): Promise<Map<string, Uint8Array>> {
  const buffer = new SegmentBuffer(mapping, analyzer);
  for (const raw of input) {
    const doc = validateDocument(mapping, raw, {});
    buffer.add(doc, doc.id!, JSON.stringify(doc.stored));
  }
  return new Map((await buffer.flush('seg-000001')).files);
}

/** Words of mixed scripts and cases, joined by spaces, punctuation and apostrophes. */
const mixedText = fc
  .array(
    fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9]{1,12}$/),
      fc.constantFrom('The', 'RUNNING', 'runs', 'École', 'ÉCOLE', 'Straße', 'İstanbul', 'ıI', 'don’t', "Don't", 'dog’s', "ship's", 'x’', '’y'),
      fc.constantFrom('東京タワー', 'ภาษาไทย', '日本語', '𝒳y', 'é', 'e\u0301', 'Ünïcödé', '😀', 'a\u200db', 'ΣΊΣΥΦΟΣ', 'Привет'),
      fc.constantFrom('q'.repeat(255), 'Q'.repeat(256), 'w'.repeat(300)),
    ),
    { maxLength: 25 },
  )
  .chain((words) => fc.array(fc.constantFrom(' ', ', ', '-', "'", '’', '. ', '\n', '_', ''), { minLength: words.length, maxLength: words.length }).map((seps) => words.map((w, i) => w + seps[i]).join('')));

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
  it('writes what the string path writes for random text of mixed scripts and cases', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mixedText, { minLength: 1, maxLength: 12 }), async (texts) => {
        const input = texts.map((text, i) => ({ _id: `d${i % 9}`, title: text, body: [texts[(i + 1) % texts.length], text], de: text }));
        // A fresh analyzer instance per run, so the thread's vocabulary of the analyzer starts empty.
        const fresh = (name: string): Analyzer => ({ ...getAnalyzer(name) });
        const spans = await segmentFiles(fresh, input);
        const strings = await segmentFiles((name) => withoutScan(getAnalyzer(name)), input);
        for (const [name, bytes] of spans) assert.ok(Buffer.from(bytes).equals(strings.get(name)!), `${name} differs`);
      }),
      { numRuns: 60 },
    );
  });

  it('reports with each span the hash of its characters, ASCII capitals read as lowercase', () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        scanStandard(text, (_position, start, end, flags, hash) => {
          if ((flags & (SpanFlags.upperOther | SpanFlags.curlyApostrophe)) === 0) assert.equal(hash, hashSpan(text, start, end), text.slice(start, end));
        });
      }),
      { numRuns: 300 },
    );
  });
});
