/**
 * Push indexing (SPEC §4.2): `POST`/`PUT /<index>/_index` and `POST /<index>/_flush`.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { indexBody } from '../push-indexer.js';
import { readBody } from '../request-body.js';
import { singleParam } from '../request-input.js';
import { lookupIndex, requireWrites } from '../route-context.js';
import type { RouteContext } from '../route-context.js';
import { WritableIndex } from '../served-index.js';

type IndexRequest = FastifyRequest<{ Params: { index: string } }>;

function emptyBody(): AsyncIterable<Buffer> {
  return (async function* () { /* no body */ })();
}

/** Registers `_index` and `_flush`. */
export function registerIndexRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const handleIndex = async (request: IndexRequest, reply: FastifyReply): Promise<void> => {
    requireWrites(ctx);
    const served = lookupIndex(ctx, request.params.index);
    const started = performance.now();
    const raw = request.body as Readable | undefined;
    const label = `${request.method} ${request.url}`;
    const body = raw === undefined ? emptyBody() : readBody(raw, request.headers, ctx.bodyLimit);
    const result = await indexBody(served.index(), body, {
      onProgress: (docs, bytes) => { ctx.log.info(`${label}: ${docs} docs, ${(bytes / 1e6).toFixed(1)} MB read`); },
    });
    ctx.metrics.indexed(served.name, result.docs, result.bytes);
    const refresh = singleParam(request.query, 'refresh');
    if ((refresh === 'true' || refresh === '') && served instanceof WritableIndex) await served.refresh();
    const took = Math.round(performance.now() - started);
    void reply.code(200).send({ result: 'created', took, docs: result.docs, bytes: result.bytes });
  };
  app.post('/:index/_index', handleIndex);
  app.put('/:index/_index', handleIndex);

  app.post('/:index/_flush', async (request: FastifyRequest<{ Params: { index: string } }>, reply) => {
    requireWrites(ctx);
    const served = lookupIndex(ctx, request.params.index);
    const result = await served.index().commit();
    ctx.log.debug(`index ${served.name} committed at seq=${result.seq}`);
    void reply.code(200).send();
  });
}
