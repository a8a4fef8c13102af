/**
 * The Porter2 (Snowball English) stemmer, written out by hand over a buffer of UTF-16 code units.
 *
 * It computes exactly what Snowball's `english.sbl` does, as the `snowball-stemmers` package runs it
 * (a differential test holds the two together), but without that port's generic machinery: every
 * step there reads characters through getters, searches its suffix tables through objects and
 * slices a new string per edit, which costs ~5 µs a word, the largest cost of indexing a corpus
 * with many distinct words (issue 17). Here a word costs one copy into a reused buffer, a few
 * comparisons per step and one string at the end.
 *
 * Steps and names follow the algorithm's description (snowballstem.org/algorithms/english):
 * R1 and R2 are the regions after the first and second non-vowel following a vowel.
 */

/** The word being stemmed: its code units in `[0, len)`. */
let buf = new Uint16Array(64);
let len = 0;
/** Start of R1 and R2, computed once on the prelude's output and not moved by later edits. */
let p1 = 0;
let p2 = 0;

const y = 0x79;
const capitalY = 0x59;

/** a, e, i, o, u, y: Snowball's `v` grouping (a capital Y, written by the prelude, is not a vowel). */
function isVowel(c: number): boolean {
  return c === 0x61 || c === 0x65 || c === 0x69 || c === 0x6f || c === 0x75 || c === y;
}

/** `v_WXY`: a vowel, w, x or a capital Y. */
function isVowelWXY(c: number): boolean {
  return isVowel(c) || c === 0x77 || c === 0x78 || c === capitalY;
}

/** `valid_LI`: the letters before which "li" is removed in step 2. */
function isValidLI(c: number): boolean {
  return c === 0x63 || c === 0x64 || c === 0x65 || c === 0x67 || c === 0x68 || c === 0x6b || c === 0x6d || c === 0x6e || c === 0x72 || c === 0x74;
}

/** Whether the word ends with `suffix`. */
function endsWith(suffix: string): boolean {
  const n = suffix.length;
  if (n > len) return false;
  const at = len - n;
  for (let i = n - 1; i >= 0; i--) if (buf[at + i] !== suffix.charCodeAt(i)) return false;
  return true;
}

/** A step's suffixes (sorted longest first) and, per ASCII code, the indexes of those ending in it. */
interface SuffixTable {
  readonly suffixes: readonly string[];
  readonly byLastChar: readonly (readonly number[])[];
}

function suffixTable(suffixes: readonly string[]): SuffixTable {
  const byLastChar: number[][] = Array.from({ length: 128 }, () => []);
  suffixes.forEach((suffix, i) => byLastChar[suffix.charCodeAt(suffix.length - 1)].push(i));
  return { suffixes, byLastChar };
}

/**
 * The index of the longest suffix of `table` that the word ends with, or -1. Only the suffixes
 * ending in the word's last letter are tried, in the table's (longest first) order, so the answer
 * is the scan of the whole table's.
 */
function longestSuffix(table: SuffixTable): number {
  if (len === 0) return -1;
  const last = buf[len - 1];
  if (last >= 128) return -1;
  const candidates = table.byLastChar[last];
  for (let k = 0; k < candidates.length; k++) {
    const i = candidates[k];
    if (endsWith(table.suffixes[i])) return i;
  }
  return -1;
}

/** Replaces the last `n` code units with `replacement`. */
function replaceEnd(n: number, replacement: string): void {
  len -= n;
  for (let i = 0; i < replacement.length; i++) buf[len++] = replacement.charCodeAt(i);
}

/** Whether a vowel occurs in `[0, end)`. */
function hasVowelBefore(end: number): boolean {
  for (let i = end - 1; i >= 0; i--) if (isVowel(buf[i])) return true;
  return false;
}

/**
 * Whether `[0, end)` ends in a short syllable: a non-vowel other than w, x, Y after a vowel after
 * a non-vowel, or a vowel that starts the word followed by a non-vowel.
 */
function endsShortSyllable(end: number): boolean {
  if (end >= 3 && !isVowelWXY(buf[end - 1]) && isVowel(buf[end - 2]) && !isVowel(buf[end - 3])) return true;
  return end === 2 && !isVowel(buf[1]) && isVowel(buf[0]);
}

/** The position after the first non-vowel that follows a vowel at or after `from`, or `len`. */
function regionAfter(from: number): number {
  let i = from;
  while (i < len && !isVowel(buf[i])) i++;
  if (i >= len) return len;
  i++;
  while (i < len && isVowel(buf[i])) i++;
  return i >= len ? len : i + 1;
}

