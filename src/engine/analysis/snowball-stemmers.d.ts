/**
 * Types for the untyped `snowball-stemmers` package, a CommonJS (UMD) port of the Snowball stemmers.
 * Node's CommonJS export detection finds its named exports, and named imports also survive being
 * compiled to CommonJS, where a default import of this `__esModule`-flagged module would not.
 */
declare module 'snowball-stemmers' {
  /** One stemmer instance; keeps state while stemming, which is safe on JavaScript's one thread. */
  export interface SnowballStemmer {
    /** Returns the stem of a lowercase word. */
    stem(word: string): string;
  }
  /** Creates a stemmer for an algorithm named by {@link algorithms}; throws if unknown. */
  export function newStemmer(algorithm: string): SnowballStemmer;
  /** Names of the available algorithms ('english', 'porter', 'french', ...). */
  export function algorithms(): string[];
}
