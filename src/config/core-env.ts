/**
 * Environment overrides of the server settings, as Nixiesearch reads them (`NIXIESEARCH_CORE_HOST`,
 * `_PORT`, `_LOGLEVEL`, `_CACHE_DIR`; `Config.scala`, `CacheConfig.scala`) and under Yarrow's own
 * prefix (`YARROW_CORE_*`, which wins over `NIXIESEARCH_CORE_*`). They override the file's `core`
 * section in both shapes; command-line flags override them in turn (the modes apply that).
 */
import type { CoreConfig } from './config-model.js';
import { CORE_LOG_LEVELS } from './config-model.js';

/** A problem with one variable, for the config error. */
export interface EnvProblem {
  readonly variable: string;
  readonly reason: string;
}

const prefixes = ['YARROW_CORE_', 'NIXIESEARCH_CORE_'] as const;

/** `core` with the environment's overrides applied; problems name the variable. */
export function applyCoreEnv(core: CoreConfig, env: Readonly<Record<string, string | undefined>>): { core: CoreConfig; problems: EnvProblem[] } {
  const problems: EnvProblem[] = [];
  const read = (suffix: string): { variable: string; value: string } | undefined => {
    for (const prefix of prefixes) {
      const value = env[prefix + suffix];
      if (value !== undefined && value !== '') return { variable: prefix + suffix, value };
    }
    return undefined;
  };
  const out: { -readonly [K in keyof CoreConfig]: CoreConfig[K] } = { ...core };
  const host = read('HOST');
  if (host !== undefined) out.host = host.value;
  const port = read('PORT');
  if (port !== undefined) {
    const n = Number(port.value);
    if (/^\d+$/.test(port.value) && n >= 1 && n <= 65535) out.port = n;
    else problems.push({ variable: port.variable, reason: `expected a port number from 1 to 65535 but got ${JSON.stringify(port.value)}` });
  }
  const level = read('LOGLEVEL');
  if (level !== undefined) {
    const value = level.value.toLowerCase();
    if ((CORE_LOG_LEVELS as readonly string[]).includes(value)) out.loglevel = value as (typeof CORE_LOG_LEVELS)[number];
    else problems.push({ variable: level.variable, reason: `expected one of ${CORE_LOG_LEVELS.join(', ')} but got ${JSON.stringify(level.value)}` });
  }
  const cache = read('CACHE_DIR');
  if (cache !== undefined) out.cacheDir = cache.value;
  return { core: out, problems };
}