/** Words stemmed to a fixed form, or kept, before any step runs. */
const exceptions1 = new Map<string, string>([
  ['skis', 'ski'], ['skies', 'sky'], ['dying', 'die'], ['lying', 'lie'], ['tying', 'tie'],
  ['idly', 'idl'], ['gently', 'gentl'], ['ugly', 'ugli'], ['early', 'earli'], ['only', 'onli'],
  ['singly', 'singl'],
  ['sky', 'sky'], ['news', 'news'], ['howe', 'howe'], ['atlas', 'atlas'], ['cosmos', 'cosmos'],
  ['bias', 'bias'], ['andes', 'andes'],
]);

/** Length of the longest word in {@link exceptions1}: longer words skip the lookup. */
const maxException1Length = Math.max(...[...exceptions1.keys()].map((w) => w.length));

/** Words left alone after step 1a. */
const exceptions2 = new Set(['inning', 'outing', 'canning', 'herring', 'earring', 'proceed', 'exceed', 'succeed']);

/** Prefixes whose end is R1, whatever follows. */
const r1Prefixes = ['commun', 'arsen', 'gener'];

const step1aSuffixes = suffixTable(['sses', 'ied', 'ies', 'ss', 'us', 's']);
const step1bSuffixes = suffixTable(['eedly', 'ingly', 'edly', 'eed', 'ing', 'ed']);
const step2Suffixes = suffixTable([
  'ational', 'ization', 'iveness', 'fulness', 'ousness', 'tional', 'biliti', 'lessli', 'fulli', 'ousli', 'entli', 'aliti',
  'iviti', 'alism', 'ation', 'anci', 'enci', 'abli', 'alli', 'izer', 'ator', 'bli', 'ogi', 'li',
]);
const step2Replacements = [
  'ate', 'ize', 'ive', 'ful', 'ous', 'tion', 'ble', 'less', 'ful', 'ous', 'ent', 'al',
  'ive', 'al', 'ate', 'ance', 'ence', 'able', 'al', 'ize', 'ate', 'ble', 'og', '',
];
const step3Suffixes = suffixTable(['ational', 'tional', 'alize', 'icate', 'iciti', 'ative', 'ical', 'ness', 'ful']);
const step3Replacements = ['ate', 'tion', 'al', 'ic', 'ic', '', 'ic', '', ''];
const step4Suffixes = suffixTable([
  'ement', 'ment', 'ance', 'ence', 'able', 'ible', 'ate', 'ive', 'ize', 'iti', 'ism', 'ion', 'ous', 'ant', 'ent', 'ic', 'al', 'er',
]);

/** Returns the Porter2 stem of `word`, a lowercase word (capital Y and other capitals are kept as letters). */
export function porter2(word: string): string {
  if (word.length <= maxException1Length) {
    const exception = exceptions1.get(word);
    if (exception !== undefined) return exception;
    if (word.length < 3) return word;
  }
  const yFound = prelude(load(word));
  p1 = len;
  p2 = len;
  const prefix = longestPrefix();
  p1 = prefix > 0 ? prefix : regionAfter(0);
  if (p1 < len) p2 = regionAfter(p1);
  step1a();
  if (!(len === 6 || len === 7) || !isException2()) {
    step1b();
    step1c();
    step2();
    step3();
    step4();
    step5();
  }
  if (yFound) for (let i = 0; i < len; i++) if (buf[i] === capitalY) buf[i] = y;
  return stemString(word);
}

/**
 * The stem in `buf[0, len)` as a string. Most stems are the word with its end cut off, which a
 * slice of the word gives without decoding the buffer.
 */
function stemString(word: string): string {
  const shift = word.length > 0 && word.charCodeAt(0) === 0x27 ? 1 : 0; // the prelude's dropped apostrophe
  let same = 0;
  while (same < len && buf[same] === word.charCodeAt(same + shift)) same++;
  if (same === len) return len === word.length ? word : word.slice(shift, shift + len);
  return String.fromCharCode.apply(null, buf.subarray(0, len) as unknown as number[]);
}

/** Copies `word` into the buffer; returns whether it has a "y" after its first letter. */
function load(word: string): boolean {
  if (word.length + 4 > buf.length) buf = new Uint16Array(word.length * 2 + 4);
  len = word.length;
  let laterY = false;
  for (let i = 0; i < len; i++) {
    const c = word.charCodeAt(i);
    buf[i] = c;
    if (c === y && i > 0) laterY = true;
  }
  return laterY;
}

/**
 * Drops a leading apostrophe and marks consonant y (initial, or after a vowel) as Y; returns whether
 * any was. `laterY`: whether a "y" follows the first letter (else only the first needs a look).
 */
