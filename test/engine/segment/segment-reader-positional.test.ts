/**
 * Segment readers on a directory that reads by position keep stored fields on storage (only the
 * block index in memory) and still verify every byte at open: same hits as a reader of the same
 * files in memory, corruption still refused at open.
 */
import assert from 'node:assert/strict';
import { readFile, readdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { verifyChecksum } from '../../../src/engine/codec/file-format.js';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { Index } from '../../../src/engine/search-index.js';
import { LocalDirectory } from '../../../src/storage/local-directory.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';
import { temporaryDirectories } from '../../helpers/temp-dirs.js';

const mapping = {
  fields: {
    title: { type: 'text', search: { lexical: { analyze: 'english' } } },
    body: { type: 'text', search: { lexical: { analyze: 'english' } } },
    year: { type: 'int', filter: true, sort: true },
  },
} as const;

const tempDir = temporaryDirectories('yarrow-positional-');

/** Every hit of a query that matches every doc, with scores and stored fields. */
function everything(index: Index): unknown {
  return index.search({ query: { match: { body: 'common' } }, size: 1000 }).hits;
}

/** An index of three segments (one doc replaced), written through a local directory; returns its path. */
async function threeSegments(): Promise<{ path: string; whileWriting: unknown }> {
  const path = await tempDir();
  const index = await Index.open(await LocalDirectory.open(path), { mapping, refreshIntervalMs: 0, writer: { merges: false } });
  for (let s = 0; s < 3; s++) {
    const docs = Array.from({ length: 150 }, (_, i) => ({
      _id: `d${s}-${i}`,
      title: `title ${i % 7} of segment ${s}`,
      body: `common words ${'lorem ipsum '.repeat(i % 13)} number ${i}`,
      year: 1900 + i,
    }));
    await index.upsert(docs);
    if (s === 2) await index.upsert([{ _id: 'd0-5', title: 'replaced', body: 'common replaced', year: 2000 }]);
    await index.commit();
  }
  // The writer's readers opened the flushed segments from the bytes just written.
  const whileWriting = everything(index);
  await index.close();
  return { path, whileWriting };
}

async function inMemoryCopy(path: string): Promise<MemoryDirectory> {
  const dir = new MemoryDirectory();
  for (const name of await readdir(path)) if (!name.endsWith('.lock')) await dir.writeFile(name, await readFile(join(path, name)));
  return dir;
}

async function fdtFiles(path: string): Promise<string[]> {
  return (await readdir(path)).filter((n) => n.endsWith('.fdt')).sort();
}

function isCorrupt(message: RegExp): (e: unknown) => boolean {
  return (e: unknown) => {
    assert.ok(e instanceof YarrowError && e.code === ErrorCode.corruptIndex, String(e));
    assert.match(e.message, message);
    return true;
  };
}

describe('segment reader, stored fields read by position', () => {
  it('returns the same hits as readers of the same files in memory, after a flush and after a reopen', async () => {
    const { path, whileWriting } = await threeSegments();
    const local = await Index.open(await LocalDirectory.open(path), { readOnly: true });
    const memory = await Index.open(await inMemoryCopy(path), { readOnly: true });
    try {
      const fromMemory = everything(memory);
      assert.equal((fromMemory as unknown[]).length, 450);
      assert.deepEqual(everything(local), fromMemory);
      assert.deepEqual(whileWriting, fromMemory);
    } finally {
      await local.close();
      await memory.close();
    }
  });

  it('reads stored documents from the file, not from a copy taken at open', async () => {
    const { path } = await threeSegments();
    const local = await Index.open(await LocalDirectory.open(path), { readOnly: true });
    try {
      // Same length, same file: a reader holding the bytes would not notice; one reading by
      // position finds blocks that do not decompress.
      for (const name of await fdtFiles(path)) {
        const bytes = await readFile(join(path, name));
        bytes.fill(0xff, 8, bytes.length - 64);
        await writeFile(join(path, name), bytes);
      }
      assert.throws(() => everything(local), isCorrupt(/\.fdt: block \d+ does not decompress/));
    } finally {
      await local.close();
    }
  });

  it('refuses at open a stored-fields file with a flipped byte, a cut one, or another intact one', async () => {
    const { path } = await threeSegments();
    const [first] = await fdtFiles(path);
    const original = await readFile(join(path, first));
    const open = (): Promise<Index> => LocalDirectory.open(path).then((dir) => Index.open(dir, { readOnly: true }));

    const flipped = Buffer.from(original);
    flipped[Math.floor(flipped.length / 2)] ^= 0x10;
    await writeFile(join(path, first), flipped);
    await assert.rejects(open(), isCorrupt(/checksum mismatch/));

    await writeFile(join(path, first), original);
    await truncate(join(path, first), original.length - 1);
    await assert.rejects(open(), isCorrupt(/expected \d+ bytes, found \d+/));

    await writeFile(join(path, first), original);
    const reopened = await open();
    assert.equal((everything(reopened) as unknown[]).length, 450);
    await reopened.close();
  });

  it('refuses at open an intact stored-fields file of the same size that the manifest does not record', async () => {
    const path = await tempDir();
    const index = await Index.open(await LocalDirectory.open(path), { mapping, refreshIntervalMs: 0, writer: { merges: false } });
    await index.upsert([{ _id: 'a', title: 'one', body: 'common x', year: 1 }]);
    await index.commit();
    await index.upsert([{ _id: 'b', title: 'two', body: 'common y', year: 2 }]);
    await index.commit();
    await index.close();
    const [first, second] = await fdtFiles(path);
    const other = await readFile(join(path, second));
    assert.equal(other.length, (await readFile(join(path, first))).length, 'same size: only the checksum tells them apart');
    await writeFile(join(path, first), other);
    await assert.rejects(Index.open(await LocalDirectory.open(path), { readOnly: true }), isCorrupt(new RegExp(`${first}: content checksum`)));
  });
});

describe('segment reader, files read whole at open', () => {
  /** The error verifyChecksum gives `bytes` (what opening gave before the decoders ran the only CRC pass). */
  function checksumError(bytes: Uint8Array, name: string): string {
    try {
      verifyChecksum(bytes, name);
    } catch (e) {
      return (e as Error).message;
    }
    assert.fail(`${name}: no checksum error`);
  }

  for (const ext of ['tdx', 'nrm', 'dvd']) {
    it(`refuses at open a .${ext} file with a flipped byte (body or footer), a cut one, or another intact one, with the checksum's own error`, async () => {
      const { path } = await threeSegments();
      // The last segment holds one doc more: its file is intact but differs from the first's.
      const files = (await readdir(path)).filter((n) => n.endsWith(`.${ext}`)).sort();
      const [first, other] = [files[0], files[files.length - 1]];
      const original = await readFile(join(path, first));
      for (const [what, directory] of [['local', () => LocalDirectory.open(path)], ['memory', () => inMemoryCopy(path)]] as const) {
        const open = (): Promise<Index> => directory().then((dir) => Index.open(dir, { readOnly: true }));
        for (const at of [Math.floor(original.length / 2), original.length - 2]) {
          const flipped = Buffer.from(original);
          flipped[at] ^= 0x10;
          await writeFile(join(path, first), flipped);
          const expected = checksumError(flipped, first);
          await assert.rejects(open(), (e: unknown) => {
            assert.ok(e instanceof YarrowError && e.code === ErrorCode.corruptIndex, `${what}: ${String(e)}`);
            assert.equal(e.message, expected, `${what}, byte ${String(at)} of ${String(original.length)}`);
            return true;
          });
        }
        await writeFile(join(path, first), original);
        await truncate(join(path, first), original.length - 1);
        await assert.rejects(open(), isCorrupt(new RegExp(`${first}: expected ${String(original.length)} bytes, found ${String(original.length - 1)}`)));
        await writeFile(join(path, first), await readFile(join(path, other)));
        await assert.rejects(open(), isCorrupt(new RegExp(`^${first}: (content checksum|expected \\d+ bytes)`)));
        await writeFile(join(path, first), original);
        const reopened = await open();
        assert.equal((everything(reopened) as unknown[]).length, 450, what);
        await reopened.close();
      }
    });
  }
});

describe('segment reader, postings and positions read by position', () => {
  /** Queries that read postings every way a search does: terms, conjunctions, phrases (positions), prefixes, fuzzy terms. */
  function queries(index: Index): unknown[] {
    const requests = [
      { query: { match: { body: 'common' } }, size: 1000 },
      { query: { match: { body: { query: 'lorem ipsum number', operator: 'and' } } }, size: 50 },
      { query: { match: { body: 'lorem ipsum replaced' } }, size: 50 },
      { query: { match_phrase: { body: 'ipsum lorem ipsum' } }, size: 1000 },
      { query: { match_phrase: { title: 'of segment 1' } }, size: 20 },
      { query: { prefix: { title: 'segm' } }, size: 5 },
      { query: { multi_match: { query: 'title common 5', fields: ['title', 'body'] } }, size: 30 },
      { query: { fuzzy: { title: 'segmnt' } }, size: 5 },
    ];
    return requests.map((r) => {
      const response = index.search(r);
      return { total: response.total, hits: response.hits };
    });
  }

  it('returns the same hits, scores and totals as readers of the same files in memory', async () => {
    const { path } = await threeSegments();
    const local = await Index.open(await LocalDirectory.open(path), { readOnly: true });
    const memory = await Index.open(await inMemoryCopy(path), { readOnly: true });
    try {
      const fromMemory = queries(memory);
      assert.ok((fromMemory[3] as { hits: unknown[] }).hits.length > 0, 'the phrase matches');
      // Twice: terms read from the files, then from the pool.
      assert.deepEqual(queries(local), fromMemory);
      assert.deepEqual(queries(local), fromMemory);
    } finally {
      await local.close();
      await memory.close();
    }
  });

  it('holds no postings or positions bytes of its own', async () => {
    const { path } = await threeSegments();
    const local = await Index.open(await LocalDirectory.open(path), { readOnly: true });
    const memory = await Index.open(await inMemoryCopy(path), { readOnly: true });
    const onStorage = local.reader().acquireSnapshot();
    const inMemory = memory.reader().acquireSnapshot();
    try {
      assert.equal(onStorage.segments.length, 3);
      for (const { reader } of onStorage.segments) {
        assert.equal(reader.postingsOnStorage, true);
        assert.throws(() => reader.postingsBytes, /does not hold postings/);
        assert.throws(() => reader.positionsBytes, /does not hold positions/);
      }
      for (const { reader } of inMemory.segments) assert.ok(reader.postingsBytes.length > 0);
    } finally {
      onStorage.release();
      inMemory.release();
      await local.close();
      await memory.close();
    }
  });

  it('reads postings from the file, not from a copy taken at open', async () => {
    const { path } = await threeSegments();
    const local = await Index.open(await LocalDirectory.open(path), { readOnly: true });
    try {
      // Same length, same file: a reader holding the bytes would not notice; one reading by
      // position finds bit widths no block has.
      for (const name of (await readdir(path)).filter((n) => n.endsWith('.pst'))) {
        const bytes = await readFile(join(path, name));
        bytes.fill(0xff, 8, bytes.length - 64);
        await writeFile(join(path, name), bytes);
      }
      assert.throws(() => everything(local), isCorrupt(/\.pst: |bit-packed block/));
    } finally {
      await local.close();
    }
  });
});
