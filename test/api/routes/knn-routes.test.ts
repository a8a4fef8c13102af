/**
 * Issue 14 over HTTP (a real server on loopback): pre-embedded documents through `/_index`, a bad
 * vector answered 400 naming line, field, expected and actual with nothing of the batch indexed,
 * and `knn` through `/_search`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { serveLoopbackIndex } from '../../helpers/loopback-index.js';

const mapping = { fields: { title: { type: 'text', search: { lexical: {}, semantic: { dim: 3, distance: 'cosine' } } }, kind: { type: 'text', filter: true } } };

describe('knn over HTTP', () => {
  let base: string;
  let close: () => Promise<void>;

  before(async () => {
    ({ base, close } = await serveLoopbackIndex('shapes', { mapping }));
  });
  after(async () => {
    await close();
  });

  const post = (path: string, body: string): Promise<Response> => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const line = (id: string, embedding: unknown, kind = 'axis'): string => JSON.stringify({ _id: id, title: { text: `${id} axis`, embedding }, kind });

  it('answers 400 naming line, field, expected and actual for a bad vector, and indexes nothing of the batch', async () => {
    const res = await post('/shapes/_index?refresh=true', [line('x', [1, 0, 0]), line('bad', [1, 0])].join('\n'));
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: Record<string, unknown> };
    assert.equal(body.error.type, 'invalid_document');
    assert.equal(body.error.line, 2);
    assert.equal(body.error.field, 'title.embedding');
    assert.equal(body.error.expected, 'an array of 3 numbers');
    assert.match(String(body.error.actual), /2 numbers/);
    const search = await post('/shapes/_search', JSON.stringify({ query: { match_all: {} } }));
    assert.equal(((await search.json()) as { total: number }).total, 0);
  });

  it('indexes pre-embedded documents and answers knn with filters', async () => {
    const res = await post('/shapes/_index?refresh=true', [line('x', [1, 0, 0]), line('y', [0, 1, 0]), line('z', [0, 0, 1], 'depth'), line('xy', [1, 1, 0])].join('\n'));
    assert.equal(res.status, 200);
    const knn = async (body: unknown): Promise<string[]> => {
      const r = await post('/shapes/_search', JSON.stringify(body));
      assert.equal(r.status, 200);
      return ((await r.json()) as { hits: { _id: string }[] }).hits.map((h) => h._id);
    };
    assert.deepEqual(await knn({ query: { knn: { field: 'title', query_vector: [0.9, 0.2, 0.1], k: 2 } } }), ['x', 'xy']);
    assert.deepEqual(await knn({ query: { knn: { field: 'title', query_vector: [0.9, 0.2, 0.1] } }, size: 1, filters: { include: { term: { kind: 'depth' } } } }), ['z']);
    const bad = await post('/shapes/_search', JSON.stringify({ query: { knn: { field: 'title', query_vector: [1, 2] } } }));
    assert.equal(bad.status, 400);
  });
});
