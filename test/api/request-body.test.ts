import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { HttpError } from '../../src/api/http-status.js';
import { readWholeBody } from '../../src/api/request-body.js';

const stream = (bytes: Buffer, chunk = 1000): Readable => {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) parts.push(bytes.subarray(i, i + chunk));
  return Readable.from(parts);
};

async function statusOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof HttpError);
    return e.status;
  }
  return 200;
}

describe('readWholeBody', () => {
  const text = Buffer.from('{"a":1}\n'.repeat(500));

  it('decodes gzip, deflate, br and zstd bodies', async () => {
    const zstd = execFileSync('zstd', ['-q', '-c', '-'], { input: text });
    for (const [encoding, bytes] of [['gzip', gzipSync(text)], ['deflate', deflateSync(text)], ['br', brotliCompressSync(text)], ['zstd', zstd], ['identity', text]] as const) {
      assert.deepEqual(await readWholeBody(stream(bytes), { 'content-encoding': encoding }, 1e6), text, encoding);
    }
  });

  it('answers 413 when the received or the decoded bytes pass the limit, or Content-Length says they will', async () => {
    assert.equal(await statusOf(readWholeBody(stream(text), {}, text.length - 1)), 413);
    assert.equal(await statusOf(readWholeBody(stream(gzipSync(text)), { 'content-encoding': 'gzip' }, text.length - 1)), 413);
    assert.equal(await statusOf(readWholeBody(stream(Buffer.alloc(0)), { 'content-length': '5000' }, 4999)), 413);
    assert.equal((await readWholeBody(stream(text), {}, text.length)).length, text.length);
  });

  it('answers 415 for an unknown encoding and 400 for corrupt compressed data', async () => {
    assert.equal(await statusOf(readWholeBody(stream(text), { 'content-encoding': 'lzma' }, 1e6)), 415);
    assert.equal(await statusOf(readWholeBody(stream(text), { 'content-encoding': 'gzip' }, 1e6)), 400);
  });
});
