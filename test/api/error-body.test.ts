/**
 * Issue 18: the failed-writer error maps to 503 in the shared error body, so every route that
 * writes through an index (`_index`, `_flush`, deletes, `/v1/...`) answers it the same way.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorResponse } from '../../src/api/index.js';
import { writerFailure } from '../../src/engine/commit/writer-failure.js';

describe('errorResponse', () => {
  it('answers a failed writer with 503 index_unavailable naming the cause and no path', () => {
    const cause = Object.assign(new Error("ENOSPC: no space left on device, open '/var/lib/yarrow/movies/seg-7.pst'"), { code: 'ENOSPC' });
    const r = errorResponse(writerFailure(cause, 'writing a segment'));
    assert.equal(r.status, 503);
    assert.equal(r.body.error.type, 'index_unavailable');
    assert.match(r.body.error.reason, /^disk full: no space left on device \(ENOSPC\) while writing a segment; writes are refused until/);
    assert.equal(r.body.error.cause, 'disk full: no space left on device (ENOSPC)');
    assert.doesNotMatch(JSON.stringify(r.body), /\/var\/lib|seg-7/);
  });

  it('names I/O errors by their code and anything else generically', () => {
    assert.match(errorResponse(writerFailure(Object.assign(new Error('EIO'), { code: 'EIO' }), 'committing')).body.error.reason, /^I\/O error \(EIO\) while committing/);
    assert.match(errorResponse(writerFailure(Object.assign(new Error('x'), { code: 'EXDEV' }), 'committing')).body.error.reason, /^I\/O error \(EXDEV\)/);
    assert.match(errorResponse(writerFailure(new TypeError('secret internals'), 'committing')).body.error.reason, /^unexpected error \(the server log has the details\) while committing/);
  });
});
