import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Analyzer } from '../../../src/engine/analysis/analyzer.js';
import { SpanFlags } from '../../../src/engine/analysis/analyzer.js';
import { getAnalyzer } from '../../../src/engine/analysis/analyzers.js';
import { hashSpan } from '../../../src/engine/analysis/span-hash.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';
import { validateDocument } from '../../../src/engine/schema/document.js';
import { SegmentBuffer } from '../../../src/engine/segment/segment-buffer.js';
import { DROPPED, MAX_SPANS, SharedVocabulary, sharedVocabulary } from '../../../src/engine/segment/shared-vocabulary.js';

/** The ordinal of every whitespace-separated word of `text` (ASCII capitals folded). */
function ordinals(vocabulary: SharedVocabulary, text: string): number[] {
  return [...text.matchAll(/\S+/g)].map((m) => {
    const end = m.index + m[0].length;
    const flags = /[A-Z]/.test(m[0]) ? SpanFlags.upperAscii : 0;
    return vocabulary.ordinal(text, m.index, end, flags, hashSpan(text, m.index, end));
  });
}

const mapping = parseMapping(
  {
    fields: {
      _id: { type: 'id' },
      title: { type: 'text', search: { lexical: { analyze: 'english' } } },
      body: { type: 'text', search: { lexical: { analyze: 'english' } } },
    },
  },
  'mapping',
);

/** The english analyzer with a vocabulary of its own (vocabularies are kept per analyzer instance). */
function freshEnglish(): Analyzer {
  return { ...getAnalyzer('english') };
}

/** The same analyzer without `scan`: every token takes the string path. */
function stringsOnly(analyzer: Analyzer): Analyzer {
  const { decomposed, name } = analyzer;
  return {
    name,
    analyze: (text, sink, start) => analyzer.analyze(text, sink, start),
    decomposed: { tokenize: (text, sink, start) => decomposed!.tokenize(text, sink, start), normalize: (token) => decomposed!.normalize(token) },
  };
}

/** Segments of `batches` (one buffer each, flushed in turn) through `analyzer`. */
async function segments(analyzer: Analyzer, batches: readonly (readonly Record<string, unknown>[])[]): Promise<Map<string, Uint8Array>[]> {
  const out: Map<string, Uint8Array>[] = [];
  for (const [b, batch] of batches.entries()) {
    const buffer = new SegmentBuffer(mapping, () => analyzer);
    for (const raw of batch) {
      const doc = validateDocument(mapping, raw, {});
      buffer.add(doc, doc.id!, JSON.stringify(doc.stored));
    }
    out.push(new Map((await buffer.flush(`seg-${b}`)).files));
  }
  return out;
}

function assertSameSegments(actual: Map<string, Uint8Array>[], expected: Map<string, Uint8Array>[]): void {
  assert.equal(actual.length, expected.length);
  for (const [i, files] of actual.entries()) {
    assert.deepEqual([...files.keys()].sort(), [...expected[i].keys()].sort());
    for (const [name, bytes] of files) assert.ok(Buffer.from(bytes).equals(expected[i].get(name)!), `segment ${i}: ${name} differs`);
  }
}

