/**
 * Bad input: one line naming file, line, field, expected and actual type; exit 3; nothing of the
 * failing file committed, earlier files kept, and a re-run does not duplicate (SPEC §3).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Index, LocalDirectory } from '../../../src/index.js';
import { errorLines, movieLines, Workspace } from './cli-harness.js';

describe('yarrow index file (bad input)', () => {
  let ws: Workspace;
  before(async () => { ws = await Workspace.create(); });
  after(async () => { await ws.cleanup(); });

  const run = (url: string, dataDir: string) => ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', url], { DATA_DIR: dataDir });

  it('exits 3 naming file and line of invalid JSON, committing nothing of the file', async () => {
    await ws.write('json.jsonl', `${movieLines('j', 2)}{"_id": "j3", "title": }\n${movieLines('k', 1)}`);
    const r = await run('json.jsonl', 'd-json');
    assert.equal(r.code, 3);
    assert.deepEqual(errorLines(r), [`error: json.jsonl, line 3: invalid JSON: ${jsonError('{"_id": "j3", "title": }')}`]);
    assert.deepEqual(await ws.ids('movies', 'd-json'), []);
  });

  it('exits 3 naming file, line, field, expected and actual type of a type mismatch', async () => {
    await ws.write('type.jsonl', `${movieLines('t', 3)}\n{"_id":"t9","title":"x","year":"1999"}\n`);
    const r = await run('type.jsonl', 'd-type');
    assert.equal(r.code, 3);
    assert.deepEqual(errorLines(r), ['error: type.jsonl, line 5: field "year": expected int, got string ("1999")']);
    assert.deepEqual(await ws.ids('movies', 'd-type'), []);
  });

  it('exits 3 naming a missing required field', async () => {
    await ws.write('required.jsonl', '{"_id":"r1","title":"no year"}\n');
    const r = await run('required.jsonl', 'd-required');
    assert.equal(r.code, 3);
    assert.deepEqual(errorLines(r), ['error: required.jsonl, line 1: field "year": expected int, got missing']);
  });

  it('keeps the files before a bad one committed, commits nothing of it, and does not duplicate on a re-run', async () => {
    await ws.write('batch/1.jsonl', movieLines('a', 3));
    await ws.write('batch/2.jsonl', movieLines('b', 3));
    // The bad line comes after more than one upsert batch's worth of good lines.
    await ws.write('batch/3.jsonl', `${movieLines('c', 6000)}{"_id":"c-bad","title":"x","year":"soon"}\n`);
    const first = await run('batch', 'd-batch');
    assert.equal(first.code, 3);
    assert.deepEqual(errorLines(first), ['error: batch/3.jsonl, line 6001: field "year": expected int, got string ("soon")']);
    assert.match(first.stderr, /rolled back batch\/3\.jsonl: nothing of it is committed; the 2 files indexed before it stay committed/);
    assert.deepEqual(await ws.ids('movies', 'd-batch'), ['a1', 'a2', 'a3', 'b1', 'b2', 'b3']);

    await ws.write('batch/3.jsonl', movieLines('c', 6000));
    const second = await run('batch', 'd-batch');
    assert.equal(second.code, 0, second.stderr);
    const ids = await ws.ids('movies', 'd-batch');
    assert.equal(ids.length, 6006);
    assert.equal(new Set(ids).size, 6006);
  });

  it('exits 4 naming the holder when another process holds the index lock', async () => {
    const holder = await Index.open(await LocalDirectory.open(ws.path('d-lock/movies')), {
      name: 'movies',
      mapping: { fields: { title: { type: 'text' }, genres: { type: 'text[]', search: false, filter: true }, year: { type: 'int', filter: true, required: true } } },
    });
    try {
      await ws.write('lock.jsonl', movieLines('l', 1));
      const r = await run('lock.jsonl', 'd-lock');
      assert.equal(r.code, 4);
      assert.equal(errorLines(r).length, 1);
      assert.match(errorLines(r)[0], new RegExp(`pid ${process.pid}`));
    } finally {
      await holder.close();
    }
  });
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}
