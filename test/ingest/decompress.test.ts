import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { createZstdDecompressor, decompressByMagic, detectCompression } from '../../src/ingest/index.js';

const zstd = (input: string): Buffer => execFileSync('zstd', ['-q', '-c', '-'], { input });

function chunked(bytes: Buffer, size: number): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks);
}

describe('detectCompression', () => {
  it('recognises gzip and zstd magic bytes and nothing else', () => {
    assert.equal(detectCompression(gzipSync('x')), 'gzip');
    assert.equal(detectCompression(zstd('x')), 'zstd');
    assert.equal(detectCompression(Buffer.from('{"a":1}')), 'none');
    assert.equal(detectCompression(Buffer.from([0x28, 0xb5])), 'none');
  });
});

describe('decompressByMagic', () => {
  const content = '{"a":1}\n'.repeat(5000);

  it('passes plain bytes through, even when the first chunk is shorter than the magic', async () => {
    const { stream, compression } = await decompressByMagic(chunked(Buffer.from(content), 1));
    assert.equal(compression, 'none');
    assert.equal(await text(stream), content);
  });

  it('decompresses gzip, including concatenated members', async () => {
    const bytes = Buffer.concat([gzipSync(content), gzipSync('{"b":2}\n')]);
    const { stream, compression } = await decompressByMagic(chunked(bytes, 3));
    assert.equal(compression, 'gzip');
    assert.equal(await text(stream), `${content}{"b":2}\n`);
  });

  it('decompresses zstd, including concatenated frames', async () => {
    const bytes = Buffer.concat([zstd(content), zstd('{"b":2}\n')]);
    const { stream, compression } = await decompressByMagic(chunked(bytes, 7));
    assert.equal(compression, 'zstd');
    assert.equal(await text(stream), `${content}{"b":2}\n`);
  });

  it('reads an empty input as empty', async () => {
    const { stream } = await decompressByMagic(Readable.from([]));
    assert.equal(await text(stream), '');
  });

  it('surfaces corrupt compressed data as an error of the stream', async () => {
    const bytes = gzipSync(content);
    const { stream } = await decompressByMagic(chunked(bytes.subarray(0, bytes.length - 10), 100));
    await assert.rejects(text(stream), /unexpected end of file/);
  });
});

describe('createZstdDecompressor', () => {
  it('decodes what the zstd tool encodes, whatever the chunking', async () => {
    const content = Array.from({ length: 20000 }, (_, i) => `{"i":${i},"t":"line ${i % 97}"}\n`).join('');
    for (const size of [1000, 65536]) assert.equal(await text(chunked(zstd(content), size).pipe(createZstdDecompressor())), content);
  });

  it('fails on truncated input', async () => {
    const bytes = zstd(Array.from({ length: 5000 }, (_, i) => `{"a":${i}}\n`).join(''));
    const decoder = createZstdDecompressor();
    chunked(bytes.subarray(0, bytes.length - 50), 64).pipe(decoder);
    await assert.rejects(text(decoder));
  });
});