describe('SharedVocabulary', () => {
  it('learns each span once and gives spans with one term one ordinal', () => {
    const seen: string[] = [];
    const vocabulary = new SharedVocabulary((token) => {
      seen.push(token);
      return token === 'the' ? null : token.replace(/s$/, '');
    });
    assert.deepEqual(ordinals(vocabulary, 'Runs run the RUNS runs The'), [0, 0, DROPPED, 0, 0, DROPPED]);
    assert.deepEqual(ordinals(vocabulary, 'jump jumps run'), [1, 1, 0]);
    assert.deepEqual(vocabulary.terms, ['run', 'jump']);
    // ASCII capitals fold before the filter sees a token, so "RUNS" and "runs" are one span.
    assert.deepEqual(seen, ['runs', 'run', 'the', 'jump', 'jumps']);
    assert.equal(vocabulary.epoch, 0);
  });

  it('gives a token made as a string the ordinal of its term, shared with spans, and learns it once', () => {
    const seen: string[] = [];
    const vocabulary = new SharedVocabulary((token) => {
      seen.push(token);
      return token === 'the' ? null : token.replace(/s$/, '');
    });
    assert.deepEqual(ordinals(vocabulary, 'école runs'), [0, 1]);
    // "écoles" (lowercased from "ÉCOLES" by the caller) is a new token of the known term "école".
    assert.deepEqual([vocabulary.tokenOrdinal('écoles'), vocabulary.tokenOrdinal('run'), vocabulary.tokenOrdinal('the')], [0, 1, DROPPED]);
    assert.deepEqual([vocabulary.tokenOrdinal('écoles'), vocabulary.tokenOrdinal('the')], [0, DROPPED]);
    assert.deepEqual(vocabulary.terms, ['école', 'run']);
    assert.deepEqual(seen, ['école', 'runs', 'écoles', 'run', 'the']);
  });

  it('gives each term one ordinal whatever its form: long, wide, cased, empty, colliding in the hash', () => {
    // Filters that map several tokens to one term of every kind the term table keys differently.
    const vocabulary = new SharedVocabulary((token) => {
      if (token.startsWith('long')) return 'internationalization';
      if (token.startsWith('wide')) return 'straße';
      if (token.startsWith('up')) return 'Case';
      if (token.startsWith('empty')) return '';
      return token;
    });
    const got = ordinals(vocabulary, 'long1 wide1 up1 empty1 long2 wide2 up2 empty2 case');
    assert.deepEqual(got, [0, 1, 2, 3, 0, 1, 2, 3, 4]);
    assert.deepEqual(vocabulary.terms, ['internationalization', 'straße', 'Case', '', 'case']);
    // Many distinct terms (the table grows past its first size) keep their ordinals.
    const words = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}x`);
    const first = ordinals(vocabulary, words.join(' '));
    assert.deepEqual(ordinals(vocabulary, words.join(' ')), first);
    assert.equal(new Set(first).size, words.length);
    assert.deepEqual(first.map((o) => vocabulary.terms[o]), words);
  });

  it('gives a term one ordinal whether it was first met as a span of bytes left as it is, or as the filter output of another token', () => {
    // "runs" -> "run", "running" -> "run", and a long term both ways: the term table keys a term
    // equal to its span from the span's bytes, and any other term from its string.
    const filter = (token: string): string | null => (token === 'the' ? null : token.replace(/(s|ning|ingly)$/, ''));
    const byBytes = (vocabulary: SharedVocabulary, text: string): number[] => {
      const bytes = Buffer.from(` ${text} `, 'latin1');
      return [...text.matchAll(/\S+/g)].map((m) => {
        const start = m.index + 1;
        const end = start + m[0].length;
        return vocabulary.byteOrdinal(bytes, start, end, hashSpan(text, m.index, m.index + m[0].length));
      });
    };
    const text = 'run RUNS running The internationalization INTERNATIONALIZATIONS internationalizationingly x X';
    const spansFirst = new SharedVocabulary(filter);
    const a = [...byBytes(spansFirst, text), ...ordinals(spansFirst, text)];
    const stemsFirst = new SharedVocabulary(filter);
    const reversed = text.split(' ').reverse().join(' ');
    const b = [...byBytes(stemsFirst, reversed).reverse(), ...ordinals(stemsFirst, text)];
    const expected = [0, 0, 0, DROPPED, 1, 1, 1, 2, 2];
    assert.deepEqual(a, [...expected, ...expected]);
    assert.deepEqual(spansFirst.terms, ['run', 'internationalization', 'x']);
    assert.deepEqual(b.map((o) => (o === DROPPED ? null : stemsFirst.terms[o])), a.map((o) => (o === DROPPED ? null : spansFirst.terms[o])));
    assert.equal(new Set(stemsFirst.terms).size, 3);
  });

  it('starts again under a new epoch when the tokens it keys by string pass the bound', () => {
    const vocabulary = new SharedVocabulary((token) => token);
    for (let i = 0; i < MAX_SPANS; i++) assert.equal(vocabulary.tokenOrdinal(`é${i.toString(36)}`), i);
    assert.equal(vocabulary.epoch, 0);
    assert.equal(vocabulary.tokenOrdinal('ünïcödé'), 0);
    assert.equal(vocabulary.epoch, 1);
    assert.deepEqual(vocabulary.terms, ['ünïcödé']);
    // The new epoch's terms are shared by spans: the span "ünïcödé" finds the token's ordinal.
    assert.deepEqual(ordinals(vocabulary, 'x ünïcödé'), [1, 0]);
  });

  it('starts again empty past its bound, under a new epoch', () => {
    const vocabulary = new SharedVocabulary((token) => token);
    const words = Array.from({ length: MAX_SPANS + 10 }, (_, i) => `w${i.toString(36)}`);
    const text = words.join(' ');
    const got = ordinals(vocabulary, text);
    assert.equal(vocabulary.epoch, 1);
    // The span past the bound is the first of the new epoch; ordinals restart at 0.
    assert.deepEqual(got.slice(MAX_SPANS - 2), [MAX_SPANS - 2, MAX_SPANS - 1, ...Array.from({ length: 10 }, (_, i) => i)]);
    assert.equal(vocabulary.terms.length, 10);
    assert.equal(vocabulary.terms[0], words[MAX_SPANS]);
  });

  it('lets every inverter of a thread share what it learned, segment after segment, and write what the string path writes', async () => {
    const batch = (from: number): Record<string, unknown>[] =>
      Array.from({ length: 300 }, (_, i) => ({
        _id: `d${from + i}`,
        title: `The Running ${from + i} RUNS runner’s don’t École école x${(from + i) % 17}`,
        body: `the runner's run ${i % 7} Ünïcödé UNICODE ${from + i}th`,
      }));
    const batches = [batch(0), batch(200), batch(400)];
    const analyzer = freshEnglish();
    assertSameSegments(await segments(analyzer, batches), await segments(stringsOnly(analyzer), batches));
  });

  it('writes what the string path writes when the vocabulary starts again inside a buffer', async () => {
    // More distinct words than one epoch holds, in both fields and across two buffers.
    const docs = Array.from({ length: 2_000 }, (_, d) => ({
      _id: `d${d}`,
      title: Array.from({ length: 40 }, (_, k) => `T${(d * 40 + k).toString(36)} the`).join(' '),
      body: Array.from({ length: 40 }, (_, k) => `q${((d * 40 + k) * 7919 % 80_000).toString(36)} Running`).join(' '),
    }));
    const batches = [docs.slice(0, 1_200), docs.slice(1_200)];
    const analyzer = freshEnglish();
    const spans = await segments(analyzer, batches);
    assert.equal(sharedVocabulary(analyzer, (token) => token).epoch, 1, 'the vocabulary started again once');
    assertSameSegments(spans, await segments(stringsOnly(analyzer), batches));
  });
});
