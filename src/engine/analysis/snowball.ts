import { createRequire } from 'node:module';
import type { SnowballStemmer } from 'snowball-stemmers';

// `require`, not `import`: the package is one 870 KB CommonJS file, and an ES import runs Node's
// CommonJS export detection over all of it first (about 150 ms of every process that stems, the
// largest single cost of `yarrow search`'s start-up, issue 17); a require only compiles it, and
// only when a stemmer is first needed.
const load = createRequire(import.meta.url);

/** A Snowball stemmer of the `snowball-stemmers` package ('english', 'porter', 'french', ...); throws if unknown. */
export function newSnowballStemmer(algorithm: string): SnowballStemmer {
  const { newStemmer } = load('snowball-stemmers') as typeof import('snowball-stemmers');
  return newStemmer(algorithm);
}
