/**
 * ApiMetrics loads prom-client late (issue 17: start-up); what it records before that must still
 * show in the exposition, in order with what comes after.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiMetrics } from '../../src/api/index.js';

/** The value of the sample line `name{labels}` in a Prometheus exposition, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('ApiMetrics', () => {
  it('counts the events recorded before its registry loads, and those after', async () => {
    const metrics = new ApiMetrics(() => []);
    metrics.observeRequest('GET', '/:index/_search', 200, 0.002);
    metrics.observeRequest('GET', '/:index/_search', 200, 0.004);
    metrics.indexed('movies', 3, 120);
    metrics.reloaded('movies');
    metrics.pollFailed('movies');
    const first = (await metrics.render()).text;
    assert.equal(sample(first, 'yarrow_http_requests_total{method="GET",route="/:index/_search",status="200"}'), 2);
    assert.equal(sample(first, 'yarrow_http_request_duration_seconds_count{method="GET",route="/:index/_search"}'), 2);
    assert.equal(sample(first, 'yarrow_docs_indexed_total{index="movies"}'), 3);
    assert.equal(sample(first, 'yarrow_index_body_bytes_total{index="movies"}'), 120);
    assert.equal(sample(first, 'yarrow_reloads_total{index="movies"}'), 1);
    assert.equal(sample(first, 'yarrow_poll_errors_total{index="movies"}'), 1);
    // Loaded now: later events go straight to the registry.
    metrics.observeRequest('GET', '/:index/_search', 404, 0.001);
    metrics.indexed('movies', 2, 80);
    const second = await metrics.render();
    assert.match(second.contentType, /^text\/plain/);
    assert.equal(sample(second.text, 'yarrow_http_requests_total{method="GET",route="/:index/_search",status="404"}'), 1);
    assert.equal(sample(second.text, 'yarrow_docs_indexed_total{index="movies"}'), 5);
    // The process collectors came with the registry.
    assert.ok(sample(second.text, 'yarrow_process_process_cpu_user_seconds_total') !== undefined, second.text.slice(0, 300));
  });

  it('renders the same registry to concurrent first scrapes', async () => {
    const metrics = new ApiMetrics(() => []);
    metrics.indexed('movies', 1, 10);
    const [a, b] = await Promise.all([metrics.render(), metrics.render()]);
    assert.equal(sample(a.text, 'yarrow_docs_indexed_total{index="movies"}'), 1);
    assert.equal(sample(b.text, 'yarrow_docs_indexed_total{index="movies"}'), 1);
  });
});
