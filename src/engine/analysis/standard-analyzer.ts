import type { Analyzer, SpanSink, TokenSink } from './analyzer.js';
import { maxTokenLength, SpanFlags, spanTerm } from './analyzer.js';
import {
  apostropheClass,
  astralCharInfo,
  bmpCharTable,
  classMask,
  highSurrogateClass,
  lowerFlag,
  markClass,
  segmentedClass,
  wordClass,
} from './char-class.js';
import { segmentRun } from './script-segmenter.js';
import { FNV_OFFSET, FNV_PRIME, hashSpan } from './span-hash.js';

/**
 * Splits `text` into lowercase words and calls `sink` for each; the engine of the `standard` analyzer
 * and the first stage of the language analyzers.
 *
 * A token is a run of letters and numbers, with combining marks kept inside it and an apostrophe
 * kept between two word characters (U+2019 becomes U+0027 so "don’t" and "don't" match). Runs of
 * Han, Hiragana, Katakana or Thai go to a dictionary segmenter. Everything else separates tokens,
 * including emoji and punctuation. Tokens longer than {@link maxTokenLength} code units are dropped
 * but still take a position, like Lucene's skipped tokens.
 *
 * The scan is a char-code loop over a class table: no regex, and one `slice` per token. Each token
 * is reported with its source offsets. Returns the last emitted position + 1, or `startPosition` if
 * nothing was emitted.
 */
export function tokenizeStandard(text: string, sink: TokenSink, startPosition = 0): number {
  return scan(text, startPosition, sink, null, true);
}

/**
 * {@link tokenizeStandard} without lowercasing, for languages whose lowercasing differs from the
 * default Unicode mapping (Turkish dotted and dotless i): their filter lowercases each token.
 */
export function tokenizeStandardKeepCase(text: string, sink: TokenSink, startPosition = 0): number {
  return scan(text, startPosition, sink, null, false);
}

/**
 * The scan behind {@link tokenizeStandard}, reporting spans instead of strings: each token's
 * position, source offsets and {@link SpanFlags}. Tokens longer than {@link maxTokenLength} are
 * not reported but take a position. Returns the last reported position + 1, or `startPosition`.
 */
export function scanStandard(text: string, sink: SpanSink, startPosition = 0): number {
  return scan(text, startPosition, null, sink, true);
}

/**
 * One loop for both forms: with `tokenSink` it makes each token's string (lowercased if
 * `lowercase`), else it reports spans to `spanSink`. A branch per token, rather than a span sink
 * wrapped in a string-making closure, keeps the string form as fast as a loop of its own.
 */
function scan(text: string, startPosition: number, tokenSink: TokenSink | null, spanSink: SpanSink | null, lowercase: boolean): number {
  const table = bmpCharTable();
  const n = text.length;
  let position = startPosition;
  let next = startPosition;
  let i = 0;
  while (i < n) {
    const first = text.charCodeAt(i);
    let info = table[first];
    let width = 1;
    if ((info & classMask) === highSurrogateClass) {
      width = surrogatePairWidth(text, i);
      info = width === 2 ? astralCharInfo(text.codePointAt(i)!) : 0;
    }
    const cls = info & classMask;
    if (cls === wordClass) {
      const begin = i;
      let flags = (info & lowerFlag) === 0 ? 0 : first < 0x80 ? SpanFlags.upperAscii : SpanFlags.upperOther;
      // The span hash, folded as it is read (span-hash.ts); the low half of a pair is added below.
      let hash = Math.imul(FNV_OFFSET ^ (first >= 0x41 && first <= 0x5a ? first | 0x20 : first), FNV_PRIME);
      if (width === 2) hash = Math.imul(hash ^ text.charCodeAt(i + 1), FNV_PRIME);
      i += width;
      // Word body: word characters and marks, apostrophes only when a word character follows.
      while (i < n) {
        const code = text.charCodeAt(i);
        // Most word characters are a-z or 0-9: no table, no case, no pair to look at.
        if ((code - 0x61) >>> 0 < 26 || (code - 0x30) >>> 0 < 10) {
          hash = Math.imul(hash ^ code, FNV_PRIME);
          i++;
          continue;
        }
        let inner = table[code];
        let innerWidth = 1;
        if ((inner & classMask) === highSurrogateClass) {
          innerWidth = surrogatePairWidth(text, i);
          if (innerWidth === 1) break;
          inner = astralCharInfo(text.codePointAt(i)!);
        }
        const innerCls = inner & classMask;
        if (innerCls === wordClass || innerCls === markClass) {
          if ((inner & lowerFlag) !== 0) flags |= code < 0x80 ? SpanFlags.upperAscii : SpanFlags.upperOther;
          hash = Math.imul(hash ^ (code >= 0x41 && code <= 0x5a ? code | 0x20 : code), FNV_PRIME);
          if (innerWidth === 2) hash = Math.imul(hash ^ text.charCodeAt(i + 1), FNV_PRIME);
          i += innerWidth;
        } else if (innerCls === apostropheClass && startsWord(table, text, i + 1)) {
          if (code === 0x2019) flags |= SpanFlags.curlyApostrophe;
          hash = Math.imul(hash ^ code, FNV_PRIME);
          i += 1;
        } else {
          break;
        }
      }
      if (i - begin <= maxTokenLength) {
        if (tokenSink !== null) {
          tokenSink(spanTerm(text, begin, i, lowercase ? flags : flags & SpanFlags.curlyApostrophe), position, begin, i);
        } else {
          spanSink!(position, begin, i, flags, hash);
        }
        next = position + 1;
      }
      position++;
    } else if (cls === segmentedClass) {
      const begin = i;
      i += width;
      while (i < n) {
        let inner = table[text.charCodeAt(i)];
        let innerWidth = 1;
        if ((inner & classMask) === highSurrogateClass) {
          innerWidth = surrogatePairWidth(text, i);
          if (innerWidth === 1) break;
          inner = astralCharInfo(text.codePointAt(i)!);
        }
        const innerCls = inner & classMask;
        if (innerCls !== segmentedClass && innerCls !== markClass) break;
        i += innerWidth;
      }
      // Segmented runs are rare next to Latin words, so one cursor object per run is cheap.
      const cursor = { position, next };
      const runSink =
        tokenSink === null
          ? (p: number, s: number, e: number, f: number): void => { spanSink!(p, s, e, f, hashSpan(text, s, e)); }
          : (p: number, s: number, e: number): void => { tokenSink(text.slice(s, e), p, s, e); };
      segmentRun(text, begin, i, cursor, runSink);
      position = cursor.position;
      next = cursor.next;
    } else {
      i += width;
    }
  }
  return next;
}

/** 2 if a valid surrogate pair starts at `i` (which holds a high surrogate), else 1. */
function surrogatePairWidth(text: string, i: number): number {
  const low = text.charCodeAt(i + 1); // NaN past the end, which fails the test
  return low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
}

/** Whether the character at `i` may continue a word after an apostrophe. */
function startsWord(table: Uint8Array, text: string, i: number): boolean {
  if (i >= text.length) return false;
  let info = table[text.charCodeAt(i)];
  if ((info & classMask) === highSurrogateClass) {
    if (surrogatePairWidth(text, i) === 1) return false;
    info = astralCharInfo(text.codePointAt(i)!);
  }
  return (info & classMask) === wordClass;
}

/** Creates the `standard` analyzer: {@link tokenizeStandard} with no further filters. */
export function createStandardAnalyzer(): Analyzer {
  return {
    name: 'standard',
    analyze: (text, sink, startPosition = 0) => tokenizeStandard(text, sink, startPosition),
    scan: scanStandard,
  };
}
