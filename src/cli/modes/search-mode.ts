/**
 * `yarrow search`: a read-only searcher over indexes that `index file`, `api` or `standalone` write
 * to the same local store. It takes no lock, follows new commits (watching each index directory,
 * polling as a fallback) and answers writes with 405.
 */
import { runServerMode } from './api-mode.js';
import type { ModeContext, ServerOptions } from './mode-context.js';

/** Runs `search`. */
export function runSearch(options: ServerOptions, ctx: ModeContext): Promise<number> {
  return runServerMode('search', options, ctx);
}
