/**
 * Issue 18's fuzz run: 2,400 malformed requests, generated from a fixed seed with fast-check and
 * written byte for byte to a socket (so that request lines, headers and framing can be broken too),
 * against a real `yarrow standalone` with write and read tokens configured. Bodies (random bytes,
 * invalid UTF-8, truncated or deeply nested JSON, wrong types, bad compression), headers
 * (Content-Encoding, Content-Type, Authorization, framing), paths and query parameters are mangled.
 * No answer may be a 5xx, and afterwards the server is healthy and still indexes and searches.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { Workspace } from '../cli/cli-harness.js';
import { READ_TOKEN, ServerProcess, TOKENS_CONFIG, WRITE_TOKEN } from '../api/server-harness.js';

const RUNS = 2400;

/** One request as bytes on the wire. */
interface RawRequest {
  readonly method: string;
  readonly target: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Uint8Array;
  /** How the body is framed: its true length, a wrong length, chunked, or chunked with a broken chunk. */
  readonly framing: 'length' | 'short' | 'none' | 'chunked' | 'bad-chunk';
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

const paths = fc.oneof(
  fc.constantFrom('/movies/_index', '/movies/_search', '/movies/_flush', '/movies', '/_health', '/health', '/_indexes', '/metrics', '/openapi.json', '/',
    '/inference/embedding/minilm', '/plants', '/plants/1', '/ui/app.js', '/v1/index/movies', '/v1/index/movies/search', '/movies/_delete/1', '/movies/_suggest'),
  fc.constantFrom('/movies/../movies/_index', '/%2e%2e/%2e%2e/etc/passwd', '/movies%00/_search', '//movies//_search', '/movies/_search/', '/MOVIES/_search',
    '/%zz/_search', '/movies/%ff%fe', `/${'a'.repeat(5000)}/_search`, '/ui/..%2f..%2fpackage.json', '/_plants/_search', '/movies/_index%20'),
  fc.array(fc.oneof(fc.webSegment(), fc.constantFrom('_index', '_search', '_flush', 'movies', '..', '%00', '%c3%28', '%', '\u00e9')), { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`),
);

/** The routes that do something, with their own method: most requests reach a handler this way. */
const routes = fc.constantFrom<readonly [string, string]>(
  ['POST', '/movies/_index'], ['PUT', '/movies/_index'], ['POST', '/movies/_flush'], ['GET', '/movies/_search'], ['POST', '/movies/_search'], ['GET', '/movies'],
  ['GET', '/_indexes'], ['POST', '/inference/embedding/minilm'], ['POST', '/plants'], ['GET', '/plants'], ['GET', '/plants/1'], ['DELETE', '/plants/1'],
  ['POST', '/v1/index/movies/search'], ['POST', '/v1/index/movies'], ['DELETE', '/movies/_delete/1'], ['GET', '/ui/app.js'],
);

const methods = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'BREW', 'get');

const queries = fc.oneof(
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 3, arbitrary: fc.constantFrom('?q=a&q=b', '?size=0x10', '?size=-1', '?size=99999999999999999999', '?from=1e3', '?size=%20', '?refresh=maybe', '?refresh', '?q=%ff%fe',
    '?q[]=a', '?q=title:(((', '?q=%22unterminated', '?size=10&size=20', '?from=', '?q=*:*&from=9999999', `?q=${'x'.repeat(10_000)}`) },
  { weight: 2, arbitrary: fc.array(fc.tuple(fc.constantFrom('q', 'size', 'from', 'refresh', 'x', ''), fc.webQueryParameters()), { maxLength: 4 }).map((kv) => `?${kv.map(([k, v]) => `${k}=${v}`).join('&')}`) },
);

const nested = fc.integer({ min: 50, max: 5000 }).chain((depth) => fc.constantFrom(
  `{"query":${'{"bool":{"must":['.repeat(depth)}{"match_all":{}}${']}}'.repeat(depth)}}`,
  `{"filters":{"include":${'{"and":['.repeat(depth)}{"term":{"year":1}}${']}'.repeat(depth)}}}`,
  `${'['.repeat(depth)}${']'.repeat(depth)}`,
  `{"query":${'{"dis_max":{"queries":['.repeat(depth)}{"match_all":{}}${']}}'.repeat(depth)}}`,
));

const bodies: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ maxLength: 2000 }),
  fc.jsonValue().map((v) => enc(JSON.stringify(v))),
  fc.array(fc.jsonValue(), { maxLength: 5 }).map((vs) => enc(vs.map((v) => JSON.stringify(v)).join('\n'))),
  fc.record({ query: fc.jsonValue(), size: fc.jsonValue(), filters: fc.jsonValue(), aggs: fc.jsonValue(), sort: fc.jsonValue() }, { requiredKeys: [] }).map((v) => enc(JSON.stringify(v))),
  fc.record({ _id: fc.oneof(fc.string(), fc.integer(), fc.constant(null)), title: fc.jsonValue(), year: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(2 ** 60)), genres: fc.jsonValue() }, { requiredKeys: [] }).map((v) => enc(JSON.stringify(v))),
  fc.tuple(fc.string(), fc.nat(40)).map(([s, cut]) => enc(`{"_id":"t1","title":${JSON.stringify(s)},"year":2000}`.slice(0, cut))),
  fc.constantFrom('{"_id":"u1","title":"\xff\xfe","year":1}', '{"query":{"match":{"title":"\xc3\x28"}}}').map((s) => Uint8Array.from(s, (c) => c.charCodeAt(0))),
  fc.constantFrom('{"year":1e999999}', '{"size":1e400}', '{"size":-0}', '{"size":1.5}', '{"from":-1}', '{"track_total_hits":"yes"}', '{"input":[{"text":1}]}', '{"input":"x"}', '{"_id":{"a":1},"year":1}', '', ' ', '\n\n\n', 'null', '[]', '{}', '[{"_id":"a","year":1},', '{"__proto__":{"polluted":1},"year":1}', '{"constructor":{"prototype":{"x":1}}}').map(enc),
  nested.map(enc),
);

const contentEncodings = fc.constantFrom(undefined, undefined, 'gzip', 'deflate', 'br', 'zstd', 'gzip, br', 'identity', 'compress', 'x-junk', '');

const authorizations = fc.constantFrom(`Bearer ${WRITE_TOKEN}`, `Bearer ${WRITE_TOKEN}`, `Bearer ${WRITE_TOKEN}`, `Bearer ${WRITE_TOKEN}`, `Bearer ${WRITE_TOKEN}`, `Bearer ${READ_TOKEN}`, undefined, 'Bearer', 'Bearer  ', `Basic ${WRITE_TOKEN}`, `bearer ${WRITE_TOKEN}x`, `Bearer ${'t'.repeat(8000)}`, 'Bearer \u00ff');

const requests: fc.Arbitrary<RawRequest> = fc.record({
  route: fc.oneof({ weight: 3, arbitrary: routes }, { weight: 1, arbitrary: fc.tuple(methods, paths) }),
  query: queries,
  body: bodies,
  contentEncoding: contentEncodings,
  compress: fc.boolean(),
  contentType: fc.constantFrom(undefined, 'application/json', 'application/x-ndjson', 'application/x-www-form-urlencoded', 'text/plain; charset=latin1', 'multipart/form-data; boundary=x', '*/*', 'application/json; charset=utf-16'),
  authorization: authorizations,
  framing: fc.constantFrom('length', 'length', 'length', 'short', 'none', 'chunked', 'bad-chunk'),
  extraHeader: fc.constantFrom(undefined, ['x-forwarded-for', '1.2.3.4'], ['accept-encoding', 'br'], ['expect', '100-continue'], ['host', ''], ['content-length', 'abc'], ['transfer-encoding', 'gzip']),
}).map((r) => {
  let body = r.body;
  // A declared encoding usually gets a body in it, sometimes raw bytes that are not.
  if (r.compress && r.contentEncoding === 'gzip') body = gzipSync(body);
  else if (r.compress && r.contentEncoding === 'deflate') body = deflateSync(body);
  else if (r.compress && r.contentEncoding === 'br') body = brotliCompressSync(body);
  const headers: [string, string][] = [['host', '127.0.0.1'], ['connection', 'close']];
  if (r.contentEncoding !== undefined) headers.push(['content-encoding', r.contentEncoding]);
  if (r.contentType !== undefined) headers.push(['content-type', r.contentType]);
  if (r.authorization !== undefined) headers.push(['authorization', r.authorization]);
  if (r.extraHeader !== undefined) headers.push([r.extraHeader[0], r.extraHeader[1]]);
  return { method: r.route[0], target: `${r.route[1]}${r.query}`, headers, body, framing: r.framing };
});

function wire(r: RawRequest): Buffer {
  const head = [`${r.method} ${r.target} HTTP/1.1`, ...r.headers.map(([k, v]) => `${k}: ${v}`)];
  const body = Buffer.from(r.body);
  switch (r.framing) {
    case 'length':
      head.push(`content-length: ${body.length}`);
      return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
    case 'short':
      head.push(`content-length: ${Math.max(0, body.length - 3)}`);
      return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
    case 'none':
      return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
    case 'chunked':
    case 'bad-chunk': {
      head.push('transfer-encoding: chunked');
      const size = r.framing === 'chunked' ? body.length.toString(16) : `${(body.length + 7).toString(16)}zz`;
      return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n${size}\r\n`, 'latin1'), body, Buffer.from('\r\n0\r\n\r\n', 'latin1')]);
    }
  }
}

