/**
 * Service endpoints: `/_health` (overall status and each index's served seq and commit age; also at
 * `/health`, the path Kubernetes probes and Nixiesearch 0.8 clients call), `/metrics`, `/openapi.json`. `GET /` is the search page (ui-routes.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withoutPaths } from '../request-input.js';
import type { RouteContext } from '../route-context.js';

/** Registers the service endpoints; `openapi` gives the text `/openapi.json` answers (made on first use, kept by the caller). */
export function registerSystemRoutes(app: FastifyInstance, ctx: RouteContext, openapi: () => Promise<string>): void {
  // 200 even when degraded: a searcher whose polls fail still serves its last good commit.
  const health = (_request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    // A failed poll's message may name files: only their last component leaves the server.
    const indexes = Object.fromEntries(
      [...ctx.indexes].map(([name, served]) => {
        const health = served.health();
        return [name, {
          ...health,
          ...(health.lastError === undefined ? {} : { lastError: withoutPaths(health.lastError) }),
          ...(health.reason === undefined ? {} : { reason: withoutPaths(health.reason) }),
        }];
      }),
    );
    const degraded = Object.values(indexes).some((h) => h.status !== 'ok');
    return reply.send({ status: degraded ? 'degraded' : 'ok', indexes });
  };
  app.get('/_health', health);
  app.get('/health', health);
  app.get('/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(await openapi()));
  app.get('/metrics', async (_request, reply) => {
    const { contentType, text } = await ctx.metrics.render();
    return reply.type(contentType).send(text);
  });
}
