/**
 * Reads the server's highlight fragments without trusting them as HTML: the server escapes the
 * stored text and wraps matched words in the marks the page asked for (private-use characters),
 * so the page decodes the entities and splits on the marks, and renders plain text and `<mark>`
 * elements — never innerHTML.
 */
import { HIGHLIGHT_POST, HIGHLIGHT_PRE } from './search-request.js';

/** A run of text, marked when it is a matched word. */
export interface TextRun {
  readonly text: string;
  readonly marked: boolean;
}

const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

function decode(html: string): string {
  return html.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
}

/** Splits a fragment into runs; text outside the marks and inside them alternates. */
export function highlightRuns(fragment: string): TextRun[] {
  const runs: TextRun[] = [];
  let rest = fragment;
  while (rest !== '') {
    const open = rest.indexOf(HIGHLIGHT_PRE);
    if (open === -1) {
      runs.push({ text: decode(rest), marked: false });
      break;
    }
    if (open > 0) runs.push({ text: decode(rest.slice(0, open)), marked: false });
    const close = rest.indexOf(HIGHLIGHT_POST, open + 1);
    const end = close === -1 ? rest.length : close;
    runs.push({ text: decode(rest.slice(open + 1, end)), marked: true });
    rest = close === -1 ? '' : rest.slice(close + 1);
  }
  return runs.filter((r) => r.text !== '');
}
