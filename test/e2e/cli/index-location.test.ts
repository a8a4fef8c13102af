/**
 * Issue 13: what an index location holds and how writers share it. After `index file` it holds its
 * data files, `index.json` and `write.lock`; a second writer is refused naming the holder; a
 * writer killed with SIGKILL does not block the next one; and a location whose `index.json` is
 * gone is refused by every writer mode, with nothing deleted.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ServerProcess } from '../api/server-harness.js';
import { errorLines, movieLines, Workspace } from './cli-harness.js';

/** Every file of a directory (but the lock, which each attempt takes and releases) with a digest of its content. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) if (name !== 'write.lock') out[name] = createHash('sha256').update(await readFile(join(dir, name))).digest('hex');
  return out;
}

describe('an index location', () => {
  let ws: Workspace;
  before(async () => { ws = await Workspace.create(); });
  after(async () => { await ws.cleanup(); });

  const indexFile = (url: string, dataDir: string) => ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', url], { DATA_DIR: dataDir });

  it('holds its data files, index.json and write.lock after `yarrow index file`', async () => {
    await ws.write('a.jsonl', movieLines('a', 50));
    const r = await indexFile('a.jsonl', 'd1');
    assert.equal(r.code, 0, r.stderr);
    const names = await readdir(ws.path('d1/movies'));
    assert.ok(names.includes('index.json'), names.join(' '));
    assert.ok(names.includes('write.lock'), names.join(' '));
    assert.ok(names.some((n) => /^seg-[0-9a-z]+\.tdx$/.test(n)), names.join(' '));
    const lock = JSON.parse(await readFile(ws.path('d1/movies/write.lock'), 'utf8')) as { state: string };
    assert.equal(lock.state, 'released');
  });

  it('refuses a second writer naming the holder, and lets the next one in after the first is killed with SIGKILL', async () => {
    await ws.write('b.jsonl', movieLines('b', 20));
    const first = await ServerProcess.start(ws, 'index api', { DATA_DIR: 'd2' });
    try {
      const refused = await indexFile('b.jsonl', 'd2');
      assert.equal(refused.code, 4, refused.stderr);
      assert.equal(errorLines(refused).length, 1);
      assert.match(errorLines(refused)[0], new RegExp(`pid ${String(first.child.pid)} on `));
    } finally {
      await first.stop('SIGKILL');
    }
    const next = await indexFile('b.jsonl', 'd2');
    assert.equal(next.code, 0, next.stderr);
    assert.deepEqual(await ws.ids('movies', 'd2'), Array.from({ length: 20 }, (_, i) => `b${i + 1}`).sort());
    assert.ok((await readdir(ws.path('d2/movies'))).includes('write.lock'));
  });

  describe('without index.json', () => {
    let files: Record<string, string>;
    before(async () => {
      await ws.write('c1.jsonl', movieLines('c', 30));
      await ws.write('c2.jsonl', movieLines('d', 30));
      for (const f of ['c1.jsonl', 'c2.jsonl']) assert.equal((await indexFile(f, 'd3')).code, 0);
      await rm(ws.path('d3/movies/index.json'));
      files = await snapshot(ws.path('d3/movies'));
      assert.ok(Object.keys(files).some((n) => n.startsWith('seg-')));
    });

    const modes: Record<string, string[]> = {
      'index file': ['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'c1.jsonl'],
      'index kafka': ['index', 'kafka', '-c', 'conf.yml', '-i', 'movies', '-b', '127.0.0.1:1', '-t', 'movies'],
      'index api': ['index', 'api', '-c', 'conf.yml', '-p', '0', '-h', '127.0.0.1'],
      api: ['api', '-c', 'conf.yml', '-p', '0', '-h', '127.0.0.1'],
      standalone: ['standalone', '-c', 'conf.yml', '-p', '0', '-h', '127.0.0.1'],
    };
    for (const [mode, args] of Object.entries(modes)) {
      it(`is refused by ${mode} with a clear error, and nothing is deleted`, async () => {
        const r = await ws.run(args, { DATA_DIR: 'd3' });
        assert.equal(r.code, 5, r.stderr);
        const lines = errorLines(r);
        assert.equal(lines.length, 1, r.stderr);
        assert.match(lines[0], /has no index\.json but is not empty/);
        assert.deepEqual(await snapshot(ws.path('d3/movies')), files);
      });
    }
  });
});
