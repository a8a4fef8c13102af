/**
 * The search page (src/ui, built by `npm run build` into dist/ui): `GET /` answers its HTML and
 * `GET /ui/<file>` its script, stylesheet and source maps, in `standalone` and `search` modes.
 * The files are read on the first request for one of them and served from memory from then on. The page loads nothing from anywhere
 * else, and the HTML is sent with a strict Content-Security-Policy (no inline script or style,
 * requests to this server only), which the page is built to work under.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError, HttpErrorType } from '../http-status.js';
import type { RouteContext } from '../route-context.js';

/** The policy of the page: everything from this server, nothing inline, no framing. */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

/** Answered at `/` when the page was not built (running from a checkout without `npm run build`). */
const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Yarrow</title></head>
<body><h1>Yarrow</h1><p>The search page is not built: run <code>npm run build</code>. The API is described at <a href="/openapi.json">/openapi.json</a>.</p></body></html>
`;

/** A built page: its HTML and its assets by file name. */
export interface UiAssets {
  readonly html: string;
  readonly files: ReadonlyMap<string, Buffer>;
}

/**
 * Reads the built page from `dir`, by default dist/ui next to this module's build output (or the
 * checkout's dist/ui when running from src with tsx); null when it is not built.
 */
export function loadUiAssets(dir?: string): UiAssets | null {
  const candidates = dir === undefined
    ? [fileURLToPath(new URL('../../ui/', import.meta.url)), fileURLToPath(new URL('../../../dist/ui/', import.meta.url))]
    : [dir];
  const found = candidates.find((d) => existsSync(join(d, 'index.html')));
  if (found === undefined) return null;
  const files = new Map<string, Buffer>();
  for (const name of readdirSync(found)) if (name !== 'index.html' && extname(name) in CONTENT_TYPES) files.set(name, readFileSync(join(found, name)));
  return { html: readFileSync(join(found, 'index.html'), 'utf8'), files };
}

/**
 * Registers `/` and `/ui/:file` for `standalone` and `search`; `api` keeps its JSON `/`. Without
 * `given`, the built page is read by {@link loadUiAssets} on the first request for it, not at start
 * (~280 KB in five files: issue 17, `yarrow search`'s start to first answer).
 */
export function registerUiRoutes(app: FastifyInstance, ctx: RouteContext, given?: UiAssets | null): void {
  let loaded = given;
  // Read once: a checkout without a built page (null) is not looked at again.
  const assets = (): UiAssets | null => {
    if (loaded === undefined) loaded = loadUiAssets();
    return loaded;
  };
  if (ctx.role === 'api') {
    app.get('/', (_request, reply) => reply.send({ name: 'yarrow', version: ctx.version, mode: ctx.role, indexes: [...ctx.indexes.keys()] }));
    return;
  }
  app.get('/', (_request, reply) => reply
    .type('text/html; charset=utf-8')
    .header('content-security-policy', UI_CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-cache')
    .send(assets()?.html ?? NOT_BUILT_PAGE));
  // Only asset names: `GET /ui/_search` stays the search of an index called "ui".
  app.get('/ui/:file(^[\\w.-]+\\.(?:js|css|map)$)', (request: FastifyRequest<{ Params: { file: string } }>, reply) => {
    const body = assets()?.files.get(request.params.file);
    if (body === undefined) throw new HttpError(HttpErrorType.notFound, `no such file: /ui/${request.params.file}`);
    // Names carry a content hash (scripts/build-ui.ts): a name never changes its content.
    return reply
      .type(CONTENT_TYPES[extname(request.params.file)])
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(body);
  });
}