/** Sends the bytes, half-closes, and resolves to the status line's code (null if the server closed without one). */
function send(port: number, bytes: Buffer): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => { socket.destroy(); reject(new Error('no answer within 30 s')); }, 30_000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => { /* a reset after the answer, or instead of one: judged by what was read */ });
    socket.on('close', () => {
      clearTimeout(timer);
      // The final status: `Expect: 100-continue` gets an interim 100 first.
      const statuses = [...Buffer.concat(chunks).toString('latin1').matchAll(/(?:^|\r\n\r\n)HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1]));
      resolve(statuses.find((code) => code >= 200) ?? null);
    });
    socket.end(bytes);
  });
}

describe('request fuzz', () => {
  it(`answers ${RUNS} malformed requests without a 5xx and stays healthy`, { timeout: 300_000 }, async (t) => {
    const ws = await Workspace.create(TOKENS_CONFIG);
    try {
      const server = await ServerProcess.start(ws, 'standalone');
      try {
        const port = Number(new URL(server.url).port);
        const statuses = new Map<string, number>();
        await fc.assert(
          fc.asyncProperty(requests, async (r) => {
            const status = await send(port, wire(r));
            const key = status === null ? 'closed' : String(status);
            statuses.set(key, (statuses.get(key) ?? 0) + 1);
            return status === null || status < 500;
          }),
          { numRuns: RUNS, seed: 20261123, endOnFailure: true },
        );
        t.diagnostic(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
        // The run reached the handlers, not only the router and the token check.
        for (const status of ['200', '400', '401', '404']) assert.ok((statuses.get(status) ?? 0) > 0, `some answers were ${status}`);
        assert.doesNotMatch(server.log, / 5\d\d \d/);

        const health = (await (await server.fetch('/_health')).json()) as { status: string };
        assert.equal(health.status, 'ok');
        const auth = { authorization: `Bearer ${WRITE_TOKEN}` };
        const pushed = await server.fetch('/movies/_index?refresh=true', { method: 'POST', headers: auth, body: '{"_id":"after-fuzz","title":"still standing","year":2026}' });
        assert.equal(pushed.status, 200, await pushed.text());
        const found = await server.fetch('/movies/_search', { method: 'POST', headers: auth, body: '{"query":{"match":{"title":"standing"}}}' });
        assert.deepEqual(((await found.json()) as { hits: { _id: string }[] }).hits.map((h) => h._id), ['after-fuzz']);
      } finally {
        assert.equal(await server.stop(), 0);
      }
    } finally {
      await ws.cleanup();
    }
  });
});
