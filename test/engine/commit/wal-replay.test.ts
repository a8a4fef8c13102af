/**
 * Issue 13: the write-ahead log has a header, and replay tells a torn tail (never acknowledged,
 * ignored) from corruption in the middle (valid records after a bad one, or a missing generation:
 * refused naming file and offset, with every file kept). Nothing acknowledged is lost silently.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WriteAheadLog, walFile, walUpsertJson } from '../../../src/engine/commit/write-ahead-log.js';
import { decodeManifest } from '../../../src/engine/commit/manifest.js';
import type { Directory } from '../../../src/engine/directory.js';
import { ErrorCode, YarrowError } from '../../../src/engine/errors.js';
import { Index } from '../../../src/engine/search-index.js';
import { validateDocument } from '../../../src/engine/schema/document.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';
import type { Logger } from '../../../src/engine/logger.js';
import { MemoryDirectory } from '../../../src/storage/memory-directory.js';

const fields = { fields: { _id: { type: 'id' }, title: { type: 'text' }, year: { type: 'int', filter: true } } };

/** Three acknowledged batches of 100 documents, then a crash (the durable state only). */
async function threeBatchesThenCrash(): Promise<{ dir: MemoryDirectory; wal: string }> {
  const dir = new MemoryDirectory();
  const index = await Index.open(dir, { mapping: fields, refreshIntervalMs: 0, writer: { merges: false } });
  await index.commit();
  for (let b = 0; b < 3; b++) {
    await index.upsert(Array.from({ length: 100 }, (_, i) => ({ _id: `d${b * 100 + i}`, title: `doc ${b} ${i}`, year: 2000 + i })));
  }
  const crashed = dir.crashCopy();
  await index.close();
  const wal = (await crashed.list()).filter((n) => n.startsWith('wal-')).sort().at(-1)!;
  return { dir: crashed, wal };
}

async function countDocs(dir: Directory): Promise<number> {
  const index = await Index.open(dir, { refreshIntervalMs: 0 });
  try {
    return index.stats().docs;
  } finally {
    await index.close();
  }
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const add = (m: string): void => { lines.push(m); };
  return { lines, debug: add, info: add, warn: add, error: add };
}

async function corrupt(dir: MemoryDirectory, name: string, at: number): Promise<Uint8Array> {
  const bytes = await dir.readFile(name);
  bytes[at] ^= 0x5a;
  await dir.writeFile(name, bytes);
  await dir.sync([name]);
  return bytes;
}

