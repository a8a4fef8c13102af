import { maxTokenLength } from './analyzer.js';

/**
 * Longest slice handed to `Intl.Segmenter` at once. Node 20's segmenter is quadratic in the input
 * length, so long runs are cut; a word straddling a cut is split in two, which costs a little recall
 * on pathological unpunctuated text only.
 */
const maxChunk = 1000;

let segmenter: Intl.Segmenter | undefined;

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
  segmenter ??= new Intl.Segmenter('und', { granularity: 'word' });
  for (let chunkBegin = begin; chunkBegin < end; ) {
    let chunkEnd = Math.min(end, chunkBegin + maxChunk);
    const last = text.charCodeAt(chunkEnd - 1);
    if (chunkEnd < end && last >= 0xd800 && last <= 0xdbff) chunkEnd--; // keep pairs whole
    for (const part of segmenter.segment(text.slice(chunkBegin, chunkEnd))) {
      if (part.isWordLike !== true) continue;
      if (part.segment.length <= maxTokenLength) {
        const start = chunkBegin + part.index;
        sink(cursor.position, start, start + part.segment.length, 0);
        cursor.next = cursor.position + 1;
      }
      cursor.position++;
    }
    chunkBegin = chunkEnd;
  }
}
