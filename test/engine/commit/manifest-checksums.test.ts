/**
 * Issue 13: index.json records each file's content checksum (its footer's CRC), opening checks it,
 * and a manifest of the previous format version (1) still opens.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FORMAT_VERSION, decodeManifest } from '../../../src/engine/commit/manifest.js';
import { footerChecksum } from '../../../src/engine/codec/file-format.js';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { Index } from '../../../src/engine/search-index.js';
import { LocalDirectory } from '../../../src/storage/local-directory.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';

const golden = fileURLToPath(new URL('../../fixtures/golden-v1', import.meta.url));
const mapping = { fields: { _id: { type: 'id' }, title: { type: 'text' }, year: { type: 'int', filter: true } } };

async function twoSegments(): Promise<MemoryDirectory> {
  const dir = new MemoryDirectory();
  const index = await Index.open(dir, { mapping, refreshIntervalMs: 0, writer: { merges: false } });
  await index.upsert([{ _id: 'a', title: 'quick fox', year: 1 }, { _id: 'b', title: 'lazy dog', year: 2 }]);
  await index.commit();
  await index.upsert([{ _id: 'c', title: 'slow turtle', year: 3 }]);
  await index.delete(['a']);
  await index.commit();
  await index.close();
  return dir;
}

describe('manifest checksums', () => {
  it('records each file\'s footer CRC, which differs wherever the content differs', async () => {
    const dir = await twoSegments();
    const manifest = decodeManifest(await dir.readFile('index.json'));
    assert.equal(manifest.formatVersion, FORMAT_VERSION);
    const files = manifest.segments.flatMap((s) => [...s.files, ...(s.liveDocs === null ? [] : [s.liveDocs])]);
    assert.ok(files.length >= 13);
    const contents = new Set<string>();
    for (const f of files) {
      const bytes = await dir.readFile(f.name);
      assert.equal(f.crc32, footerChecksum(bytes, f.name), f.name);
      contents.add(Buffer.from(bytes).toString('hex'));
    }
    // (Two segments' postings files can be byte-identical: every id inlined, no postings.)
    assert.equal(new Set(files.map((f) => f.crc32)).size, contents.size, 'one checksum per distinct content');
    assert.ok(contents.size >= 12);
  });

  it('refuses to open a segment whose file was swapped for another intact file', async () => {
    const dir = await twoSegments();
    const [first, second] = decodeManifest(await dir.readFile('index.json')).segments;
    // Both are valid norms files with intact footers; only the manifest's checksum tells them apart.
    const a = first.files.find((f) => f.name.endsWith('.nrm'))!;
    const b = second.files.find((f) => f.name.endsWith('.nrm'))!;
    assert.equal(a.size, b.size, 'same size, so only the checksum can catch the swap');
    await dir.writeFile(a.name, await dir.readFile(b.name));
    await assert.rejects(Index.open(dir, { readOnly: true }), (e: unknown) => {
      assert.ok(e instanceof YarrowError && e.code === ErrorCode.corruptIndex);
      assert.match(e.message, new RegExp(`${a.name}: content checksum`));
      return true;
    });
  });

  it('opens a format 1 manifest (golden fixture) as format 2 with unrecorded checksums, and a writer upgrades it', async () => {
    const v1 = decodeManifest(await readFile(join(golden, 'index.json')));
    assert.equal(v1.formatVersion, FORMAT_VERSION);
    for (const s of v1.segments) for (const f of s.files) assert.equal(f.crc32, null);
    const copy = await mkdtemp(join(tmpdir(), 'yarrow-golden-'));
    try {
      await cp(golden, copy, { recursive: true });
      const index = await Index.open(await LocalDirectory.open(copy), { refreshIntervalMs: 0 });
      try {
        const before = index.search({ query: { match: { title: 'fox' } } }).total;
        await index.upsert([{ _id: 'z', title: 'new fox', year: 2024 }]);
        await index.commit();
        assert.equal(index.search({ query: { match: { title: 'fox' } } }).total, before + 1);
        await index.verify();
      } finally {
        await index.close();
      }
      const upgraded = JSON.parse(await readFile(join(copy, 'index.json'), 'utf8')) as { formatVersion: number };
      assert.equal(upgraded.formatVersion, 2);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});
