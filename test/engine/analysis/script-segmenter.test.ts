import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { maxTokenLength } from '../../../src/engine/analysis/analyzer.js';
import { segmentRun } from '../../../src/engine/analysis/script-segmenter.js';
import { corpusBytes } from '../../helpers/corpus-sample.js';

type Span = [position: number, start: number, end: number];

/** segmentRun's spans and final cursor for `text[begin, end)`, positions from 10. */
function spans(text: string, begin: number, end: number): { spans: Span[]; position: number; next: number } {
  const out: Span[] = [];
  const cursor = { position: 10, next: 10 };
  segmentRun(text, begin, end, cursor, (p, s, e, flags) => {
    assert.equal(flags, 0);
    out.push([p, s, e]);
  });
  return { spans: out, position: cursor.position, next: cursor.next };
}

const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/** The reference: every word-like segment of the run (cut in chunks of 1000 as segmentRun cuts), straight from Intl.Segmenter. */
function reference(text: string, begin: number, end: number): { spans: Span[]; position: number; next: number } {
  const out: Span[] = [];
  let position = 10;
  let next = 10;
  for (let chunkBegin = begin; chunkBegin < end; ) {
    let chunkEnd = Math.min(end, chunkBegin + 1000);
    const last = text.charCodeAt(chunkEnd - 1);
    if (chunkEnd < end && last >= 0xd800 && last <= 0xdbff) chunkEnd--;
    for (const part of segmenter.segment(text.slice(chunkBegin, chunkEnd))) {
      if (part.isWordLike !== true) continue;
      if (part.segment.length <= maxTokenLength) {
        out.push([position, chunkBegin + part.index, chunkBegin + part.index + part.segment.length]);
        next = position + 1;
      }
      position++;
    }
    chunkBegin = chunkEnd;
  }
  if (end - begin === 1 || (end - begin === 2 && text.codePointAt(begin)! > 0xffff)) return { spans: [[10, begin, end]], position: 11, next: 11 };
  return { spans: out, position, next };
}

const segmentedRun = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}][\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{M}]*/gu;

describe('segmentRun', () => {
  it('finds the words Intl.Segmenter finds in the CJK and Thai runs of the npm corpus, again when the run repeats', () => {
    let runs = 0;
    for (const line of corpusBytes('npm-packages.jsonl.gz').toString('utf8').split('\n', 120_000)) {
      if (!/[\u0e00-\u0e7f\u3040-\u30ff\u4e00-\u9fff]/.test(line)) continue;
      const summary = (JSON.parse(line) as { summary?: unknown }).summary;
      if (typeof summary !== 'string') continue;
      const text = summary;
      for (const match of text.matchAll(segmentedRun)) {
        const begin = match.index;
        const end = begin + match[0].length;
        const expected = reference(text, begin, end);
        assert.deepEqual(spans(text, begin, end), expected, match[0]);
        // The same run at another offset of another text: the memoised words, moved.
        const shifted = `ab ${text}`;
        assert.deepEqual(spans(shifted, begin + 3, end + 3), reference(shifted, begin + 3, end + 3), match[0]);
        runs++;
      }
    }
    assert.ok(runs > 500, `${runs} runs`);
  });

  it('matches Intl.Segmenter on random runs, long ones cut in chunks and over-long words dropped but counted', () => {
    const unit = fc.constantFrom('中', '文', '分', '词', '東', '京', 'の', 'は', 'カ', 'タ', 'ー', 'ภ', 'า', 'ษ', 'ไ', 'ท', 'ย', '\u0301', '𠀋');
    fc.assert(
      fc.property(fc.array(unit, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 40 }), (parts, repeat) => {
        const run = parts.join('').repeat(repeat);
        const text = `x ${run} y`;
        for (let round = 0; round < 2; round++) assert.deepEqual(spans(text, 2, 2 + run.length), reference(text, 2, 2 + run.length));
      }),
      { numRuns: 300 },
    );
    const long = 'ภ'.repeat(maxTokenLength + 40) + '中文'.repeat(700);
    const found = spans(long, 0, long.length);
    assert.deepEqual(found, reference(long, 0, long.length));
    assert.ok(found.position - 10 > found.spans.length, 'the over-long word keeps its position');
  });
});
