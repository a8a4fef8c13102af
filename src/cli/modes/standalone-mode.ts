/**
 * `yarrow standalone`: searcher and indexer in one process, with the web UI. Options are parsed
 * and validated; the server arrives in a later issue.
 */
import type { ModeContext, ServerOptions } from './mode-context.js';
import { notAvailable } from './not-available.js';

/** Runs `standalone`. */
export function runStandalone(options: ServerOptions, ctx: ModeContext): Promise<number> {
  return notAvailable('standalone', options, ctx);
}
