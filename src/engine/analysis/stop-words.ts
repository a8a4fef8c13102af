import { createRequire } from 'node:module';

/**
 * Per-language stop lists, taken from two maintained npm packages and loaded on first use (a
 * process that never analyzes Hungarian never parses its list):
 * - `@orama/stopwords` ships the Snowball project's lists, which are the ones Lucene's analyzers
 *   use for most European languages, and Lucene's own lists for several others;
 * - `stopword` ships lists (Lucene's among them) for languages Orama lacks.
 * Which list each language takes is in `languages.ts` and docs/config.md.
 */
export type StopListSource =
  | { readonly package: '@orama/stopwords'; readonly list: string }
  | { readonly package: 'stopword'; readonly list: string };

// Synchronous, lazy loading of CommonJS builds: analyzers are created on first use, inside
// synchronous mapping and query code, and most processes need one language or none.
const load = createRequire(import.meta.url);

/**
 * Some lists were once saved in a Windows code page and read back as Latin-1 (Lithuanian "abiejø"
 * for "abiejų", Turkish "altmýþ" for "altmış"). A word made only of Latin-1 characters with at
 * least one above ASCII is decoded again from the language's code page when it names one; words
 * already correct in Latin-1 under that code page (Turkish ç, ö, ü) come back unchanged.
 */
function repairCodePage(word: string, codePage: string | undefined): string {
  if (codePage === undefined) return word;
  let high = false;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c > 0xff) return word;
    if (c > 0x7f) high = true;
  }
  if (!high) return word;
  return new TextDecoder(codePage).decode(Uint8Array.from(word, (ch) => ch.charCodeAt(0)));
}

/**
 * Loads a stop list and returns it as a set of filtered words: each entry is passed through
 * `prepare` (the language's lowercasing and normalisation, so entries meet tokens in the same
 * form), after an optional code-page repair; empty entries are dropped.
 */
export function loadStopWords(
  source: StopListSource,
  prepare: (word: string) => string,
  codePage?: string,
): ReadonlySet<string> {
  let words: readonly string[];
  if (source.package === '@orama/stopwords') {
    words = (load(`@orama/stopwords/${source.list}`) as { stopwords: readonly string[] }).stopwords;
  } else {
    const lists = load('stopword') as Record<string, unknown>;
    const list = lists[source.list];
    if (!Array.isArray(list)) throw new Error(`stopword has no list "${source.list}"`);
    words = list as string[];
  }
  const set = new Set<string>();
  for (const raw of words) {
    const word = prepare(repairCodePage(raw.trim(), codePage));
    if (word.length > 0) set.add(word);
  }
  return set;
}
