import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSourceUrl, SourceUrlError } from '../../src/ingest/index.js';

describe('parseSourceUrl', () => {
  it('classifies paths, file, http(s) and s3 URLs', () => {
    assert.deepEqual(parseSourceUrl('data/movies.jsonl'), { kind: 'file', path: 'data/movies.jsonl' });
    assert.deepEqual(parseSourceUrl('file:///tmp/a%20b.jsonl'), { kind: 'file', path: '/tmp/a b.jsonl' });
    assert.deepEqual(parseSourceUrl('https://example.com/x.jsonl.gz'), { kind: 'http', url: 'https://example.com/x.jsonl.gz' });
    assert.deepEqual(parseSourceUrl('s3://bucket/some/prefix'), { kind: 's3', bucket: 'bucket', prefix: 'some/prefix' });
    assert.deepEqual(parseSourceUrl('s3://bucket'), { kind: 's3', bucket: 'bucket', prefix: '' });
  });

  it('rejects unknown schemes, bad buckets and empty values', () => {
    assert.throws(() => parseSourceUrl('ftp://h/x'), /unsupported scheme "ftp:\/\/"/);
    assert.throws(() => parseSourceUrl('s3://Bad_Bucket/x'), SourceUrlError);
    assert.throws(() => parseSourceUrl(''), /empty/);
  });
});
