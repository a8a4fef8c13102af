import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Analyzer } from '../../../src/engine/analysis/analyzer.js';
import { getAnalyzer } from '../../../src/engine/analysis/analyzers.js';
import { TimeSlicer } from '../../../src/engine/event-loop.js';
import { FieldInverter, POSITION_GAP } from '../../../src/engine/segment/field-inverter.js';
import { sharedVocabulary } from '../../../src/engine/segment/shared-vocabulary.js';
import type { SegmentWriter } from '../../../src/engine/segment/segment-writer.js';

/** One term as the inverter hands it to the segment writer, copied out of its scratch arrays. */
interface WrittenTerm {
  readonly term: string;
  readonly docs: number[];
  readonly freqs: number[];
  readonly positions: number[];
}

/** What the inverter writes: the field's norms and its terms, in the order it writes them. */
async function written(analyzer: Analyzer, docs: readonly (readonly string[])[], slicer: TimeSlicer, scratchSpans = 0): Promise<{ norms: number[]; terms: WrittenTerm[] }> {
  const inverter = new FieldInverter('f', analyzer, scratchSpans);
  for (const [d, values] of docs.entries()) {
    // A lone ASCII value (no JSON escape in it) takes the byte path where the analyzer has one.
    const ascii = values.length === 1 && /^[\x20-\x7e]*$/.test(values[0]) && !/["\\]/.test(values[0]);
    if (!ascii || !inverter.invertAscii(d, Buffer.from(values[0], 'latin1'), 0, values[0].length)) inverter.invert(d, values);
  }
  let norms: number[] = [];
  const terms: WrittenTerm[] = [];
  const writer = {
    startField(_field: string, _options: unknown, fieldNorms: Uint8Array) {
      norms = [...fieldNorms];
    },
    addTerm(term: string, count: number, d: Int32Array, f: Int32Array, p: Int32Array) {
      const freqs = [...f.subarray(0, count)];
      terms.push({ term, docs: [...d.subarray(0, count)], freqs, positions: [...p.subarray(0, freqs.reduce((a, b) => a + b, 0))] });
    },
    addSingleDocTerm(term: string, doc: number, freq: number, p: Int32Array, from: number) {
      terms.push({ term, docs: [doc], freqs: [freq], positions: [...p.subarray(from, from + freq)] });
    },
  } as unknown as SegmentWriter;
  await inverter.writeTo(writer, docs.length, slicer);
  return { norms, terms };
}

/**
 * The same postings built the plain way: the analyzer's string tokens into a map, sorted by term.
 * A decomposed analyzer's tokenizer and filter are run as such, as the inverter does: the next
 * value's positions then continue from the tokenizer's last token, stop word or not.
 */
function expected(analyzer: Analyzer, docs: readonly (readonly string[])[]): WrittenTerm[] {
  const { decomposed } = analyzer;
  const analyze: Analyzer['analyze'] =
    decomposed === undefined
      ? (text, sink, start) => analyzer.analyze(text, sink, start)
      : (text, sink, start) =>
          decomposed.tokenize(text, (token, p, s, e) => {
            const term = decomposed.normalize(token);
            if (term !== null) sink(term, p, s, e);
          }, start);
  const byTerm = new Map<string, { docs: number[]; freqs: number[]; positions: number[] }>();
  for (const [d, values] of docs.entries()) {
    let position = 0;
    for (const value of values) {
      position =
        analyze(value, (term, p) => {
          let postings = byTerm.get(term);
          if (postings === undefined) byTerm.set(term, (postings = { docs: [], freqs: [], positions: [] }));
          if (postings.docs.at(-1) !== d) {
            postings.docs.push(d);
            postings.freqs.push(0);
          }
          postings.freqs[postings.freqs.length - 1]++;
          postings.positions.push(p);
        }, position) + POSITION_GAP;
    }
  }
  return [...byTerm.keys()].sort().map((term) => ({ term, ...byTerm.get(term)! }));
}

/** A slicer whose slice is always used up, so the write yields between every run of terms. */
class AlwaysDue extends TimeSlicer {
  yields = 0;
  override due(): boolean {
    return true;
  }
  override async yield(): Promise<void> {
    this.yields++;
    await super.yield();
  }
}

const words = fc.constantFrom('Run', 'running', 'runs', 'the', 'École', 'ÉCOLE', 'don’t', 'dog’s', 'alpha', 'beta', 'gamma', 'x1', 'Z9', '東京');

describe('FieldInverter', () => {
  it('writes each term once, in term order, with the docs, frequencies and positions of the plain string inversion', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.array(words, { maxLength: 30 }).map((w) => w.join(' ')), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 40 }),
        async (docs) => {
          for (const name of ['english', 'standard', 'whitespace']) {
            const analyzer = { ...getAnalyzer(name) };
            const { terms } = await written(analyzer, docs, new TimeSlicer());
            assert.deepEqual(terms, expected(getAnalyzer(name), docs), name);
          }
        },
      ),
    );
  });

  it('follows a frequent term through every slice size, and yields between runs of terms when its slice is used up', async () => {
    // "alpha" is in every doc, "beta" 40 times in a few: their streams chain slices up to the
    // largest; the distinct words give the write thousands of terms to cut into runs.
    const docs = Array.from({ length: 3_000 }, (_, d) => [`alpha w${d} v${d % 97}`, d % 500 === 0 ? Array(40).fill('beta').join(' ') : 'gamma']);
    const analyzer = { ...getAnalyzer('standard') };
    const slicer = new AlwaysDue();
    const { norms, terms } = await written(analyzer, docs, slicer);
    assert.deepEqual(terms, expected(analyzer, docs));
    assert.equal(terms.find((t) => t.term === 'alpha')!.docs.length, 3_000);
    assert.ok(slicer.yields >= 2, `${slicer.yields} yields`);
    assert.equal(norms.length, 3_000);
  });

  it('writes the same with a small scratch vocabulary (new epochs, tables and arrays that grow) as the plain inversion', async () => {
    const many = fc.oneof(words, fc.stringMatching(/^[a-zA-Z0-9]{1,14}$/), fc.constantFrom('internationalization', "rock'n'roll", 'q'.repeat(300)));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(many, { maxLength: 40 }).map((w) => [w.join(' ')]), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 40 }),
        async (docs, spans) => {
          for (const name of ['english', 'standard']) {
            const { terms } = await written({ ...getAnalyzer(name) }, docs, new TimeSlicer(), spans);
            assert.deepEqual(terms, expected(getAnalyzer(name), docs), name);
          }
        },
      ),
    );
  });

  it('warms its span path up without touching the thread\'s vocabulary of the analyzer', () => {
    const analyzer = { ...getAnalyzer('english') };
    const inverter = new FieldInverter('f', analyzer);
    const vocabulary = sharedVocabulary(analyzer, () => null);
    assert.deepEqual(vocabulary.terms, []);
    assert.equal(vocabulary.epoch, 0);
    inverter.invert(0, ['Running dogs']);
    assert.deepEqual(vocabulary.terms, ['run', 'dog']);
  });
});
