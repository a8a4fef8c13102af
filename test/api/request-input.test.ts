import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from '../../src/api/index.js';
import { checkQueryDepth, decimalParam, singleParam, withoutPaths } from '../../src/api/request-input.js';

function refusal(run: () => unknown): HttpError {
  try {
    run();
  } catch (e) {
    assert.ok(e instanceof HttpError);
    assert.equal(e.status, 400);
    return e;
  }
  assert.fail('expected a 400');
}

describe('withoutPaths', () => {
  it('keeps only the last component of absolute paths', () => {
    assert.equal(withoutPaths('index.json not found in /tmp/abc/movies'), 'index.json not found in …/movies');
    assert.equal(withoutPaths("ENOENT: open '/var/lib/yarrow/movies/index.json'"), "ENOENT: open '…/index.json'");
    assert.equal(withoutPaths('at C:\\data\\x\\index.json'), 'at …/index.json');
    assert.equal(withoutPaths('/abs/seg-1.pst: bad checksum'), '…/seg-1.pst: bad checksum');
  });

  it('leaves URLs, relative paths, single-component paths and dates alone', () => {
    for (const text of ['s3://bucket/prefix/movies failed', 'http://host:9000/a/b c', 'a/b relative', 'see /openapi.json', 'date 2024/01/02', 'no index "x"']) {
      assert.equal(withoutPaths(text), text);
    }
  });
});

describe('query parameters', () => {
  it('reads one value, and refuses a repeated one', () => {
    assert.equal(singleParam({ q: 'a' }, 'q'), 'a');
    assert.equal(singleParam({}, 'q'), undefined);
    assert.match(refusal(() => singleParam({ q: ['a', 'b'] }, 'q')).message, /given 2 times/);
  });

  it('reads plain decimal integers only', () => {
    assert.equal(decimalParam({ size: '16' }, 'size'), 16);
    assert.equal(decimalParam({ size: '0' }, 'size'), 0);
    for (const bad of ['0x10', '1e1', '+1', '-1', '1.0', ' 1', '', '01', '9007199254740993']) refusal(() => decimalParam({ size: bad }, 'size'));
  });
});

describe('checkQueryDepth', () => {
  it('counts bool, dis_max and filter nesting, not JSON depth', () => {
    let query: unknown = { match: { title: 'x' } };
    for (let i = 0; i < 64; i++) query = { bool: { must: [query], should: [{ match_all: {} }] } };
    checkQueryDepth({ query });
    refusal(() => { checkQueryDepth({ query: { dis_max: { queries: [query] } } }); });
    let filter: unknown = { term: { year: 1 } };
    for (let i = 0; i < 65; i++) filter = { not: filter };
    refusal(() => { checkQueryDepth({ filters: { include: filter } }); });
  });
});
