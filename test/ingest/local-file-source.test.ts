import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { after, before, describe, it } from 'node:test';
import { LocalFileSource, SourceError } from '../../src/ingest/index.js';

describe('LocalFileSource', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'yarrow-local-'));
    for (const [name, content] of [['b.jsonl', 'b'], ['a.jsonl', 'aa'], ['.hidden', 'h'], ['z/c.jsonl', 'c'], ['z/.h/d.jsonl', 'd'], ['m/e.jsonl', 'e']]) {
      await mkdir(join(root, name, '..'), { recursive: true });
      await writeFile(join(root, name), content);
    }
  });
  after(async () => { await rm(root, { recursive: true, force: true }); });

  const names = async (source: LocalFileSource): Promise<string[]> => (await source.list()).map((o) => o.name.slice(root.length + 1));

  it('lists the top level only without recursion, and reports skipped directories', async () => {
    const skipped: string[] = [];
    const source = new LocalFileSource(root, root, { recursive: false, onSkippedDirectory: (p) => skipped.push(p.slice(root.length + 1)) });
    assert.deepEqual(await names(source), ['a.jsonl', 'b.jsonl']);
    assert.deepEqual(skipped.sort(), ['m', 'z']);
  });

  it('lists every level with recursion, sorted by path, hidden entries skipped', async () => {
    assert.deepEqual(await names(new LocalFileSource(root, root, { recursive: true })), ['a.jsonl', 'b.jsonl', 'm/e.jsonl', 'z/c.jsonl']);
  });

  it('lists a single file with its size and opens it', async () => {
    const [object] = await new LocalFileSource('a', join(root, 'a.jsonl'), { recursive: false }).list();
    assert.equal(object.size, 2);
    assert.equal(await text(await object.open()), 'aa');
  });

  it('throws a SourceError for a missing path', async () => {
    await assert.rejects(new LocalFileSource('nope', join(root, 'nope'), { recursive: false }).list(), (e: unknown) => {
      assert.ok(e instanceof SourceError);
      assert.equal(e.message, 'nope: no such file or directory');
      return true;
    });
  });
});
