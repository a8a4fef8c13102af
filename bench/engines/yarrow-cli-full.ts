/**
 * `yarrow index file` with the full bench mapping (MAPPINGS: the searched fields plus the fields a
 * user would filter, sort or facet on), reported on its own row beside the like-for-like
 * `yarrow-cli`, so the cost of those fields stays measurable. Opt-in: `--engines yarrow-cli-full`.
 */
import type { CreateEngine } from './bench-engine.js';
import { cliEngine } from './yarrow-cli.js';
import { MAPPINGS } from './yarrow.js';

/** The CLI engine under the full mapping. */
export const createEngine: CreateEngine = cliEngine('yarrow-cli-full', MAPPINGS);
