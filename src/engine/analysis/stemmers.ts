import { createRequire } from 'node:module';
import { newSnowballStemmer } from './snowball.js';

/**
 * Where a language's stemmer comes from. Both packages are outputs of the Snowball compiler:
 * `snowball-stemmers` covers 24 algorithms; `@orama/stemmers` adds Greek, Hindi, Indonesian,
 * Lithuanian and Serbian (Snowball 2.x) and light stemmers for Bulgarian and Ukrainian.
 */
export type StemmerSource =
  | { readonly package: 'snowball-stemmers'; readonly algorithm: string }
  | { readonly package: '@orama/stemmers'; readonly algorithm: string };

/** Returns the stem of one lowercase, normalised word. */
export type Stem = (word: string) => string;

// Synchronous, lazy loading of the CommonJS builds: see stop-words.ts.
const load = createRequire(import.meta.url);

/** Creates the stemmer named by `source`; throws if the package lacks the algorithm. */
export function loadStemmer(source: StemmerSource): Stem {
  if (source.package === 'snowball-stemmers') {
    const stemmer = newSnowballStemmer(source.algorithm);
    return (word) => stemmer.stem(word);
  }
  const module = load(`@orama/stemmers/${source.algorithm}`) as { stemmer: Stem };
  return module.stemmer;
}
