import type { Analyzer, TokenSink } from './analyzer.js';
import { maxTokenLength } from './analyzer.js';
import { bmpCharTable, classMask, highSurrogateClass, lowerFlag, spaceFlag } from './char-class.js';

/**
 * Creates the `whitespace` analyzer: tokens are the runs between Unicode White_Space characters,
 * punctuation included ("c++", "e-mail"), lowercased. Tokens longer than {@link maxTokenLength} are
 * dropped but keep their position.
 */
export function createWhitespaceAnalyzer(): Analyzer {
  return {
    name: 'whitespace',
    analyze(text: string, sink: TokenSink, startPosition = 0): number {
      const table = bmpCharTable();
      const n = text.length;
      let position = startPosition;
      let next = startPosition;
      let i = 0;
      while (i < n) {
        if ((table[text.charCodeAt(i)] & spaceFlag) !== 0) {
          i++;
          continue;
        }
        const begin = i;
        let lower = false;
        for (; i < n; i++) {
          const info = table[text.charCodeAt(i)];
          if ((info & spaceFlag) !== 0) break;
          // Astral letters are not in the table; let toLowerCase decide for them.
          if ((info & lowerFlag) !== 0 || (info & classMask) === highSurrogateClass) lower = true;
        }
        if (i - begin <= maxTokenLength) {
          const term = text.slice(begin, i);
          sink(lower ? term.toLowerCase() : term, position, begin, i);
          next = position + 1;
        }
        position++;
      }
      return next;
    },
  };
}
