/**
 * `YARROW_VECTOR_CACHE_MB`: the byte budget of the process's vector block cache (the pages of
 * vectors and HNSW graph files a search reads by position; default 256 MB). The engine is loaded
 * only when the variable is set, so start-up without it pays nothing.
 */
import { UsageError } from './usage-error.js';

/** Applies the variable, if set; a value that is not a positive number is a usage error. */
export async function applyVectorCacheEnv(env: NodeJS.ProcessEnv): Promise<void> {
  const text = env.YARROW_VECTOR_CACHE_MB;
  if (text === undefined || text === '') return;
  const mb = Number(text);
  if (!Number.isFinite(mb) || mb < 1) throw new UsageError(`YARROW_VECTOR_CACHE_MB: expected a number of megabytes >= 1, got '${text}'`);
  const { configureVectorCache } = await import('../engine/index.js');
  configureVectorCache({ budgetBytes: Math.floor(mb * 2 ** 20) });
}
