import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { buildServer } from '../../../src/api/index.js';
import { silentLogger } from '../../../src/engine/index.js';
import { openAiEmbeddingSchema, openEmbedder } from '../../../src/inference/index.js';
import type { EmbeddingModel } from '../../../src/inference/index.js';
import { closedPortUrl } from '../../inference/hub-server.js';
import { dot, minilmConfig } from '../../inference/minilm.js';

interface EmbedAnswer {
  output: { embedding: number[] }[];
  took: number;
}

describe('POST /inference/embedding/<model> (a real server on loopback)', () => {
  let minilm: EmbeddingModel;
  let down: EmbeddingModel;
  let base: string;
  let close: () => Promise<void>;

  before(async () => {
    minilm = await openEmbedder('minilm', minilmConfig({ prompt: { query: 'query: ', doc: 'passage: ' } }), { cacheDir: tmpdir() });
    down = await openEmbedder('remote', openAiEmbeddingSchema.parse({ provider: 'openai', model: 'm', endpoint: await closedPortUrl(), dimensions: 384, retry: 0 }), { cacheDir: tmpdir() });
    const embedders = new Map([['minilm', minilm], ['remote', down]]);
    const { app } = buildServer({ role: 'search', indexes: new Map(), log: silentLogger, version: 'test', embedders });
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    close = async () => {
      await app.close();
      await minilm.close();
    };
  });
  after(async () => {
    await close();
  });

  const post = (path: string, body: unknown): Promise<Response> =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  it('answers one embedding per input, in order, in Nixiesearch\'s shape', async () => {
    const res = await post('/inference/embedding/minilm', { input: [{ text: 'kitten napping atop carpet', type: 'raw' }, { text: 'The feline rested on the rug.' }, { text: 'Stock markets fell sharply.' }] });
    assert.equal(res.status, 200);
    const body = (await res.json()) as EmbedAnswer;
    assert.deepEqual(Object.keys(body).sort(), ['output', 'took']);
    assert.equal(body.output.length, 3);
    const [q, cat, stocks] = body.output.map((o) => Float32Array.from(o.embedding));
    assert.equal(q.length, 384);
    assert.ok(dot(q, cat) > dot(q, stocks));
    const [direct] = await minilm.embed(['kitten napping atop carpet'], 'raw');
    for (let i = 0; i < 384; i++) assert.ok(Math.abs(q[i] - direct[i]) < 1e-6);
    assert.equal(typeof body.took, 'number');
  });

  it('applies the model\'s prompt for type query and document', async () => {
    const res = await post('/inference/embedding/minilm', { input: [{ text: 'solar panels', type: 'query' }, { text: 'query: solar panels', type: 'raw' }, { text: 'solar panels', type: 'document' }] });
    const [q, raw, d] = ((await res.json()) as EmbedAnswer).output.map((o) => o.embedding);
    assert.deepEqual(q, raw);
    assert.notDeepEqual(q, d);
  });

  it('answers 400 naming the field, expected and actual type', async () => {
    const cases: [unknown, string, string, string][] = [
      [{ input: 'text' }, 'input', 'array', 'string'],
      [{ input: [{ text: 'ok' }, { text: 42 }] }, 'input[1].text', 'string', 'number'],
      [{ input: [{ text: 'ok', type: 'passage' }] }, 'input[0].type', 'query | document | raw', '"passage"'],
      [{ input: [null] }, 'input[0]', 'object', 'null'],
      ['{not json', '', 'a JSON object', 'invalid JSON'],
    ];
    for (const [body, field, expected, actual] of cases) {
      const res = await post('/inference/embedding/minilm', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      const { error } = (await res.json()) as { error: { type: string; field: string; expected: string; actual: string; reason: string } };
      assert.deepEqual({ type: error.type, field: error.field, expected: error.expected, actual: error.actual }, { type: 'invalid_request', field, expected, actual });
    }
  });

  it('answers 404 naming the configured models, 405 for GET, 503 when the model cannot embed', async () => {
    const missing = await post('/inference/embedding/e5', { input: [] });
    assert.equal(missing.status, 404);
    assert.match(((await missing.json()) as { error: { reason: string } }).error.reason, /no embedding model "e5" \(configured in inference.embedding: minilm, remote\)/);
    const get = await fetch(`${base}/inference/embedding/minilm`);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    const unavailable = await post('/inference/embedding/remote', { input: [{ text: 'x' }] });
    assert.equal(unavailable.status, 503);
    const { error } = (await unavailable.json()) as { error: { type: string; model: string; reason: string } };
    assert.equal(error.type, 'unavailable');
    assert.equal(error.model, 'remote');
    assert.match(error.reason, /cannot connect/);
  });
});
