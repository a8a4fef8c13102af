import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { getAnalyzer } from '../../../src/engine/analysis/analyzers.js';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';
import { parseQuery } from '../../../src/engine/search/query.js';
import { parseQueryString } from '../../../src/engine/search/query-string.js';

const two = ['title', 'body'];
const one = ['title'];

/** Asserts that parsing `q` throws invalid_query at `position` with a message matching `message`. */
function assertSyntaxError(q: string, position: number, message: RegExp): void {
  assert.throws(
    () => parseQueryString(q, two),
    (e: unknown) => {
      assert.ok(e instanceof YarrowError);
      assert.equal(e.code, ErrorCode.invalidQuery);
      assert.equal(e.details.position, position);
      assert.match(e.message, message);
      assert.match(e.message, new RegExp(`position ${position}`));
      return true;
    },
  );
}

describe('parseQueryString', () => {
  it('returns match_all for an empty or all-whitespace string', () => {
    assert.deepEqual(parseQueryString('', two), { match_all: {} });
    assert.deepEqual(parseQueryString(' \t\n ', two), { match_all: {} });
  });

  it('turns a plain term into a most_fields multi_match over the default fields', () => {
    assert.deepEqual(parseQueryString('matrix', two), {
      multi_match: { query: 'matrix', fields: ['title', 'body'], type: 'most_fields' },
    });
  });

  it('turns a plain term into a match when there is one default field', () => {
    assert.deepEqual(parseQueryString('matrix', one), { match: { title: { query: 'matrix' } } });
  });

  it('copies the default fields instead of aliasing them', () => {
    const fields = ['title', 'body'];
    const dsl = parseQueryString('x', fields) as { multi_match: { fields: string[] } };
    assert.notEqual(dsl.multi_match.fields, fields);
  });

  it('turns a field-qualified term into a match on that field, dots and underscores included', () => {
    assert.deepEqual(parseQueryString('meta.author_name:smith', two), {
      match: { 'meta.author_name': { query: 'smith' } },
    });
  });

  it('turns a phrase into match_phrase, and into a dis_max of them on several default fields', () => {
    assert.deepEqual(parseQueryString('"red  fox"', one), { match_phrase: { title: { query: 'red  fox' } } });
    assert.deepEqual(parseQueryString('"red fox"', two), {
      dis_max: {
        queries: [{ match_phrase: { title: { query: 'red fox' } } }, { match_phrase: { body: { query: 'red fox' } } }],
      },
    });
    assert.deepEqual(parseQueryString('body:"red fox"', two), { match_phrase: { body: { query: 'red fox' } } });
  });

  it('reads a slop after a phrase', () => {
    assert.deepEqual(parseQueryString('title:"red fox"~3', two), {
      match_phrase: { title: { query: 'red fox', slop: 3 } },
    });
  });

  it('turns a trailing star into a prefix query', () => {
    assert.deepEqual(parseQueryString('title:mat*', two), { prefix: { title: { value: 'mat' } } });
    assert.deepEqual(parseQueryString('mat*', one), { prefix: { title: { value: 'mat' } } });
    assert.deepEqual(parseQueryString('mat*', two), {
      dis_max: { queries: [{ prefix: { title: { value: 'mat' } } }, { prefix: { body: { value: 'mat' } } }] },
    });
  });

  it('turns a tilde into a fuzzy query, AUTO without digits', () => {
    assert.deepEqual(parseQueryString('title:matrx~', two), { fuzzy: { title: { value: 'matrx', fuzziness: 'AUTO' } } });
    assert.deepEqual(parseQueryString('title:matrx~1', two), { fuzzy: { title: { value: 'matrx', fuzziness: 1 } } });
    assert.deepEqual(parseQueryString('matrx~2', one), { fuzzy: { title: { value: 'matrx', fuzziness: 2 } } });
    assert.deepEqual(parseQueryString('matrx~0', two), {
      dis_max: {
        queries: [{ fuzzy: { title: { value: 'matrx', fuzziness: 0 } } }, { fuzzy: { body: { value: 'matrx', fuzziness: 0 } } }],
      },
    });
  });

  it('treats a lone star or *:* as match_all', () => {
    assert.deepEqual(parseQueryString('*', two), { match_all: {} });
    assert.deepEqual(parseQueryString('*:*', two), { match_all: {} });
  });

  it('makes plain clauses should with minimum_should_match 1 when nothing is required', () => {
    assert.deepEqual(parseQueryString('title:a title:"b c"', two), {
      bool: {
        should: [{ match: { title: { query: 'a' } } }, { match_phrase: { title: { query: 'b c' } } }],
        minimum_should_match: 1,
      },
    });
  });

  it('puts + clauses in must, - clauses in must_not and plain clauses in should', () => {
    assert.deepEqual(parseQueryString('+title:a body:b -title:c*', two), {
      bool: {
        must: [{ match: { title: { query: 'a' } } }],
        should: [{ match: { body: { query: 'b' } } }],
        must_not: [{ prefix: { title: { value: 'c' } } }],
      },
    });
  });

  it('keeps minimum_should_match 1 when plain clauses meet only excluded ones', () => {
    assert.deepEqual(parseQueryString('a -b', one), {
      bool: {
        should: [{ match: { title: { query: 'a' } } }],
        must_not: [{ match: { title: { query: 'b' } } }],
        minimum_should_match: 1,
      },
    });
  });

  it('returns a single required clause unwrapped', () => {
    assert.deepEqual(parseQueryString('  +title:a  ', two), { match: { title: { query: 'a' } } });
  });

  it('matches everything but the excluded clauses when all clauses are excluded', () => {
    assert.deepEqual(parseQueryString('-title:draft', two), {
      bool: { must: [{ match_all: {} }], must_not: [{ match: { title: { query: 'draft' } } }] },
    });
  });

  it('keeps + and - inside a term literal', () => {
    assert.deepEqual(parseQueryString('e-mail c++', one), {
      bool: {
        should: [{ match: { title: { query: 'e-mail' } } }, { match: { title: { query: 'c++' } } }],
        minimum_should_match: 1,
      },
    });
  });

  it('unescapes backslashed special characters in terms and phrases', () => {
    assert.deepEqual(parseQueryString('a\\:b\\*', one), { match: { title: { query: 'a:b*' } } });
    assert.deepEqual(parseQueryString('\\-x\\+y\\~\\\\', one), { match: { title: { query: '-x+y~\\' } } });
    assert.deepEqual(parseQueryString('\\"quoted\\"', one), { match: { title: { query: '"quoted"' } } });
    assert.deepEqual(parseQueryString('"say \\"hi\\" \\\\"', one), { match_phrase: { title: { query: 'say "hi" \\' } } });
    assert.deepEqual(parseQueryString('new\\ york', one), { match: { title: { query: 'new york' } } });
  });

  it('reports an unclosed quote at the position of the opening quote', () => {
    assertSyntaxError('title:a "red fox', 8, /unclosed quote/);
    assertSyntaxError('"a \\"', 0, /unclosed quote/);
  });

  it('reports other syntax errors with their positions', () => {
    assertSyntaxError('a - b', 2, /expected a clause after "-"/);
    assertSyntaxError('a +', 2, /expected a clause after "\+"/);
    assertSyntaxError('+-a', 1, /unexpected "-"/);
    assertSyntaxError('title: a', 6, /expected a term or phrase after "title:"/);
    assertSyntaxError(':a', 0, /empty field name/);
    assertSyntaxError('a:b:c', 3, /unexpected ":"/);
    assertSyntaxError('ab"cd"', 2, /unexpected """/);
    assertSyntaxError('a*b', 1, /only a trailing "\*"/);
    assertSyntaxError('title:*', 6, /not supported/);
    assertSyntaxError('~1', 0, /expected a term before "~"/);
    assertSyntaxError('ab~x', 3, /unexpected "x" after "~"/);
    assertSyntaxError('ab~3', 3, /fuzziness must be 0, 1 or 2/);
    assertSyntaxError('"a b"c', 5, /expected whitespace after the phrase/);
    assertSyntaxError('"a b"~', 5, /expected a slop/);
    assertSyntaxError('x "  "', 2, /empty phrase/);
    assertSyntaxError('ab\\', 2, /nothing to escape/);
  });

  it('refuses an unqualified clause when there are no default fields', () => {
    assert.deepEqual(parseQueryString('title:a', []), { match: { title: { query: 'a' } } });
    assert.throws(() => parseQueryString('title:a b', []), (e: unknown) => e instanceof YarrowError && e.details.position === 8);
  });

  it('either returns DSL that the query parser accepts or throws invalid_query, for any string', () => {
    const mapping = parseMapping({ fields: { title: { type: 'text' }, body: { type: 'text', search: { lexical: { analyze: 'english' } } } } }, 'schema.t');
    const tricky = fc.string({
      unit: fc.constantFrom('a', 'b', 'Z', ' ', ' ', ':', '"', '*', '~', '1', '2', '3', '+', '-', '\\', '.', '_', 'title', 'body', 'é', '😀', '\t'),
      maxLength: 24,
    });
    fc.assert(
      fc.property(fc.oneof(tricky, fc.string({ unit: 'binary', maxLength: 16 })), (q) => {
        let dsl: unknown;
        try {
          dsl = parseQueryString(q, two);
        } catch (e) {
          assert.ok(e instanceof YarrowError, `threw ${String(e)}`);
          assert.equal(e.code, ErrorCode.invalidQuery);
          assert.equal(typeof e.details.position, 'number');
          return;
        }
        assert.deepEqual(JSON.parse(JSON.stringify(dsl)), dsl);
        try {
          parseQuery(dsl, mapping, getAnalyzer);
        } catch (e) {
          // Field names come from the query string; only unknown ones may be refused downstream.
          assert.ok(e instanceof YarrowError, `parseQuery threw ${String(e)}`);
          assert.equal(e.code, ErrorCode.invalidQuery);
          assert.equal(typeof e.details.field, 'string');
          assert.equal(mapping.field(e.details.field as string), undefined, e.message);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
