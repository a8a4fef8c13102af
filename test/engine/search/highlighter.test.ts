import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { getAnalyzer } from '../../../src/engine/analysis/analyzers.js';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { highlight } from '../../../src/engine/search/highlighter.js';

const english = getAnalyzer('english');
const standard = getAnalyzer('standard');

const unescapes: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (s: string): string => s.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => unescapes[e]);
const escape = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => Object.entries(unescapes).find(([, raw]) => raw === c)![0]);
const stripTags = (s: string): string => s.replaceAll('<em>', '').replaceAll('</em>', '');
const marked = (s: string): string[] => [...s.matchAll(/<em>(.*?)<\/em>/g)].map((m) => m[1]);

/** The terms `analyzer` makes of `text`. */
function termsOf(analyzer: typeof english, text: string): Set<string> {
  const terms = new Set<string>();
  analyzer.analyze(text, (t) => terms.add(t));
  return terms;
}

describe('highlight', () => {
  it('marks words whose stems are query terms, in their original casing', () => {
    assert.deepEqual(highlight('Running runners run', english, new Set(['run', 'runner'])), [
      '<em>Running</em> <em>runners</em> <em>run</em>',
    ]);
  });

  it('marks only words whose analyzed form is a query term', () => {
    assert.deepEqual(highlight('The Matrix Reloaded', standard, new Set(['matrix'])), ['The <em>Matrix</em> Reloaded']);
    // "the" is a stop word for english: it analyzes to nothing, so it never matches.
    assert.deepEqual(highlight('The Matrix', english, new Set(['the'])), []);
  });

  it('keeps possessives and inner apostrophes inside the marked word', () => {
    assert.deepEqual(highlight("Neo's ship don't", english, new Set(['neo', "don't"])), [
      "<em>Neo&#39;s</em> ship <em>don&#39;t</em>",
    ]);
  });

  it('escapes HTML in the text but not the tags', () => {
    assert.deepEqual(highlight('<b>fish</b> & "chips" \'n\' peas', standard, new Set(['fish', 'chips'])), [
      '&lt;b&gt;<em>fish</em>&lt;/b&gt; &amp; &quot;<em>chips</em>&quot; &#39;n&#39; peas',
    ]);
  });

  it('uses custom tags', () => {
    assert.deepEqual(highlight('red fox', standard, new Set(['fox']), { preTag: '[', postTag: ']' }), ['red [fox]']);
  });

  it('returns [] when nothing matches or there are no terms', () => {
    assert.deepEqual(highlight('Running runners run', english, new Set(['walk'])), []);
    assert.deepEqual(highlight('Running runners run', english, new Set()), []);
    assert.deepEqual(highlight('', english, new Set(['run'])), []);
  });

  it('returns a text no longer than fragmentSize whole, as one fragment', () => {
    const text = 'alpha beta gamma delta';
    assert.deepEqual(highlight(text, standard, new Set(['alpha', 'delta']), { fragmentSize: text.length }), [
      '<em>alpha</em> beta gamma <em>delta</em>',
    ]);
  });

  it('returns the whole text as one fragment when numberOfFragments is 0', () => {
    const text = 'alpha beta gamma delta '.repeat(20);
    const [whole, ...rest] = highlight(text, standard, new Set(['beta']), { fragmentSize: 10, numberOfFragments: 0 });
    assert.equal(rest.length, 0);
    assert.equal(stripTags(whole), text);
    assert.equal(marked(whole).length, 20);
  });

  it('orders fragments by distinct matched terms, then by position, and keeps at most numberOfFragments', () => {
    const filler = 'lorem ipsum dolor sit amet '.repeat(4);
    const text = `${filler}one fox here. ${filler}fox and dog together. ${filler}fox again alone. ${filler}fox dog cat all three. ${filler}`;
    const terms = new Set(['fox', 'dog', 'cat']);
    const fragments = highlight(text, standard, terms, { fragmentSize: 40, numberOfFragments: 10 });
    assert.equal(fragments.length, 4);
    assert.deepEqual(fragments.map((f) => new Set(marked(f)).size), [3, 2, 1, 1]);
    assert.ok(fragments[0].includes('<em>cat</em>'));
    assert.ok(fragments[2].includes('one <em>fox</em>'), 'the earlier of two equal fragments comes first');
    assert.ok(fragments[3].includes('<em>fox</em> again'));
    assert.deepEqual(highlight(text, standard, terms, { fragmentSize: 40, numberOfFragments: 2 }), fragments.slice(0, 2));
  });

  it('cuts fragments near fragmentSize at word boundaries', () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`);
    const text = words.join(' ');
    const [fragment] = highlight(text, standard, new Set(['w100']), { fragmentSize: 30, numberOfFragments: 1 });
    const plain = stripTags(fragment);
    assert.ok(plain.length <= 30 && plain.length >= 20, plain);
    assert.ok(plain.includes('w100'));
    for (const word of plain.split(' ')) assert.ok(words.includes(word), `cut word "${word}"`);
  });

  it('highlights accented, astral and segmented-script words without splitting characters', () => {
    assert.deepEqual(highlight('Ünïcödé café 😀 naïve', standard, new Set(['café', 'ünïcödé'])), [
      '<em>Ünïcödé</em> <em>café</em> 😀 naïve',
    ]);
    assert.deepEqual(highlight('𝒜𝒷 test', standard, termsOf(standard, '𝒜𝒷')), ['<em>𝒜𝒷</em> test']);
    const japanese = '私は東京に住んでいます';
    const [fragment] = highlight(japanese, standard, new Set(['東京']));
    assert.equal(stripTags(fragment), japanese);
    assert.deepEqual(marked(fragment), ['東京']);
  });

  it('marks whole white-space runs for the whitespace analyzer and the whole value for keyword', () => {
    assert.deepEqual(highlight('I like C++ and c', getAnalyzer('whitespace'), new Set(['c++'])), ['I like <em>C++</em> and c']);
    assert.deepEqual(highlight('New York', getAnalyzer('keyword'), new Set(['New York'])), ['<em>New York</em>']);
    assert.deepEqual(highlight('New York', getAnalyzer('keyword'), new Set(['New'])), []);
  });

  it('marks words by the field language analyzer, inflections and elisions included', () => {
    // German: the query "Kind" (child) matches "Kinder" (children); "und" stays unmarked.
    const german = getAnalyzer('de');
    assert.deepEqual(highlight('Die Kinder und das Kind', german, termsOf(german, 'Kind')), ['Die <em>Kinder</em> und das <em>Kind</em>']);
    // French: "l'enfant" is marked whole for the query "enfants".
    const french = getAnalyzer('french');
    assert.deepEqual(highlight("l'enfant joue", french, termsOf(french, 'enfants')), ['<em>l&#39;enfant</em> joue']);
    // Turkish: "İstanbul'da" (in Istanbul) is marked for the query "istanbul".
    const turkish = getAnalyzer('tr');
    assert.deepEqual(highlight("İstanbul'da yaşıyor", turkish, termsOf(turkish, 'İstanbul')), ['<em>İstanbul&#39;da</em> yaşıyor']);
  });

  it('refuses a fragmentSize below 1 or a negative numberOfFragments', () => {
    const isInvalid = (e: unknown): boolean => e instanceof YarrowError && e.code === ErrorCode.invalidQuery;
    assert.throws(() => highlight('a', standard, new Set(['a']), { fragmentSize: 0 }), isInvalid);
    assert.throws(() => highlight('a', standard, new Set(['a']), { numberOfFragments: -1 }), isInvalid);
    assert.throws(() => highlight('a', standard, new Set(['a']), { fragmentSize: 2.5 }), isInvalid);
  });

  it('returns fragments that are escaped substrings of the text once the tags are removed', () => {
    const word = fc.constantFrom('Fox', 'fox', 'running', 'Runs', 'dog', 'the', "o'clock", 'café', '東京', '😀', 'x');
    const sep = fc.constantFrom(' ', '  ', ', ', '<', '&', '"', "'", '\n', '>', '-', '\uD83D');
    const text = fc.array(fc.tuple(word, sep), { maxLength: 60 }).map((parts) => parts.map(([w, s]) => w + s).join(''));
    const analyzer = fc.constantFrom(english, standard, getAnalyzer('whitespace'));
    fc.assert(
      fc.property(
        fc.oneof(text, fc.string({ unit: 'binary', maxLength: 80 })),
        analyzer,
        fc.subarray(['fox', 'run', 'running', 'dog', 'the', "o'clock", 'café', '東京']),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 4 }),
        (t, a, queryTerms, fragmentSize, numberOfFragments) => {
          const terms = new Set(queryTerms);
          const fragments = highlight(t, a, terms, { fragmentSize, numberOfFragments });
          assert.ok(fragments.length <= Math.max(1, numberOfFragments));
          for (const fragment of fragments) {
            const plain = stripTags(fragment);
            assert.equal(escape(unescape(plain)), plain, 'tags aside, the fragment is fully escaped');
            assert.ok(t.includes(unescape(plain)), 'the fragment is a substring of the text');
            const words = marked(fragment);
            assert.ok(words.length > 0);
            for (const w of words) assert.ok([...termsOf(a, unescape(w))].some((term) => terms.has(term)), w);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
