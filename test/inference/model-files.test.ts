import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { InferenceError, openEmbedder, parseModelLocation } from '../../src/inference/index.js';
import { closedPortUrl, startHubServer } from './hub-server.js';
import type { HubServer } from './hub-server.js';
import { MINILM_FILES, minilmConfig, minilmDir } from './minilm.js';

describe('parseModelLocation', () => {
  it('reads hub handles, URLs and local directories', () => {
    assert.deepEqual(parseModelLocation('sentence-transformers/all-MiniLM-L6-v2'), { kind: 'hub', org: 'sentence-transformers', name: 'all-MiniLM-L6-v2' });
    assert.deepEqual(parseModelLocation('https://models.example.com/minilm/'), { kind: 'url', url: 'https://models.example.com/minilm' });
    assert.deepEqual(parseModelLocation('file:///opt/models/minilm'), { kind: 'local', dir: '/opt/models/minilm' });
    assert.deepEqual(parseModelLocation('/opt/models/minilm'), { kind: 'local', dir: '/opt/models/minilm' });
    assert.equal(parseModelLocation('./models/minilm')?.kind, 'local');
    assert.equal(parseModelLocation('minilm'), null);
    assert.equal(parseModelLocation('a/b/c'), null);
  });
});

describe('model downloads (a local server laid out like the hub)', () => {
  const repo = 'sentence-transformers/all-MiniLM-L6-v2';
  let hub: HubServer;
  let cacheDir: string;
  let reference: Float32Array;
  before(async () => {
    hub = await startHubServer(repo, minilmDir(), MINILM_FILES);
    cacheDir = await mkdtemp(join(tmpdir(), 'yarrow-model-cache-'));
    const local = await openEmbedder('local', minilmConfig({ cache: false }), { cacheDir });
    [reference] = await local.embed(['downloaded models embed like local ones'], 'document');
    await local.close();
  });
  after(async () => {
    await hub.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('downloads a hub handle into <cache>/models/<org>/<name> on first use, then loads it from there with the hub gone', async () => {
    const lines: string[] = [];
    const first = await openEmbedder('hubbed', minilmConfig({ model: repo }), { cacheDir, hubEndpoint: hub.url, log: (l) => lines.push(l) });
    try {
      const [v] = await first.embed(['downloaded models embed like local ones'], 'document');
      assert.deepEqual(v, reference);
    } finally {
      await first.close();
    }
    const dir = join(cacheDir, 'models', 'sentence-transformers', 'all-MiniLM-L6-v2');
    for (const f of MINILM_FILES.filter((f) => f !== 'modules.json')) assert.ok(existsSync(join(dir, f)), `${f} is cached`);
    assert.deepEqual(await readFile(join(dir, 'model.onnx')), await readFile(join(minilmDir(), 'model.onnx')));
    assert.equal(hub.requests[0], `/api/models/${repo}`);
    assert.ok(hub.requests.includes(`/${repo}/resolve/main/model.onnx`));
    assert.ok(lines.some((l) => l.includes(`downloading ${hub.url}/${repo}/resolve/main/model.onnx`)), lines.join('\n'));

    const seen = hub.requests.length;
    // Offline: an endpoint nothing listens on. The cache must be enough.
    const second = await openEmbedder('hubbed', minilmConfig({ model: repo }), { cacheDir, hubEndpoint: await closedPortUrl() });
    try {
      const [v] = await second.embed(['downloaded models embed like local ones'], 'document');
      assert.deepEqual(v, reference);
    } finally {
      await second.close();
    }
    assert.equal(hub.requests.length, seen);
  });

  it('downloads again when an earlier download stopped before it completed', async () => {
    const dir = join(cacheDir, 'models', 'sentence-transformers', 'all-MiniLM-L6-v2');
    await openEmbedder('hubbed', minilmConfig({ model: repo }), { cacheDir, hubEndpoint: hub.url }).then((m) => m.close());
    await unlink(join(dir, '.yarrow-complete.json'));
    await unlink(join(dir, 'tokenizer.json'));
    const seen = hub.requests.length;
    const again = await openEmbedder('hubbed', minilmConfig({ model: repo }), { cacheDir, hubEndpoint: hub.url });
    await again.close();
    assert.ok(hub.requests.slice(seen).includes(`/${repo}/resolve/main/tokenizer.json`));
    assert.ok(existsSync(join(dir, 'tokenizer.json')));
  });

  it('downloads from a plain URL of a directory of files', async () => {
    const m = await openEmbedder('url', minilmConfig({ model: `${hub.url}/${repo}/resolve/main` }), { cacheDir });
    try {
      const [v] = await m.embed(['downloaded models embed like local ones'], 'document');
      assert.deepEqual(v, reference);
    } finally {
      await m.close();
    }
  });

  it('fails clearly for an unknown repository, a missing file and an unreachable hub', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'yarrow-model-cache-'));
    try {
      await assert.rejects(openEmbedder('x', minilmConfig({ model: 'nobody/nothing' }), { cacheDir: fresh, hubEndpoint: hub.url }), (e: unknown) => {
        assert.ok(e instanceof InferenceError);
        assert.equal(e.code, 'model_unavailable');
        assert.match(e.message, /embedding model "x": the hub answered 404 for .*\/api\/models\/nobody\/nothing/);
        return true;
      });
      await assert.rejects(openEmbedder('x', minilmConfig({ model: repo, file: 'onnx/model_O4.onnx' }), { cacheDir: fresh, hubEndpoint: hub.url }), /has no onnx\/model_O4\.onnx \(ONNX files there: model\.onnx\)/);
      const down = await closedPortUrl();
      await assert.rejects(openEmbedder('x', minilmConfig({ model: repo }), { cacheDir: fresh, hubEndpoint: down }), (e: unknown) => {
        assert.ok(e instanceof Error);
        assert.ok(e.message.startsWith(`embedding model "x": cannot reach the hub at ${down}/api/models/${repo}: `), e.message);
        assert.match(e.message, /ECONNREFUSED.*put the model in a local directory/);
        return true;
      });
      await assert.rejects(openEmbedder('x', minilmConfig({ model: `${hub.url}/elsewhere` }), { cacheDir: fresh }), /elsewhere\/model\.onnx does not exist \(404\)/);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });
});
