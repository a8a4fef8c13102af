/**
 * The modes that later issues build (`index kafka`, `api`/`index api`, `standalone`, `search`): their
 * options are parsed and validated and their config is loaded now, so scripts and configs written
 * today keep working; running them says so in one line.
 */
import { loadConfig } from '../../config/index.js';
import { NotAvailableError } from '../usage-error.js';
import type { CommonOptions, ModeContext } from './mode-context.js';

/** Validates the config (when given), then refuses to run `mode`. */
export async function notAvailable(mode: string, options: CommonOptions, ctx: ModeContext): Promise<number> {
  if (options.config !== undefined) await loadConfig(options.config, ctx.env);
  throw new NotAvailableError(`mode ${mode} is not available yet in this build (available: index file)`);
}
