/**
 * Conformance with Nixiesearch 0.8's documented search requests and routes (issue 15): each case of
 * test/compat/fixtures/nixiesearch-0.8-requests.ts sent to a real server on loopback, at
 * `/v1/index/<index>/search` (0.8's envelope) and at the legacy `_search` (same hits).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { serveLoopbackIndex } from '../helpers/loopback-index.js';
import { docRequestCases, productDocs, productsMapping } from './fixtures/nixiesearch-0.8-requests.js';

describe('Nixiesearch 0.8 documented search requests', () => {
  let base: string;
  let close: () => Promise<void>;
  before(async () => {
    ({ base, close } = await serveLoopbackIndex('products', { mapping: productsMapping }, { aliases: new Map([['shop', 'products']]) }));
    // As indexing/overview.md pushes documents: one JSON object per request, to /v1/index/<index>.
    for (const doc of productDocs) {
      const res = await fetch(`${base}/v1/index/products`, { method: 'POST', body: JSON.stringify(doc) });
      assert.equal(res.status, 200, await res.text());
    }
    assert.equal((await fetch(`${base}/v1/index/products/flush`, { method: 'POST' })).status, 200);
  });
  after(async () => {
    await close();
  });

  const post = async (path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };

  for (const c of docRequestCases) {
    const { expect } = c;
    if ('ids' in expect) {
      it(`answers ${c.source} in 0.8's shape`, async () => {
        const v1 = await post('/v1/index/products/search', c.request);
        assert.equal(v1.status, 200, JSON.stringify(v1.json));
        const hits = v1.json.hits as { _id: string; _score: number }[];
        const ids = hits.map((h) => h._id);
        assert.deepEqual(expect.unordered === true ? [...ids].sort() : ids, expect.unordered === true ? [...expect.ids].sort() : expect.ids);
        assert.equal(typeof (v1.json.took as { total: number }).total, 'number');
        assert.equal(typeof v1.json.ts, 'number');
        if (expect.aggs !== undefined) assert.deepEqual(v1.json.aggs, expect.aggs);
        const fields = (c.request as { fields?: string[] }).fields;
        // `_sort` (sorted requests) is Yarrow's addition, for search_after.
        if (fields === undefined) for (const h of hits) assert.deepEqual(Object.keys(h).filter((k) => k !== '_sort').sort(), ['_id', '_score'], '0.8 returns _id and _score by default');
        const legacy = await post('/shop/_search', c.request);
        assert.equal(legacy.status, 200);
        assert.deepEqual((legacy.json.hits as { _id: string }[]).map((h) => h._id), ids);
      });
    } else {
      it(`refuses ${c.source} with a 400: ${expect.why}`, async () => {
        const v1 = await post('/v1/index/products/search', c.request);
        assert.equal(v1.status, 400, JSON.stringify(v1.json));
        assert.match((v1.json.error as { reason: string }).reason, expect.refused);
      });
    }
  }

  it('answers the documented routes: push a nested document, flush, delete by filter and by id, merge, index list', async () => {
    const pushed = await post('/v1/index/shop', { _id: 'n1', title: 'hello', color: 'red', meta: { sku: 'a999' } });
    assert.deepEqual([pushed.json.status, pushed.json.docs], ['ok', 1]);
    assert.equal((await post('/v1/index/products/flush', {})).json.status, 'ok');
    const bySku = await post('/v1/index/products/search', { filters: { include: { term: { 'meta.sku': 'a999' } } } });
    assert.deepEqual((bySku.json.hits as { _id: string }[]).map((h) => h._id), ['n1']);
    assert.deepEqual((await post('/v1/index/products/delete', { filters: { include: { term: { 'meta.sku': 'a999' } } } })).json.deleted, 1);
    const res = await fetch(`${base}/v1/index/products/doc/nope`, { method: 'DELETE' });
    assert.equal(((await res.json()) as { deleted: number }).deleted, 0);
    assert.equal((await post('/v1/index/products/merge', { segments: 1 })).json.status, 'ok');
    const list = (await (await fetch(`${base}/v1/index`)).json()) as { indexes: string[] };
    assert.deepEqual(list.indexes, ['products']);
  });

  it('answers most documented requests the same', () => {
    const answered = docRequestCases.filter((c) => 'ids' in c.expect).length;
    assert.ok(answered >= 30, `${answered} of ${docRequestCases.length}`);
  });
});
