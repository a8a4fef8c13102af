/**
 * `yarrow api` / `yarrow index api`: the push endpoints over HTTP (SPEC §4.2), no search. Options
 * are parsed and validated; the server arrives in a later issue.
 */
import type { ModeContext, ServerOptions } from './mode-context.js';
import { notAvailable } from './not-available.js';

/** Runs `api` (also reached as `index api`). */
export function runApi(options: ServerOptions, ctx: ModeContext): Promise<number> {
  return notAvailable('api', options, ctx);
}
