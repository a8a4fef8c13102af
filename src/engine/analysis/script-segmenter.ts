import { maxTokenLength } from './analyzer.js';

/**
 * Longest slice handed to `Intl.Segmenter` at once. Node 20's segmenter is quadratic in the input
 * length, so long runs are cut; a word straddling a cut is split in two, which costs a little recall
 * on pathological unpunctuated text only.
 */
const maxChunk = 1000;

let segmenter: Intl.Segmenter | undefined;

/**
 * Word-like segments of chunks already segmented, by chunk text: pairs of (index, length). One call
 * of the segmenter costs ~20 µs however short the chunk (it clones an ICU break iterator and
 * allocates an object per segment), and short runs repeat across documents (~30% of the runs of
 * the npm corpus). The segmentation depends only on the chunk's text, so a hit is exact.
 */
let memo = new Map<string, Int32Array>();
let memoChars = 0;
/** Bound on the characters of the memoised chunks; when reached, the memo starts over. */
const memoCharLimit = 1 << 18;

/** Where a tokenizer stands: the next position to assign, and last emitted position + 1. */
export interface PositionCursor {
  position: number;
  next: number;
}

/**
 * Emits the words of `text[begin, end)` as spans (flags 0: no case to fold), a run of Han,
 * Hiragana, Katakana or Thai characters (which have no case and no spaces), with positions from `cursor.position` and offsets in `text`, and
 * advances the cursor. A
 * single character needs no dictionary and skips the segmenter, which is slow to call.
 */
export function segmentRun(
  text: string,
  begin: number,
  end: number,
  cursor: PositionCursor,
  sink: (position: number, start: number, end: number, flags: number) => void,
): void {
  const length = end - begin;
  if (length === 1 || (length === 2 && text.codePointAt(begin)! > 0xffff)) {
    sink(cursor.position, begin, end, 0);
    cursor.next = ++cursor.position;
    return;
  }
  for (let chunkBegin = begin; chunkBegin < end; ) {
    let chunkEnd = Math.min(end, chunkBegin + maxChunk);
    const last = text.charCodeAt(chunkEnd - 1);
    if (chunkEnd < end && last >= 0xd800 && last <= 0xdbff) chunkEnd--; // keep pairs whole
    const words = wordsOf(text.slice(chunkBegin, chunkEnd));
    for (let k = 0; k < words.length; k += 2) {
      if (words[k + 1] <= maxTokenLength) {
        const start = chunkBegin + words[k];
        sink(cursor.position, start, start + words[k + 1], 0);
        cursor.next = cursor.position + 1;
      }
      cursor.position++;
    }
    chunkBegin = chunkEnd;
  }
}

/** The word-like segments of `chunk` as (index, length) pairs, memoised. */
function wordsOf(chunk: string): Int32Array {
  let words = memo.get(chunk);
  if (words !== undefined) return words;
  segmenter ??= new Intl.Segmenter('und', { granularity: 'word' });
  const found: number[] = [];
  for (const part of segmenter.segment(chunk)) if (part.isWordLike === true) found.push(part.index, part.segment.length);
  words = Int32Array.from(found);
  if (memoChars + chunk.length > memoCharLimit) {
    memo = new Map();
    memoChars = 0;
  }
  memo.set(chunk, words);
  memoChars += chunk.length;
  return words;
}
