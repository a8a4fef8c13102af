/**
 * Maps a dotted config path (`schema.movies.fields.year.type`, `api.auth.tokens[0]`) to the line and
 * column where it sits in the YAML source, so validation errors can point at the file.
 */
import { isMap, isScalar, isSeq } from 'yaml';
import type { Document, LineCounter } from 'yaml';

/** A 1-based line and column. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/**
 * Where `path` sits in `doc`: the position of its deepest key present in the file (a missing key
 * reports its parent), or undefined when not even the first key is there. Keys that contain dots
 * (field names such as `meta.author`) are matched greedily, longest key first.
 */
export function positionOf(doc: Document, lineCounter: LineCounter, path: string): SourcePosition | undefined {
  const offset = offsetOf(doc.contents, path);
  if (offset === undefined) return undefined;
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

function offsetOf(node: unknown, rest: string): number | undefined {
  if (rest === '') return undefined;
  if (isSeq(node)) {
    const m = /^\[(\d+)\]\.?/.exec(rest);
    if (m === null) return undefined;
    const item: unknown = node.items[Number(m[1])];
    if (item === undefined) return node.range?.[0];
    const tail = rest.slice(m[0].length);
    return offsetOf(item, tail) ?? rangeStart(item);
  }
  if (!isMap(node)) return undefined;
  let best: { key: string; keyNode: unknown; value: unknown } | undefined;
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const matches = rest === key || rest.startsWith(`${key}.`) || rest.startsWith(`${key}[`);
    if (matches && (best === undefined || key.length > best.key.length)) best = { key, keyNode: pair.key, value: pair.value };
  }
  if (best === undefined) return undefined;
  const tail = rest.slice(best.key.length).replace(/^\./, '');
  return offsetOf(best.value, tail) ?? rangeStart(best.keyNode);
}

function rangeStart(node: unknown): number | undefined {
  if (typeof node !== 'object' || node === null || !('range' in node)) return undefined;
  const range = (node as { range?: readonly number[] | null }).range;
  return range?.[0];
}
