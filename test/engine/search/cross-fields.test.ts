import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Index } from '../../../src/engine/search-index.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';
import { getAnalyzer } from '../../../src/engine/analysis/analyzers.js';
import type { Analyzer } from '../../../src/engine/analysis/analyzer.js';
import { crossFieldsQuery } from '../../../src/engine/search/cross-fields.js';
import type { CrossField } from '../../../src/engine/search/cross-fields.js';

const mapping = {
  fields: {
    title: { type: 'text', search: { lexical: { analyze: 'english' } } },
    body: { type: 'text' },
  },
};

const docs = [
  { _id: 'spread', title: 'Quantum computing', body: 'error correction for qubits' },
  { _id: 'title-only', title: 'Quantum error correction', body: 'a survey' },
  { _id: 'body-only', title: 'A survey', body: 'quantum error correction explained' },
  { _id: 'partial', title: 'Quantum optics', body: 'lasers and mirrors' },
  { _id: 'none', title: 'Gardening', body: 'roses and tulips' },
];

async function open(): Promise<Index> {
  const index = await Index.open(new MemoryDirectory(), { mapping, refreshIntervalMs: 0 });
  await index.upsert(docs);
  await index.refresh();
  return index;
}

function hits(index: Index, query: unknown): Map<string, number> {
  return new Map(index.search({ query, size: 100 }).hits.map((h) => [h._id, h._score]));
}

/** The score of one word in one field, per doc, from the engine's own single-field match. */
function wordScores(index: Index, field: string, word: string): Map<string, number> {
  return hits(index, { match: { [field]: word } });
}

describe('multi_match cross_fields', () => {
  it('finds documents whose words are spread over fields, which best_fields (the default) does not', async () => {
    const index = await open();
    const query = { query: 'quantum error correction', operator: 'and', fields: ['title', 'body'] };
    assert.deepEqual([...hits(index, { multi_match: query }).keys()].sort(), ['body-only', 'title-only']);
    assert.deepEqual([...hits(index, { multi_match: { ...query, type: 'best_fields' } }).keys()].sort(), ['body-only', 'title-only']);
    for (const type of ['cross_fields', 'combined_fields']) {
      assert.deepEqual([...hits(index, { multi_match: { ...query, type } }).keys()].sort(), ['body-only', 'spread', 'title-only'], type);
    }
    await index.close();
  });

  it('scores each word by its best field (dis_max) and sums the words, with field boosts and tie_breaker', async () => {
    const index = await open();
    const words = ['quantum', 'error', 'correction'];
    for (const [fields, titleBoost, tie] of [[['title', 'body'], 1, 0], [['title^2', 'body'], 2, 0], [['title', 'body'], 1, 0.3]] as const) {
      const got = hits(index, { multi_match: { query: words.join(' '), operator: 'and', type: 'cross_fields', fields, tie_breaker: tie } });
      for (const [id, score] of got) {
        let expected = 0;
        for (const w of words) {
          const t = (wordScores(index, 'title', w).get(id) ?? 0) * titleBoost;
          const b = wordScores(index, 'body', w).get(id) ?? 0;
          expected += Math.max(t, b) + tie * Math.min(t, b);
        }
        assert.ok(Math.abs(score - expected) < 1e-4 * expected, `${id}: ${score} vs ${expected} (${fields.join(',')}, tie ${tie})`);
      }
      assert.equal(got.size, 3);
    }
    await index.close();
  });

  it('with operator or, needs one word in any field', async () => {
    const index = await open();
    const got = hits(index, { multi_match: { query: 'qubits lasers', type: 'cross_fields', fields: ['title', 'body'] } });
    assert.deepEqual([...got.keys()].sort(), ['partial', 'spread']);
    // A query of stop words only (english drops "the") matches nothing, as a match query of no terms.
    assert.equal(hits(index, { multi_match: { query: 'the', type: 'cross_fields', operator: 'and', fields: ['title'] } }).size, 0);
    await index.close();
  });

  it('names the accepted types when given another', async () => {
    const index = await open();
    assert.throws(() => index.search({ query: { multi_match: { query: 'x', type: 'phrase', fields: ['title'] } } }), /best_fields, most_fields, cross_fields or combined_fields/);
    await index.close();
  });
});

describe('crossFieldsQuery', () => {
  /** The tree as built by analyzing the text once per field (what crossFieldsQuery did before it shared analyses). */
  function perFieldTree(fields: readonly CrossField[], text: string, operator: 'or' | 'and'): unknown {
    const byPosition = new Map<number, unknown[]>();
    for (const f of fields) {
      f.analyzer.analyze(text, (term, position) => {
        const clauses = byPosition.get(position) ?? [];
        byPosition.set(position, clauses);
        clauses.push({ kind: 'terms', field: f.field, terms: [term], operator: 'or', boost: f.boost });
      });
    }
    const words = [...byPosition.entries()].sort(([a], [b]) => a - b).map(([, c]) => (c.length === 1 ? c[0] : { kind: 'dis_max', clauses: c, tieBreaker: 0.2 }));
    const and = operator === 'and';
    return { kind: 'bool', must: and ? words : [], should: and ? [] : words, mustNot: [], filter: [], minimumShouldMatch: and ? 0 : 1, boost: 1 };
  }

  it('analyzes the text once per distinct analyzer and builds the same tree as one analysis per field', () => {
    let calls = 0;
    const counted = (analyzer: Analyzer): Analyzer => ({ ...analyzer, analyze: (text, sink, start) => { calls++; return analyzer.analyze(text, sink, start); } });
    const english = counted(getAnalyzer('english'));
    const standard = counted(getAnalyzer('standard'));
    // Two fields share the english analyzer (one boosted), one uses the standard one, which keeps
    // the stop word "the" and does not stem: the words line up by position across them.
    const fields: CrossField[] = [
      { field: 'name', boost: 2, analyzer: english },
      { field: 'summary', boost: 1, analyzer: standard },
      { field: 'description', boost: 1, analyzer: english },
    ];
    for (const text of ['Running the tests quickly', 'the', 'libraries for running', '']) {
      for (const operator of ['or', 'and'] as const) {
        calls = 0;
        const tree = crossFieldsQuery(fields, text, operator, 1, 0.2);
        assert.equal(calls, 2, `"${text}": one analysis per distinct analyzer`);
        const expected = perFieldTree(fields, text, operator);
        if ((expected as { must: unknown[]; should: unknown[] }).must.length + (expected as { should: unknown[] }).should.length === 0) {
          assert.equal(tree.kind, 'terms');
        } else {
          assert.deepEqual(tree, expected, `"${text}" ${operator}`);
        }
      }
    }
  });
});