describe('write-ahead log replay', () => {
  it('starts every log file with the Ywal header, version 3', async () => {
    const { dir, wal } = await threeBatchesThenCrash();
    const bytes = await dir.readFile(wal);
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 4)), 'Ywal');
    assert.equal(new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true), 3);
  });

  it('recovers every acknowledged batch and ignores a torn last record', async () => {
    const { dir, wal } = await threeBatchesThenCrash();
    // A crash mid-append: the frame of a fourth record and half its payload.
    const bytes = await dir.readFile(wal);
    const torn = new Uint8Array(bytes.length + 20);
    torn.set(bytes);
    new DataView(torn.buffer).setUint32(bytes.length, 500, true);
    await dir.writeFile(wal, torn);
    await dir.sync([wal]);
    const log = recordingLogger();
    const index = await Index.open(dir, { refreshIntervalMs: 0, logger: log });
    assert.equal(index.stats().docs, 300);
    await index.close();
    assert.ok(log.lines.some((l) => l.includes(`${wal} ends with a torn record at byte ${bytes.length}`)), log.lines.join('\n'));
  });

  it('refuses a flipped byte in an early record, naming file and offset, and keeps the file', async () => {
    const { dir, wal } = await threeBatchesThenCrash();
    const damaged = await corrupt(dir, wal, 8 + 8 + 40); // inside the first record's payload
    await assert.rejects(Index.open(dir, { refreshIntervalMs: 0 }), (e: unknown) => {
      assert.ok(e instanceof YarrowError);
      assert.equal(e.code, ErrorCode.corruptIndex);
      assert.match(e.message, new RegExp(`${wal} is damaged at byte 8 .*valid records follow`));
      assert.equal(e.details['file'], wal);
      assert.equal(e.details['offset'], 8);
      return true;
    });
    assert.deepEqual(await dir.readFile(wal), damaged, 'the log file is kept as it was');
    assert.ok((await dir.list()).includes('index.json'));
  });

  it('refuses a flipped byte in an early record length', async () => {
    const { dir, wal } = await threeBatchesThenCrash();
    await corrupt(dir, wal, 8 + 2); // the first record's length becomes huge
    await assert.rejects(Index.open(dir, { refreshIntervalMs: 0 }), (e: unknown) => e instanceof YarrowError && e.code === ErrorCode.corruptIndex && e.details['offset'] === 8);
    assert.ok((await dir.list()).includes(wal));
  });

  it('refuses a missing generation between two others, and replays all three when none is missing', async () => {
    const mapping = parseMapping(fields, 'schema.t');
    const build = async (): Promise<{ dir: MemoryDirectory; first: number }> => {
      const dir = new MemoryDirectory();
      await (await Index.open(dir, { mapping: fields, refreshIntervalMs: 0 })).close();
      const first = decodeManifest(await dir.readFile('index.json')).walGeneration;
      const wal = await WriteAheadLog.open(dir, first);
      for (let g = 0; g < 3; g++) {
        if (g > 0) await wal.rotate(first + g);
        const doc = validateDocument(mapping, { _id: `g${g}`, title: 'x', year: g });
        const end = await wal.append([{ uJson: walUpsertJson(doc, `g${g}`, JSON.stringify(doc.stored)) }]);
        await wal.syncTo(end);
      }
      await wal.close();
      return { dir, first };
    };
    const intact = await build();
    assert.equal(await countDocs(intact.dir), 3);

    const gap = await build();
    await gap.dir.delete(walFile(gap.first + 1));
    const before = (await gap.dir.list()).sort();
    await assert.rejects(Index.open(gap.dir, { refreshIntervalMs: 0 }), (e: unknown) => {
      assert.ok(e instanceof YarrowError && e.code === ErrorCode.corruptIndex);
      assert.match(e.message, new RegExp(`${walFile(gap.first + 1)} is missing`));
      return true;
    });
    assert.deepEqual((await gap.dir.list()).sort(), before, 'nothing is deleted');
  });

  it('replays a version 2 log (validated JSON records, no vectors)', async () => {
    const dir = new MemoryDirectory();
    await (await Index.open(dir, { mapping: fields, refreshIntervalMs: 0 })).close();
    const gen = decodeManifest(await dir.readFile('index.json')).walGeneration;
    const mapping = parseMapping(fields, 'schema.t');
    const upsert = walUpsertJson(validateDocument(mapping, { _id: 'v2', title: 'logged by version 2', year: 2002 }), 'v2', '{"_id":"v2","title":"logged by version 2","year":2002}');
    const payload = new TextEncoder().encode(`{"ops":[{"u":${upsert}}]}`);
    const { crc32 } = await import('../../../src/engine/codec/file-format.js');
    const file = new Uint8Array(8 + 8 + payload.length);
    file.set(new TextEncoder().encode('Ywal'), 0);
    const view = new DataView(file.buffer);
    view.setUint32(4, 2, true);
    view.setUint32(8, payload.length, true);
    view.setUint32(12, crc32(payload), true);
    file.set(payload, 16);
    await dir.writeFile(walFile(gen), file);
    const index = await Index.open(dir, { refreshIntervalMs: 0 });
    try {
      const hits = index.search({ query: { match: { title: 'version' } }, fields: ['year'] }).hits;
      assert.deepEqual(hits.map((h) => [h._id, h.year]), [['v2', 2002]]);
    } finally {
      await index.close();
    }
  });

  it('replays a version 1 log (no header, raw documents), validating it', async () => {
    const dir = new MemoryDirectory();
    await (await Index.open(dir, { mapping: fields, refreshIntervalMs: 0 })).close();
    const gen = decodeManifest(await dir.readFile('index.json')).walGeneration;
    const payload = new TextEncoder().encode(JSON.stringify({ ops: [{ u: { _id: 'old', title: 'from v1', year: 2001 } }, { u: { _id: 'x', title: 'y', year: 1 } }, { d: 'x' }] }));
    const record = new Uint8Array(8 + payload.length);
    const { crc32 } = await import('../../../src/engine/codec/file-format.js');
    new DataView(record.buffer).setUint32(0, payload.length, true);
    new DataView(record.buffer).setUint32(4, crc32(payload), true);
    record.set(payload, 8);
    await dir.writeFile(walFile(gen), record);
    const index = await Index.open(dir, { refreshIntervalMs: 0 });
    try {
      const hits = index.search({ query: { match_all: {} } }).hits;
      assert.deepEqual(hits.map((h) => h._id), ['old']);
      assert.equal(index.search({ query: { match: { title: 'v1' } } }).hits.length, 1);
    } finally {
      await index.close();
    }
  });
});
