/** `yarrow index file` reads every kind of local and HTTP source, compressed or not (SPEC §1.1, §3). */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { errorLines, movieLines, Workspace } from './cli-harness.js';

/** zstd bytes of `text`, from the zstd CLI (the tests need a real encoder, Node 20 has none). */
function zstd(text: string): Buffer {
  return execFileSync('zstd', ['-q', '-c', '-'], { input: text });
}

describe('yarrow index file (sources)', () => {
  let ws: Workspace;
  let server: Server;
  let base: string;
  const served = new Map<string, Buffer>();

  before(async () => {
    ws = await Workspace.create();
    server = createServer((req, res) => {
      const body = served.get(req.url ?? '');
      if (body === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/x-ndjson', 'content-length': body.length }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await ws.cleanup();
  });

  /** Indexes `url` into a fresh index `name` (ws/data/<name>) and returns the ids it holds. */
  async function indexInto(name: string, url: string, extra: string[] = []): Promise<{ ids: string[]; stderr: string }> {
    await ws.write(`${name}.yml`, `store: { local: { path: ./data } }\nschema:\n  ${name}:\n    fields:\n      title: { type: text }\n      year: { type: int, required: true }\n`);
    const run = await ws.run(['index', 'file', '-c', `${name}.yml`, '-i', name, '-u', url, ...extra]);
    assert.equal(run.code, 0, run.stderr);
    return { ids: await ws.ids(name), stderr: run.stderr };
  }

  it('indexes a plain path, commits, and logs the commit and the final seq', async () => {
    await ws.write('plain/movies.jsonl', movieLines('p', 3));
    const { ids, stderr } = await indexInto('plain', 'plain/movies.jsonl');
    assert.deepEqual(ids, ['p1', 'p2', 'p3']);
    assert.match(stderr, /INFO {2}created index plain in /);
    assert.match(stderr, /INFO {2}commit seq=1 files=\[seg-000000\.tdx,[^\]]*\]/);
    assert.match(stderr, /INFO {2}indexing done: 3 docs from 1 file in [\d.]+ s \(.*docs\/s, .*MB\/s\); index plain is at seq=1/);
  });

  it('indexes a file:/// URL', async () => {
    const path = await ws.write('fileurl/movies.jsonl', movieLines('f', 2));
    assert.deepEqual((await indexInto('fileurl', pathToFileURL(path).href)).ids, ['f1', 'f2']);
  });

  it('indexes only the top level of a directory without -r, skipping hidden files', async () => {
    await ws.write('tree/b.jsonl', movieLines('b', 1));
    await ws.write('tree/a.jsonl', movieLines('a', 1));
    await ws.write('tree/.hidden.jsonl', movieLines('h', 1));
    await ws.write('tree/sub/c.jsonl', movieLines('c', 1));
    await ws.write('tree/sub/deeper/d.jsonl.gz', gzipSync(movieLines('d', 1)));
    await ws.write('tree/.git/e.jsonl', movieLines('e', 1));
    const { ids, stderr } = await indexInto('toplevel', 'tree');
    assert.deepEqual(ids, ['a1', 'b1']);
    assert.match(stderr, /skipping directory tree\/sub \(use -r to index subdirectories\)/);
    // Sorted: a before b.
    assert.ok(stderr.indexOf('indexed tree/a.jsonl') < stderr.indexOf('indexed tree/b.jsonl'));
  });

  it('indexes a directory recursively with -r, sorted, skipping hidden files and directories', async () => {
    const { ids, stderr } = await indexInto('recursive', 'tree', ['-r']);
    assert.deepEqual(ids, ['a1', 'b1', 'c1', 'd1']);
    const order = ['tree/a.jsonl', 'tree/b.jsonl', 'tree/sub/c.jsonl', 'tree/sub/deeper/d.jsonl.gz'].map((f) => stderr.indexOf(`indexed ${f}:`));
    assert.ok(order.every((pos, i) => pos >= 0 && (i === 0 || pos > order[i - 1])), stderr);
  });

  it('decompresses .gz and .zst files', async () => {
    await ws.write('compressed/one.jsonl.gz', gzipSync(movieLines('g', 2)));
    await ws.write('compressed/two.jsonl.zst', zstd(movieLines('z', 2)));
    assert.deepEqual((await indexInto('compressed', 'compressed')).ids, ['g1', 'g2', 'z1', 'z2']);
  });

  it('detects gzip and zstd by their magic bytes whatever the file is called', async () => {
    await ws.write('magic/gzip-named.jsonl', gzipSync(movieLines('g', 1)));
    await ws.write('magic/zstd-named.txt', zstd(movieLines('z', 1)));
    assert.deepEqual((await indexInto('magic', 'magic')).ids, ['g1', 'z1']);
  });

  it('streams a file over HTTP, compressed or not', async () => {
    served.set('/movies.jsonl', Buffer.from(movieLines('h', 3)));
    served.set('/movies.jsonl.gz', gzipSync(movieLines('hz', 2)));
    assert.deepEqual((await indexInto('http', `${base}/movies.jsonl`)).ids, ['h1', 'h2', 'h3']);
    assert.deepEqual((await indexInto('httpgz', `${base}/movies.jsonl.gz`)).ids, ['hz1', 'hz2']);
  });

  it('exits 1 naming the URL and status when the HTTP server answers 404', async () => {
    const run = await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', `${base}/missing.jsonl`]);
    assert.equal(run.code, 1);
    assert.deepEqual(errorLines(run), [`error: GET ${base}/missing.jsonl: HTTP 404 Not Found`]);
  });

  it('exits 1 naming a path that does not exist', async () => {
    const run = await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'nowhere/movies.jsonl']);
    assert.equal(run.code, 1);
    assert.deepEqual(errorLines(run), ['error: nowhere/movies.jsonl: no such file or directory']);
  });

  it('exits 1 naming a corrupt compressed file, committing nothing of it', async () => {
    const good = gzipSync(movieLines('c', 50));
    await ws.write('corrupt/movies.jsonl.gz', good.subarray(0, good.length - 20));
    const run = await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'corrupt/movies.jsonl.gz'], { DATA_DIR: 'corrupt-data' });
    assert.equal(run.code, 1);
    assert.match(errorLines(run)[0], /^error: corrupt\/movies\.jsonl\.gz: unexpected end of file/);
    assert.deepEqual(await ws.ids('movies', 'corrupt-data'), []);
  });
});
