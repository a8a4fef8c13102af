import {
  elision,
  normalizeArabic,
  normalizeGreek,
  normalizeRomanian,
  normalizeSerbian,
  normalizePersian,
  normalizeTurkish,
} from './language-normalizers.js';
import type { StemmerSource } from './stemmers.js';
import type { StopListSource } from './stop-words.js';

/**
 * One language analyzer as Nixiesearch 0.8 names it (`Language.scala`: a code and a name, both
 * accepted by `analyze:`), and what Yarrow builds for it: the standard tokenizer (which already
 * hands Han, Kana and Thai runs to `Intl.Segmenter`), an optional normalisation, a stop list and a
 * Snowball stemmer. Lucene's choices are followed where a maintained package has them; where it
 * does not (no JS Snowball stemmer for Estonian, Polish, Latvian, ...), the language still loads
 * with what is available, and docs/config.md says so.
 */
export interface LanguageSpec {
  /** Nixiesearch's code, e.g. `de`. */
  readonly code: string;
  /** Nixiesearch's name, e.g. `german`. */
  readonly name: string;
  /** Further accepted names: the ISO 639-1 codes where Nixiesearch's differ (`jp` -> `ja`). */
  readonly aliases?: readonly string[];
  readonly stemmer: StemmerSource | null;
  readonly stop: StopListSource | null;
  /** The Windows code page a mis-decoded stop list was saved in (see stop-words.ts). */
  readonly stopCodePage?: string;
  /** Per-token normalisation before stop words and stemming. */
  readonly normalize?: (token: string) => string;
  /** The tokenizer keeps case and `normalize` lowercases (Turkish). */
  readonly keepCase?: boolean;
}

const snowball = (algorithm: string): StemmerSource => ({ package: 'snowball-stemmers', algorithm });
const orama = (algorithm: string): StemmerSource => ({ package: '@orama/stemmers', algorithm });
const oramaStop = (list: string): StopListSource => ({ package: '@orama/stopwords', list });
const stopword = (list: string): StopListSource => ({ package: 'stopword', list });

/**
 * Every language of Nixiesearch 0.8 except `default` and `en`, which are Yarrow's `standard` and
 * `english` analyzers under Nixiesearch's names.
 */
export const languages: readonly LanguageSpec[] = [
  { code: 'ar', name: 'arabic', stemmer: snowball('arabic'), stop: oramaStop('arabic'), normalize: normalizeArabic },
  { code: 'bg', name: 'bulgarian', stemmer: orama('bulgarian'), stop: oramaStop('bulgarian') },
  { code: 'bn', name: 'bengali', stemmer: null, stop: stopword('ben') },
  { code: 'br', name: 'brazilian', stemmer: snowball('portuguese'), stop: oramaStop('portuguese') },
  { code: 'ca', name: 'catalan', stemmer: snowball('catalan'), stop: stopword('cat'), normalize: elision(['d', 'l', 'm', 'n', 's', 't']) },
  { code: 'zh', name: 'chinese', stemmer: null, stop: null },
  { code: 'ckb', name: 'sorani', stemmer: null, stop: stopword('kur'), normalize: normalizeArabic },
  { code: 'cz', name: 'czech', aliases: ['cs'], stemmer: snowball('czech'), stop: stopword('ces') },
  { code: 'da', name: 'danish', stemmer: snowball('danish'), stop: oramaStop('danish') },
  { code: 'de', name: 'german', stemmer: snowball('german'), stop: oramaStop('german') },
  { code: 'el', name: 'greek', stemmer: orama('greek'), stop: oramaStop('greek'), normalize: normalizeGreek },
  { code: 'es', name: 'spanish', stemmer: snowball('spanish'), stop: stopword('spa') },
  { code: 'et', name: 'estonian', stemmer: null, stop: stopword('est') },
  { code: 'eu', name: 'basque', stemmer: snowball('basque'), stop: stopword('eus') },
  { code: 'fa', name: 'persian', stemmer: null, stop: stopword('fas'), normalize: normalizePersian },
  { code: 'fi', name: 'finnish', stemmer: snowball('finnish'), stop: oramaStop('finnish') },
  {
    code: 'fr',
    name: 'french',
    stemmer: snowball('french'),
    stop: oramaStop('french'),
    normalize: elision(['l', 'm', 't', 'qu', 'n', 's', 'j', 'd', 'c', 'jusqu', 'quoiqu', 'lorsqu', 'puisqu']),
  },
  { code: 'ga', name: 'irish', stemmer: snowball('irish'), stop: oramaStop('irish'), normalize: elision(['d', 'm', 'b']) },
  { code: 'gl', name: 'galician', stemmer: null, stop: stopword('glg') },
  { code: 'hi', name: 'hindi', stemmer: orama('indian'), stop: stopword('hin') },
  { code: 'hu', name: 'hungarian', stemmer: snowball('hungarian'), stop: oramaStop('hungarian') },
  { code: 'hy', name: 'armenian', stemmer: snowball('armenian'), stop: oramaStop('armenian') },
  { code: 'id', name: 'indonesian', stemmer: orama('indonesian'), stop: oramaStop('indonesian') },
  {
    code: 'it',
    name: 'italian',
    stemmer: snowball('italian'),
    stop: oramaStop('italian'),
    normalize: elision(['c', 'l', 'all', 'dall', 'dell', 'nell', 'sull', 'coll', 'pell', 'gl', 'agl', 'dagl', 'degl', 'negl', 'sugl', 'un', 'm', 't', 's', 'v', 'd']),
  },
  { code: 'lt', name: 'lithuanian', stemmer: orama('lithuanian'), stop: stopword('lit'), stopCodePage: 'windows-1257' },
  { code: 'lv', name: 'latvian', stemmer: null, stop: stopword('lav') },
  { code: 'nl', name: 'dutch', stemmer: snowball('dutch'), stop: oramaStop('dutch') },
  { code: 'no', name: 'norwegian', aliases: ['nb'], stemmer: snowball('norwegian'), stop: oramaStop('norwegian') },
  { code: 'pt', name: 'portuguese', stemmer: snowball('portuguese'), stop: oramaStop('portuguese') },
  { code: 'ro', name: 'romanian', stemmer: snowball('romanian'), stop: oramaStop('romanian'), normalize: normalizeRomanian },
  { code: 'ru', name: 'russian', stemmer: snowball('russian'), stop: oramaStop('russian') },
  { code: 'sr', name: 'serbian', stemmer: orama('serbian'), stop: stopword('hrv'), normalize: normalizeSerbian },
  { code: 'sv', name: 'swedish', stemmer: snowball('swedish'), stop: oramaStop('swedish') },
  { code: 'th', name: 'thai', stemmer: null, stop: stopword('tha') },
  { code: 'tr', name: 'turkish', stemmer: snowball('turkish'), stop: stopword('tur'), stopCodePage: 'windows-1254', normalize: normalizeTurkish, keepCase: true },
  { code: 'jp', name: 'japanese', aliases: ['ja'], stemmer: null, stop: null },
  { code: 'pl', name: 'polish', stemmer: null, stop: stopword('pol') },
  { code: 'kr', name: 'korean', aliases: ['ko'], stemmer: null, stop: null },
  { code: 'ta', name: 'tamil', stemmer: snowball('tamil'), stop: oramaStop('tamil') },
  { code: 'ua', name: 'ukrainian', aliases: ['uk'], stemmer: orama('ukrainian'), stop: stopword('ukr') },
];
