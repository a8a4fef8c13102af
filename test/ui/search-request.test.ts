import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { indexSchema } from '../../src/ui/index-schema.js';
import { facetCountBodies, filtersFor, HIGHLIGHT_POST, HIGHLIGHT_PRE, hitsBody, PAGE_SIZE, queryFor, seekBody, sortFor } from '../../src/ui/search-request.js';
import { highlightRuns } from '../../src/ui/highlight-text.js';
import { parseState } from '../../src/ui/url-state.js';

/** The mapping of samples/movies.yml as `GET /movies` answers it. */
const movies = indexSchema('movies', [
  { name: '_id', type: 'id', store: true },
  { name: 'title', type: 'text', store: true, sort: true, analyzer: 'english' },
  { name: 'overview', type: 'text', store: true, analyzer: 'english' },
  { name: 'genres', type: 'text[]', store: true, filter: true, facet: true, analyzer: null },
  { name: 'year', type: 'int', store: true, filter: true, sort: true, facet: true, analyzer: null },
  { name: 'rating', type: 'double', store: true, filter: true, sort: true, analyzer: null },
]);
const ranges = { year: [{ to: 1980 }, { from: 1980, to: 2000 }, { from: 2000 }] };

describe('indexSchema', () => {
  it('derives searchable, facet, sort and stored fields from a mapping', () => {
    assert.deepEqual(movies.textFields, ['title', 'overview']);
    assert.deepEqual(movies.facets, [{ name: 'genres', kind: 'terms', baseType: 'text' }, { name: 'year', kind: 'range', baseType: 'int' }]);
    assert.deepEqual(movies.sortFields, ['title', 'year', 'rating']);
    assert.deepEqual(movies.semanticFields, []);
    assert.deepEqual(movies.storedFields, ['title', 'overview', 'genres', 'year', 'rating']);
  });
});

describe('queryFor', () => {
  it('matches all for an empty box and multi_matches the text fields otherwise', () => {
    assert.deepEqual(queryFor(parseState('?q=+'), movies), { match_all: {} });
    assert.deepEqual(queryFor(parseState('?q=matrix'), movies), { multi_match: { query: 'matrix', fields: ['title', 'overview'] } });
  });

  it('stays lexical without semantic fields, and fuses both with them in hybrid mode', () => {
    assert.deepEqual(queryFor(parseState('?q=x&mode=hybrid'), movies), { multi_match: { query: 'x', fields: ['title', 'overview'] } });
    const papers = indexSchema('papers', [{ name: 'abstract', type: 'text', analyzer: 'english', semantic: { model: 'minilm' } }]);
    assert.deepEqual(queryFor(parseState('?q=x&mode=semantic'), papers), { semantic: { field: 'abstract', query: 'x' } });
    assert.deepEqual(queryFor(parseState('?q=x&mode=hybrid'), papers), {
      rrf: { retrieve: [{ multi_match: { query: 'x', fields: ['abstract'] } }, { semantic: { field: 'abstract', query: 'x' } }] },
    });
  });
});

describe('sortFor', () => {
  it('sorts by score unless a sortable field is chosen', () => {
    assert.deepEqual(sortFor(parseState(''), movies), ['_score']);
    assert.deepEqual(sortFor(parseState('?sort=year:desc'), movies), [{ year: { order: 'desc' } }]);
    assert.deepEqual(sortFor(parseState('?sort=overview:asc'), movies), ['_score']);
  });
});

describe('filtersFor', () => {
  it('ORs values within a facet and ANDs facets, ranges as gte/lt', () => {
    const state = parseState('?genres=drama&genres=crime&year=1980..2000&year=2000..');
    assert.deepEqual(filtersFor(state, movies), {
      include: {
        and: [
          { terms: { genres: ['drama', 'crime'] } },
          { or: [{ range: { year: { gte: 1980, lt: 2000 } } }, { range: { year: { gte: 2000 } } }] },
        ],
      },
    });
    assert.deepEqual(filtersFor(state, movies, 'year'), { include: { terms: { genres: ['drama', 'crime'] } } });
    assert.equal(filtersFor(parseState('?notafacet=x'), movies), undefined);
  });
});

describe('hitsBody / facetCountBodies / seekBody', () => {
  it('asks for a page with highlights, aggregations of unselected facets and search_after', () => {
    const state = parseState('?q=world&genres=drama');
    const body = hitsBody(state, movies, ranges, ['1.5', '7']);
    assert.equal(body.size, PAGE_SIZE);
    assert.deepEqual(body.search_after, ['1.5', '7']);
    assert.deepEqual(body.aggs, { year: { range: { field: 'year', ranges: [{ lt: 1980 }, { gte: 1980, lt: 2000 }, { gte: 2000 }] } } });
    assert.deepEqual(body.highlight, { fields: ['title', 'overview'], number_of_fragments: 0, pre_tag: HIGHLIGHT_PRE, post_tag: HIGHLIGHT_POST });
    assert.deepEqual(body.filters, { include: { terms: { genres: ['drama'] } } });
    assert.equal(hitsBody(parseState(''), movies, ranges, undefined).highlight, undefined);
  });

  it('counts a selected facet without its own filter', () => {
    const counts = facetCountBodies(parseState('?genres=drama&year=2000..'), movies, ranges);
    assert.deepEqual(counts.map((c) => c.field), ['genres', 'year']);
    assert.deepEqual(counts[0].body.filters, { include: { range: { year: { gte: 2000 } } } });
    assert.deepEqual(counts[0].body.aggs, { genres: { term: { field: 'genres', size: 10 } } });
    assert.equal(counts[0].body.size, 0);
  });

  it('seeks with ids only', () => {
    const body = seekBody(parseState('?q=x&sort=year:asc'), movies, 20, undefined);
    assert.deepEqual(body.fields, ['_id']);
    assert.equal(body.size, 20);
    assert.deepEqual(body.sort, [{ year: { order: 'asc' } }]);
  });
});

describe('highlightRuns', () => {
  it('splits a fragment into marked and plain runs and decodes the escaped text', () => {
    const f = `Tom &amp; ${HIGHLIGHT_PRE}Jerry${HIGHLIGHT_POST} &lt;b&gt; ${HIGHLIGHT_PRE}run${HIGHLIGHT_POST}`;
    assert.deepEqual(highlightRuns(f), [
      { text: 'Tom & ', marked: false },
      { text: 'Jerry', marked: true },
      { text: ' <b> ', marked: false },
      { text: 'run', marked: true },
    ]);
  });
});
