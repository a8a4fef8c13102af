/**
 * `yarrow standalone`: searcher and indexer in one process (push and search endpoints; `GET /` is a
 * placeholder page until the web UI arrives).
 */
import { runServerMode } from './api-mode.js';
import type { ModeContext, ServerOptions } from './mode-context.js';

/** Runs `standalone`. */
export function runStandalone(options: ServerOptions, ctx: ModeContext): Promise<number> {
  return runServerMode('standalone', options, ctx);
}
