/**
 * fastify's schema compilers, loaded on first use. fastify requires ajv (with ajv-formats) and
 * fast-json-stringify when an instance is built, whether or not a route declares a schema: about
 * 450 modules and a third of `yarrow search`'s start-up (issue 17). No route of this server
 * declares a fastify schema (requests are checked by hand, with error bodies naming line and
 * field), so these factories only load the real compilers if one ever does.
 */
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type ValidatorFactory = NonNullable<CompilersFactory['buildValidator']>;
type SerializerFactory = NonNullable<CompilersFactory['buildSerializer']>;

// fastify's own dependencies, resolved from fastify (they are not this package's), and only when
// first needed: resolving fastify reads package.json files, which a start need not do.
let requireFromFastify: NodeJS.Require | undefined;
function require(id: string): unknown {
  requireFromFastify ??= createRequire(createRequire(import.meta.url).resolve('fastify'));
  return requireFromFastify(id);
}

/**
 * The `schemaController.compilersFactory` option: fastify's defaults, required when fastify first
 * asks for a compiler (each factory is created once and keeps its own cache, as fastify's are).
 */
export function lazySchemaCompilers(): CompilersFactory {
  return {
    buildValidator: lazyFactory('@fastify/ajv-compiler') as ValidatorFactory,
    buildSerializer: lazyFactory('@fastify/fast-json-stringify-compiler') as SerializerFactory,
  };
}

/** A factory that requires the module `id` (which exports a factory maker) on its first call. */
function lazyFactory(id: string): (...args: unknown[]) => unknown {
  let factory: ((...args: unknown[]) => unknown) | undefined;
  const lazy = (...args: unknown[]): unknown => {
    factory ??= (require(id) as () => (...args: unknown[]) => unknown)();
    return factory(...args);
  };
  return lazy;
}
