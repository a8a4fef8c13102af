/**
 * Character classes for the tokenizers, looked up per UTF-16 code unit instead of running a regex per
 * token: one byte per BMP code unit, built once from Unicode property regexes, plus a memo for the
 * rare astral code points. Byte layout: bits 0-2 hold the class, bit 3 {@link lowerFlag}, bit 4
 * {@link spaceFlag}.
 */
import { precomputedBmpTable } from './bmp-table-precomputed.js';

/** Splits tokens. */
export const separatorClass = 0;
/** A letter or number outside the segmented scripts; starts or continues a word. */
export const wordClass = 1;
/** A combining mark (or ZWJ/ZWNJ): continues a word or segmented run, never starts one. */
export const markClass = 2;
/** A letter, number or mark of Han, Hiragana, Katakana or Thai, which need dictionary segmentation. */
export const segmentedClass = 3;
/** U+0027 or U+2019: joins two words into one token ("don't"). */
export const apostropheClass = 4;
/** A high surrogate: the class is that of the whole code point, see {@link astralCharInfo}. */
export const highSurrogateClass = 5;
/** Mask selecting the class bits of a table entry. */
export const classMask = 7;
/** Set when `toLowerCase()` changes the character. */
export const lowerFlag = 8;
/** Set for Unicode White_Space characters. */
export const spaceFlag = 16;

let bmpTable: Uint8Array | undefined;

/**
 * Returns the class byte of every BMP code unit. Made on first use so that processes that never
 * analyze text do not pay for it: decoded from the precomputed runs when they were built under this
 * engine's Unicode version (under 1 ms), else built (10-30 ms).
 */
export function bmpCharTable(): Uint8Array {
  bmpTable ??= precomputedBmpTable() ?? buildBmpTable();
  return bmpTable;
}

/** Builds the table {@link bmpCharTable} returns from Unicode property regexes (scripts/bmp-table-runs.ts precomputes it). */
export function buildBmpTable(): Uint8Array {
  // One string holding every BMP character lets each property regex find whole runs at once, which
  // is several times faster than testing 65,536 one-character strings. Surrogates become spaces so
  // that U+DBFF followed by U+DC00 does not read as a pair.
  const units = new Uint16Array(0x10000);
  for (let c = 0; c < 0x10000; c++) units[c] = c >= 0xd800 && c <= 0xdfff ? 0x20 : c;
  const all = new TextDecoder('utf-16le').decode(units);
  const table = new Uint8Array(0x10000);
  // The property regexes are made here and in astralRegexes(), not at load: V8 builds their
  // character sets from ICU as it creates them, ~0.7-1.5 ms of every process start that loads the
  // analyzers (issue 17, `yarrow search`), which the precomputed table makes unneeded.
  const wordRe = /[\p{L}\p{N}]+/gu;
  const markRe = /\p{M}+/gu;
  const segmentedRe = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}]+/gu;
  const lowerRe = /\p{Changes_When_Lowercased}+/gu;
  const spaceRe = /\p{White_Space}+/gu;
  // Per run of matches, not per character: a fill, or one tight loop, instead of a callback per
  // code unit (the table is built before a process's first search answers; issue 17).
  forEachRun(all, wordRe, (start, end) => table.fill(wordClass, start, end));
  forEachRun(all, markRe, (start, end) => table.fill(markClass, start, end));
  forEachRun(all, segmentedRe, (start, end) => {
    // Script extensions also cover CJK punctuation, which stays a separator.
    for (let c = start; c < end; c++) if (table[c] !== separatorClass) table[c] = segmentedClass;
  });
  table[0x200c] = markClass; // ZWNJ and ZWJ keep Persian and Indic words whole.
  table[0x200d] = markClass;
  // Variation selectors belong to the preceding emoji or ideograph, never to a word.
  table.fill(separatorClass, 0xfe00, 0xfe10);
  table[0x27] = apostropheClass;
  table[0x2019] = apostropheClass;
  forEachRun(all, lowerRe, (start, end) => { for (let c = start; c < end; c++) table[c] |= lowerFlag; });
  forEachRun(all, spaceRe, (start, end) => { for (let c = start; c < end; c++) table[c] |= spaceFlag; });
  // Last, so that the spaces standing in for surrogates above leave no flags behind.
  table.fill(highSurrogateClass, 0xd800, 0xdc00);
  table.fill(separatorClass, 0xdc00, 0xe000);
  return table;
}

/** Calls `run(start, end)` for each match of the global regex `re` in `text` (code unit offsets). */
function forEachRun(text: string, re: RegExp, run: (start: number, end: number) => void): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) run(m.index, m.index + m[0].length);
}

const astralMemo = new Map<number, number>();

/** The regexes that classify an astral code point, made on the first one (see buildBmpTable). */
let astralRes: { readonly word: RegExp; readonly mark: RegExp; readonly segmented: RegExp; readonly lower: RegExp } | undefined;

function astralRegexes(): NonNullable<typeof astralRes> {
  astralRes ??= {
    word: /^[\p{L}\p{N}]$/u,
    mark: /^\p{M}$/u,
    segmented: /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}]$/u,
    lower: /^\p{Changes_When_Lowercased}$/u,
  };
  return astralRes;
}

/**
 * Returns the class byte (same layout as {@link bmpCharTable}) of a code point above U+FFFF.
 * Memoised: astral text is rare and uses few distinct code points.
 */
export function astralCharInfo(codePoint: number): number {
  let info = astralMemo.get(codePoint);
  if (info === undefined) {
    info = classifyAstral(codePoint);
    astralMemo.set(codePoint, info);
  }
  return info;
}

function classifyAstral(codePoint: number): number {
  const ch = String.fromCodePoint(codePoint);
  let info = separatorClass;
  if (codePoint >= 0xe0100 && codePoint <= 0xe01ef) return separatorClass; // variation selectors
  const re = astralRegexes();
  if (re.word.test(ch)) info = wordClass;
  else if (re.mark.test(ch)) info = markClass;
  if (info !== separatorClass && re.segmented.test(ch)) info = segmentedClass;
  if (re.lower.test(ch)) info |= lowerFlag;
  return info;
}

/** {@link asciiByteClasses}: a byte that separates tokens (any ASCII character but the ones below). */
export const byteSeparator = 0;
/** {@link asciiByteClasses}: a-z or 0-9, a word character that lowercasing keeps. */
export const byteWord = 1;
/** {@link asciiByteClasses}: A-Z, a word character that lowercasing changes. */
export const byteUpper = 2;
/** {@link asciiByteClasses}: `'`, kept inside a token between two word characters. */
export const byteApostrophe = 3;
/** {@link asciiByteClasses}: `\`, which in a JSON string opens a two-byte escape. */
export const byteEscape = 4;

/**
 * The standard tokenizer's classes of the 128 ASCII characters (the same as {@link bmpCharTable}
 * gives them: the only ASCII word characters are letters and digits, the only apostrophe U+0027),
 * plus the JSON escape byte, for a scan over the UTF-8 bytes of a JSON string value that is ASCII.
 * Bytes 128-255 read as separators; the scan is only run on ASCII.
 */
export const asciiByteClasses: Uint8Array = (() => {
  const table = new Uint8Array(256);
  for (let c = 0x61; c <= 0x7a; c++) table[c] = byteWord;
  for (let c = 0x30; c <= 0x39; c++) table[c] = byteWord;
  for (let c = 0x41; c <= 0x5a; c++) table[c] = byteUpper;
  table[0x27] = byteApostrophe;
  table[0x5c] = byteEscape;
  return table;
})();
