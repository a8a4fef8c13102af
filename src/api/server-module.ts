/**
 * A part of the service that lives outside src/api and is mounted into the server by the command
 * line (today the sample plant store at `/plants`). The API layer knows only this interface, so the
 * dependency runs one way: a module may use src/api, src/api never imports a module.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../engine/index.js';
import type { BearerAuth } from './bearer-auth.js';

/** What the server gives a module when mounting it. */
export interface ModuleHost {
  readonly log: Logger;
  /** The server's body limit, in bytes. */
  readonly bodyLimit: number;
  /** The server's bearer tokens (config `api.auth`); a module decides how to apply them. */
  readonly auth: BearerAuth;
}

/** A mountable part of the service. */
export interface ServerModule {
  /** Path prefix the module serves, e.g. `/plants`; the module authenticates its own requests. */
  readonly prefix: string;
  /** Registers the module's routes (encapsulated under {@link ServerModule.prefix}). */
  register(app: FastifyInstance, host: ModuleHost): void;
  /** The service's OpenAPI document with the module's paths merged in, as JSON text. */
  openApi?(service: Record<string, unknown>): string;
  /** Releases what the module holds; the server calls it once, at shutdown. */
  close(): Promise<void>;
}
