import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { maxTokenLength, scanStandard, SpanFlags, spanTerm } from '../../../src/engine/analysis/index.js';
import { createStandardAnalyzer } from '../../../src/engine/analysis/standard-analyzer.js';
import { run } from './helpers.js';

const standard = createStandardAnalyzer();
const terms = (text: string): string[] => run(standard, text).terms;

describe('createStandardAnalyzer', () => {
  it('splits ASCII text on punctuation and lowercases it', () => {
    assert.deepEqual(terms('Hello, World! foo-bar_baz (QUX).'), ['hello', 'world', 'foo', 'bar', 'baz', 'qux']);
  });

  it('is named standard', () => {
    assert.equal(standard.name, 'standard');
  });

  it('numbers positions from zero and returns the next free position', () => {
    const result = run(standard, 'one two three');
    assert.deepEqual(result.positions, [0, 1, 2]);
    assert.equal(result.next, 3);
  });

  it('continues from startPosition and returns it when there is no token', () => {
    assert.deepEqual(run(standard, 'a b', 100), { terms: ['a', 'b'], positions: [100, 101], next: 102 });
    assert.equal(run(standard, ' ... !? ', 7).next, 7);
    assert.equal(run(standard, '', 3).next, 3);
  });

  it('keeps digits and mixed alphanumerics, splitting decimals', () => {
    assert.deepEqual(terms('ES2023 v1.2.3 3.14 1,000 42'), ['es2023', 'v1', '2', '3', '3', '14', '1', '000', '42']);
  });

  it('keeps accented Latin letters, precomposed or combining', () => {
    assert.deepEqual(terms('Crème Brûlée à la CAFÉ'), ['crème', 'brûlée', 'à', 'la', 'café']);
    assert.deepEqual(terms('e\u0301cole'), ['e\u0301cole']);
  });

  it('lowercases Cyrillic and Greek', () => {
    assert.deepEqual(terms('Москва — СТОЛИЦА России'), ['москва', 'столица', 'россии']);
    assert.deepEqual(terms('Ελληνική ΓΛΩΣΣΑ'), ['ελληνική', 'γλωσσα']);
  });

  it('joins apostrophes between letters only and normalises U+2019', () => {
    assert.deepEqual(terms("don't 'quoted' rock'n'roll"), ["don't", 'quoted', "rock'n'roll"]);
    assert.deepEqual(terms('don’t'), ["don't"]);
    assert.deepEqual(terms("dogs' bones"), ['dogs', 'bones']);
  });

  it('treats emoji as separators and astral letters as letters', () => {
    assert.deepEqual(terms('fast🚀search'), ['fast', 'search']);
    assert.deepEqual(terms('👍🏽 👨‍👩‍👧 ok'), ['ok']);
    assert.deepEqual(terms('x𝐀y 𐐀𐐨'), ['x𝐀y', '𐐨𐐨']); // math bold A has no case; Deseret does
    assert.deepEqual(terms('𠀋 and 𠀋x'), ['𠀋', 'and', '𠀋', 'x']); // Han extension B is segmented
  });

  it('ignores lone surrogates', () => {
    assert.deepEqual(terms('ab\ud800cd \udc00ef'), ['ab', 'cd', 'ef']);
  });

  it('segments Chinese and Japanese runs into words', () => {
    assert.deepEqual(terms('我爱北京天安门'), ['我', '爱', '北京', '天安门']);
    assert.deepEqual(terms('東京都に住んでいます'), ['東京', '都', 'に', '住', 'んで', 'い', 'ます']);
    assert.deepEqual(terms('カタカナ'), ['カタカナ']);
  });

  it('segments Thai runs into words', () => {
    assert.deepEqual(terms('ภาษาไทยง่ายนิดเดียว'), ['ภาษา', 'ไทย', 'ง่าย', 'นิด', 'เดียว']);
  });

  it('splits Latin from CJK and keeps positions consecutive across them', () => {
    const result = run(standard, 'iPhone手机 and 北京');
    assert.deepEqual(result.terms, ['iphone', '手机', 'and', '北京']);
    assert.deepEqual(result.positions, [0, 1, 2, 3]);
    assert.equal(result.next, 4);
  });

  it('drops tokens longer than the limit but keeps their position', () => {
    const long = 'x'.repeat(maxTokenLength + 1);
    const kept = 'y'.repeat(maxTokenLength);
    const result = run(standard, `a ${long} ${kept} b`);
    assert.deepEqual(result.terms, ['a', kept, 'b']);
    assert.deepEqual(result.positions, [0, 2, 3]);
  });

  it('emits only non-empty lowercase terms without whitespace at increasing positions', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.nat(1000), (text, start) => {
        const result = run(standard, text, start);
        let previous = start - 1;
        for (const [k, term] of result.terms.entries()) {
          assert.ok(term.length > 0);
          assert.equal(term, term.toLowerCase());
          assert.ok(!/\s/u.test(term), `whitespace in ${JSON.stringify(term)}`);
          assert.ok(result.positions[k] > previous);
          previous = result.positions[k]!;
        }
        assert.equal(result.next, result.terms.length === 0 ? start : previous + 1);
      }),
      { numRuns: 500 },
    );
  });

  it('finds the same terms as a reference regex on ASCII text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'B', '9', ' ', '.', ',', '-', '_', ';', '\t', '\n'), maxLength: 60 }), (text) => {
        assert.deepEqual(terms(text), text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
      }),
    );
  });

  it('reports offsets whose source slice lowercases to the term, in increasing order', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (text) => {
        let previousEnd = 0;
        standard.analyze(text, (term, _position, start, end) => {
          assert.ok(start >= previousEnd && end > start && end <= text.length, `${start}-${end} after ${previousEnd}`);
          assert.equal(text.slice(start, end).toLowerCase().replaceAll('\u2019', "'"), term);
          previousEnd = end;
        });
      }),
      { numRuns: 500 },
    );
  });

  it('reports the offsets of segmented words and of words after them', () => {
    const text = 'Tokyo 東京に住む bob';
    const spans: string[] = [];
    standard.analyze(text, (term, _position, start, end) => spans.push(`${term}:${text.slice(start, end)}`));
    assert.ok(spans.includes('東京:東京'), spans.join(' '));
    assert.equal(spans[0], 'tokyo:Tokyo');
    assert.equal(spans[spans.length - 1], 'bob:bob');
  });

  it('scans the same tokens as spans, without strings, as it analyzes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.nat(100), (text, start) => {
        const analyzed: string[] = [];
        const analyzedNext = standard.analyze(text, (term, position, s, e) => analyzed.push(`${term}@${position}:${s}-${e}`), start);
        const scanned: string[] = [];
        const scannedNext = scanStandard(text, (position, s, e, flags) => scanned.push(`${spanTerm(text, s, e, flags)}@${position}:${s}-${e}`), start);
        assert.deepEqual(scanned, analyzed);
        assert.equal(scannedNext, analyzedNext);
      }),
      { numRuns: 300 },
    );
  });

  it('flags ASCII capitals apart from other capitals, so ASCII can be lowercased inline', () => {
    const flags: number[] = [];
    scanStandard('Bob ÉCOLE plain don’t', (_p, _s, _e, f) => flags.push(f));
    assert.deepEqual(flags, [SpanFlags.upperAscii, SpanFlags.upperAscii | SpanFlags.upperOther, 0, SpanFlags.curlyApostrophe]);
  });
});
