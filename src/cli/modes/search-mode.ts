/**
 * `yarrow search`: a read-only searcher over an index built before. Options are parsed and
 * validated; the server arrives in a later issue.
 */
import type { ModeContext, ServerOptions } from './mode-context.js';
import { notAvailable } from './not-available.js';

/** Runs `search`. */
export function runSearch(options: ServerOptions, ctx: ModeContext): Promise<number> {
  return notAvailable('search', options, ctx);
}
