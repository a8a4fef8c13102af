/**
 * Language-specific token normalisation that Lucene's analyzers apply before stop words and
 * stemming, where it changes which words match: Arabic and Persian letter variants and diacritics,
 * Greek accents and final sigma, Turkish dotted and dotless i and suffixes after an apostrophe, and
 * the elided articles of French, Italian, Catalan and Irish. Each function maps one token (already
 * lowercased unless stated) to its normalised form and returns the input itself when nothing
 * changes, so the common case allocates nothing.
 */

/**
 * Lucene's ArabicNormalizer plus its decimal-digit folding: removes tatweel and the harakat
 * (U+064B..U+0652), folds the hamza and madda forms of alef to bare alef, alef maksura to yeh,
 * teh marbuta to heh, and Arabic-Indic digits to ASCII digits.
 */
export function normalizeArabic(token: string): string {
  return foldChars(token, arabicFold);
}

/**
 * Lucene's PersianNormalizer on top of {@link normalizeArabic}: Farsi yeh to yeh, keheh to kaf,
 * heh-yeh and heh-goal to heh, and the hamza above (U+0654) removed.
 */
export function normalizePersian(token: string): string {
  return foldChars(token, persianFold);
}

/** Maps each code unit of `token` through `fold` (-1 deletes it); returns `token` itself if none changes. */
function foldChars(token: string, fold: (c: number) => number): string {
  let out: string | undefined;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    const mapped = fold(c);
    if (mapped === c && out === undefined) continue;
    out ??= token.slice(0, i);
    if (mapped >= 0) out += String.fromCharCode(mapped);
  }
  return out ?? token;
}

/** The replacement code unit for `c`, or -1 to delete it. */
function arabicFold(c: number): number {
  if (c < 0x0622 || c > 0x06f9) return c;
  if (c === 0x0640 || (c >= 0x064b && c <= 0x0652)) return -1; // tatweel, harakat
  if (c === 0x0622 || c === 0x0623 || c === 0x0625) return 0x0627; // alef with madda or hamza -> alef
  if (c === 0x0649) return 0x064a; // alef maksura -> yeh
  if (c === 0x0629) return 0x0647; // teh marbuta -> heh
  if (c >= 0x0660 && c <= 0x0669) return c - 0x0660 + 0x30; // Arabic-Indic digits
  if (c >= 0x06f0 && c <= 0x06f9) return c - 0x06f0 + 0x30; // Extended Arabic-Indic digits
  return c;
}

function persianFold(c: number): number {
  if (c === 0x06cc) return 0x064a; // Farsi yeh -> yeh
  if (c === 0x06a9) return 0x0643; // keheh -> kaf
  if (c === 0x06c0 || c === 0x06c1) return 0x0647; // heh with yeh, heh goal -> heh
  if (c === 0x0654) return -1; // hamza above
  return arabicFold(c);
}

/** Greek accented vowels and final sigma, lowercase, to their plain forms (Lucene's GreekLowerCaseFilter). */
const greekFold: Readonly<Record<string, string>> = {
  ά: 'α', έ: 'ε', ή: 'η', ί: 'ι', ϊ: 'ι', ΐ: 'ι', ό: 'ο', ύ: 'υ', ϋ: 'υ', ΰ: 'υ', ώ: 'ω', ς: 'σ',
};
const greekFoldRe = /[άέήίϊΐόύϋΰώς]/g;

/** Removes Greek tonos and dialytika and writes final sigma as σ, as Lucene does before its Greek stop list. */
export function normalizeGreek(token: string): string {
  greekFoldRe.lastIndex = 0;
  if (!greekFoldRe.test(token)) return token;
  return token.replace(greekFoldRe, (ch) => greekFold[ch]);
}

/**
 * Turkish filters on a token that still has its case: Lucene's ApostropheFilter drops the suffix
 * after an apostrophe ("Türkiye'de" -> "Türkiye"), then TurkishLowerCaseFilter maps I to dotless ı
 * and İ to i, which the default Unicode lowercasing gets wrong for Turkish.
 */
export function normalizeTurkish(token: string): string {
  const apostrophe = token.indexOf("'");
  const word = apostrophe > 0 ? token.slice(0, apostrophe) : token;
  return word.toLocaleLowerCase('tr');
}

/**
 * Romanian s and t with comma below (the correct letters, U+0219 and U+021B) written as the older
 * cedilla forms ş and ţ, the only ones the Snowball Romanian stemmer and the stop list know, so
 * that text typed either way matches.
 */
export function normalizeRomanian(token: string): string {
  if (!/[\u0219\u021b]/.test(token)) return token;
  return token.replaceAll('\u0219', '\u015f').replaceAll('\u021b', '\u0163');
}

const serbianLatin: Readonly<Record<string, string>> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', ђ: 'đ', е: 'e', ж: 'ž', з: 'z', и: 'i', ј: 'j', к: 'k', л: 'l',
  љ: 'lj', м: 'm', н: 'n', њ: 'nj', о: 'o', п: 'p', р: 'r', с: 's', т: 't', ћ: 'ć', у: 'u', ф: 'f', х: 'h',
  ц: 'c', ч: 'č', џ: 'dž', ш: 'š',
};
const serbianCyrillicRe = /[абвгдђежзијклљмнњопрстћуфхцчџш]/g;

/**
 * Serbian is written in Cyrillic and in Latin letters; a lowercase Cyrillic token is transliterated
 * to Latin (the standard one-to-one mapping), so both scripts meet the Latin stop list and the
 * Snowball Serbian stemmer on one term.
 */
export function normalizeSerbian(token: string): string {
  serbianCyrillicRe.lastIndex = 0;
  if (!serbianCyrillicRe.test(token)) return token;
  return token.replace(serbianCyrillicRe, (ch) => serbianLatin[ch]);
}

/**
 * Returns a function that removes an elided article: when the part of a token before its first
 * apostrophe is in `articles` ("l'homme", "dell'arte", "d'fhéadfadh"), the rest of the token is
 * the word. Lucene's ElisionFilter, with each language's article set.
 */
export function elision(articles: readonly string[]): (token: string) => string {
  const set = new Set(articles);
  return (token) => {
    const apostrophe = token.indexOf("'");
    if (apostrophe <= 0 || apostrophe === token.length - 1) return token;
    return set.has(token.slice(0, apostrophe)) ? token.slice(apostrophe + 1) : token;
  };
}
