import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from '../../src/api/index.js';
import { ErrorCode, YarrowError } from '../../src/engine/index.js';
import { PlantError, plantErrorResponse } from '../../src/plants/plant-error.js';

describe('plantErrorResponse', () => {
  it('passes no internal message through (issue 18): server failures answer a generic 500', () => {
    for (const error of [
      new HttpError('index_closed', 'index plants at /var/lib/yarrow/_plants is closed'),
      new HttpError('internal_error', 'EIO: i/o error, write /data/_plants/wal-1.log'),
      new YarrowError(ErrorCode.corruptIndex, '/data/_plants/seg-1.pst: checksum mismatch'),
      new Error('boom at /srv/yarrow'),
    ]) {
      const r = plantErrorResponse(error);
      assert.equal(r.status, 500);
      assert.equal(r.unexpected, true);
      assert.equal(r.body.message, 'internal error (logged by the server)');
    }
  });

  it('keeps the message and the catalogue status of client errors', () => {
    assert.deepEqual(plantErrorResponse(new PlantError('not_found', 'no plant with id 3')).body, { error: 404, message: 'no plant with id 3' });
    const auth = plantErrorResponse(new HttpError('unauthorized', 'missing bearer token', {}, { 'www-authenticate': 'Bearer realm="yarrow"' }));
    assert.equal(auth.status, 401);
    assert.equal(auth.headers['www-authenticate'], 'Bearer realm="yarrow"');
    assert.equal(plantErrorResponse(new HttpError('forbidden', 'read only')).status, 403);
    assert.equal(plantErrorResponse(new HttpError('payload_too_large', 'too big')).status, 413);
    assert.equal(plantErrorResponse(new HttpError('unsupported_encoding', 'x')).status, 400);
  });
});