function prelude(laterY: boolean): boolean {
  if (buf[0] === 0x27) {
    buf.copyWithin(0, 1, len);
    len--;
  }
  let found = false;
  if (len > 0 && buf[0] === y) {
    buf[0] = capitalY;
    found = true;
  }
  if (!laterY) return found;
  for (let i = 0; i + 1 < len; i++) {
    if (isVowel(buf[i]) && buf[i + 1] === y) {
      buf[i + 1] = capitalY;
      found = true;
    }
  }
  return found;
}

/** The length of the R1 prefix the word starts with, or 0. */
function longestPrefix(): number {
  outer: for (const prefix of r1Prefixes) {
    if (prefix.length > len) continue;
    for (let i = 0; i < prefix.length; i++) if (buf[i] !== prefix.charCodeAt(i)) continue outer;
    return prefix.length;
  }
  return 0;
}

function isException2(): boolean {
  // Every word of the set ends in "g" or "d": others need no string built.
  const last = buf[len - 1];
  if (last !== 0x67 && last !== 0x64) return false;
  let word = '';
  for (let i = 0; i < len; i++) word += String.fromCharCode(buf[i]);
  return exceptions2.has(word);
}

function step1a(): void {
  // Apostrophe endings: 's' (longest), 's, '.
  if (endsWith("'s'")) len -= 3;
  else if (endsWith("'s")) len -= 2;
  else if (len > 0 && buf[len - 1] === 0x27) len -= 1;
  switch (longestSuffix(step1aSuffixes)) {
    case 0: // sses -> ss
      len -= 2;
      break;
    case 1: // ied, ies -> i after two letters or more, else ie
    case 2:
      replaceEnd(3, len - 3 >= 2 ? 'i' : 'ie');
      break;
    case 5: // s: deleted when a vowel precedes the letter before it
      if (len >= 2 && hasVowelBefore(len - 2)) len -= 1;
      break;
    default: // ss, us: kept
      break;
  }
}

function step1b(): void {
  const i = longestSuffix(step1bSuffixes);
  if (i < 0) return;
  const start = len - step1bSuffixes.suffixes[i].length;
  if (i === 0 || i === 3) {
    // eed, eedly -> ee in R1
    if (start >= p1) replaceEnd(len - start, 'ee');
    return;
  }
  if (!hasVowelBefore(start)) return;
  len = start;
  if (endsWith('at') || endsWith('bl') || endsWith('iz')) {
    buf[len++] = 0x65;
  } else if (len >= 2 && buf[len - 1] === buf[len - 2] && isDoubleEnding(buf[len - 1])) {
    len--;
  } else if (len === p1 && endsShortSyllable(len)) {
    buf[len++] = 0x65;
  }
}

/** b, d, f, g, m, n, p, r, t: the doubles step 1b undoubles. */
function isDoubleEnding(c: number): boolean {
  return c === 0x62 || c === 0x64 || c === 0x66 || c === 0x67 || c === 0x6d || c === 0x6e || c === 0x70 || c === 0x72 || c === 0x74;
}

function step1c(): void {
  const last = buf[len - 1];
  if (len >= 3 && (last === y || last === capitalY) && !isVowel(buf[len - 2])) buf[len - 1] = 0x69;
}

function step2(): void {
  const i = longestSuffix(step2Suffixes);
  if (i < 0) return;
  const n = step2Suffixes.suffixes[i].length;
  if (len - n < p1) return;
  const suffix = step2Suffixes.suffixes[i];
  if (suffix === 'ogi') {
    if (len - n >= 1 && buf[len - n - 1] === 0x6c) replaceEnd(n, 'og');
  } else if (suffix === 'li') {
    if (len - n >= 1 && isValidLI(buf[len - n - 1])) len -= n;
  } else {
    replaceEnd(n, step2Replacements[i]);
  }
}

function step3(): void {
  const i = longestSuffix(step3Suffixes);
  if (i < 0) return;
  const n = step3Suffixes.suffixes[i].length;
  if (len - n < p1) return;
  if (step3Suffixes.suffixes[i] === 'ative' && len - n < p2) return;
  replaceEnd(n, step3Replacements[i]);
}

function step4(): void {
  const i = longestSuffix(step4Suffixes);
  if (i < 0) return;
  const n = step4Suffixes.suffixes[i].length;
  const start = len - n;
  if (start < p2) return;
  if (step4Suffixes.suffixes[i] === 'ion') {
    const before = start >= 1 ? buf[start - 1] : 0;
    if (before !== 0x73 && before !== 0x74) return;
  }
  len = start;
}

function step5(): void {
  if (len === 0) return;
  const last = buf[len - 1];
  const start = len - 1;
  if (last === 0x65) {
    if (start >= p2 || (start >= p1 && !endsShortSyllable(start))) len = start;
  } else if (last === 0x6c) {
    if (start >= p2 && start >= 1 && buf[start - 1] === 0x6c) len = start;
  }
}
