/**
 * Merges segments into one, dropping deleted docs: term dictionaries are merged term by term and
 * postings are copied with doc ids remapped, without re-analyzing any text. Norms, stored fields
 * and doc values are copied doc by doc.
 */
import type { DocValuesColumn } from '../codec/doc-values/doc-values-writer.js';
import type { LiveDocs } from '../codec/live-docs/live-docs.js';
import { IndexOptions, NO_MORE_DOCS } from '../codec/postings/postings-format.js';
import { PostingsIterator } from '../codec/postings/postings-reader.js';
import type { TermEntry } from '../codec/term-dictionary/term-dictionary-reader.js';
import { TimeSlicer } from '../event-loop.js';
import { ID_FIELD } from './segment-buffer.js';
import type { SegmentReader } from './segment-reader.js';
import { SegmentWriter } from './segment-writer.js';
import type { WrittenSegment } from './segment-writer.js';

/** A source of a merge: a segment and the live docs it had when the merge started. */
export interface MergeSource {
  readonly reader: SegmentReader;
  readonly liveDocs: LiveDocs;
}

/** The merged segment and, per source, the new doc id of each old doc (-1 when dropped). */
export interface MergedSegment extends WrittenSegment {
  readonly docMaps: readonly Int32Array[];
}

/** Merges `sources` (in order) into a new segment named `name`. */
export async function mergeSegments(name: string, sources: readonly MergeSource[]): Promise<MergedSegment> {
  const slicer = new TimeSlicer();
  const docMaps: Int32Array[] = [];
  let maxDoc = 0;
  for (const s of sources) {
    const map = new Int32Array(s.reader.maxDoc);
    for (let d = 0; d < map.length; d++) map[d] = s.liveDocs.isLive(d) ? maxDoc++ : -1;
    docMaps.push(map);
  }
  const writer = new SegmentWriter(name, maxDoc);

  await mergeField(writer, sources, docMaps, ID_FIELD, IndexOptions.docs, maxDoc, slicer);
  const textFields = new Set<string>();
  for (const s of sources) for (const f of s.reader.terms.fieldNames) if (f !== ID_FIELD) textFields.add(f);
  for (const field of [...textFields].sort()) {
    await mergeField(writer, sources, docMaps, field, IndexOptions.docsFreqsPositions, maxDoc, slicer);
  }
  for (const column of mergeDocValues(sources, docMaps, maxDoc)) writer.addDocValues(column);
  for (let i = 0; i < sources.length; i++) {
    const map = docMaps[i];
    for (let d = 0; d < map.length; d++) {
      if (map[d] < 0) continue;
      if (slicer.due()) await slicer.yield();
      writer.stored.addRaw(sources[i].reader.stored.getRaw(d));
    }
  }
  return { ...writer.finish(), docMaps };
}

async function mergeField(
  writer: SegmentWriter,
  sources: readonly MergeSource[],
  docMaps: readonly Int32Array[],
  field: string,
  options: IndexOptions,
  maxDoc: number,
  slicer: TimeSlicer,
): Promise<void> {
  const scored = options === IndexOptions.docsFreqsPositions;
  let norms: Uint8Array | null = null;
  let docCount = 0;
  if (scored) {
    norms = new Uint8Array(maxDoc);
    sources.forEach((s, i) => {
      const old = s.reader.fieldNorms(field);
      if (old === undefined) return;
      const map = docMaps[i];
      for (let d = 0; d < map.length; d++) {
        const nd = map[d];
        if (nd >= 0 && old[d] !== 0) {
          norms![nd] = old[d]!;
          docCount++;
        }
      }
    });
  }
  // Stats are finalised after the terms; the writer keeps a reference to this object.
  const stats = { docCount, sumTotalTermFreq: 0 };
  writer.startField(field, options, norms, scored ? stats : null);

  const iterators = sources.map((s) => s.reader.terms.terms(field));
  const heads: (TermEntry | undefined)[] = iterators.map((it) => it.next().value as TermEntry | undefined);
  const docs: number[] = [];
  const freqs: number[] = [];
  const positions: number[] = [];
  const posBuf = new Int32Array(1 << 16);
  while (true) {
    if (slicer.due()) await slicer.yield();
    let term: string | undefined;
    for (const h of heads) if (h !== undefined && (term === undefined || h.term < term)) term = h.term;
    if (term === undefined) break;
    docs.length = 0;
    freqs.length = 0;
    positions.length = 0;
    for (let i = 0; i < sources.length; i++) {
      const h = heads[i];
      if (h?.term !== term) continue;
      const map = docMaps[i];
      const it = new PostingsIterator(sources[i].reader.postingsBytes, sources[i].reader.positionsBytes, h, options);
      for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) {
        const nd = map[d];
        if (nd < 0) continue;
        docs.push(nd);
        if (!scored) continue;
        const f = it.freq();
        freqs.push(f);
        stats.sumTotalTermFreq += f;
        const buf = f <= posBuf.length ? posBuf : new Int32Array(f);
        it.readPositions(buf);
        for (let j = 0; j < f; j++) positions.push(buf[j]);
      }
      heads[i] = iterators[i].next().value as TermEntry | undefined;
    }
    if (docs.length > 0) writer.addTerm(term, docs.length, docs, scored ? freqs : null, scored ? positions : null);
  }
}

function mergeDocValues(sources: readonly MergeSource[], docMaps: readonly Int32Array[], maxDoc: number): DocValuesColumn[] {
  const fields = new Map<string, 'numeric' | 'keyword'>();
  for (const s of sources) {
    for (const f of s.reader.docValues.fields) {
      const col = s.reader.docValues.column(f);
      if (col !== undefined) fields.set(f, col.kind);
    }
  }
  const out: DocValuesColumn[] = [];
  for (const [field, kind] of fields) {
    const offsets = new Uint32Array(maxDoc + 1);
    const numbers: number[] = [];
    const strings: string[] = [];
    let nd = 0;
    sources.forEach((s, i) => {
      const col = s.reader.docValues.column(field);
      const map = docMaps[i];
      for (let d = 0; d < map.length; d++) {
        if (map[d] < 0) continue;
        if (col !== undefined) {
          for (let k = col.offsets[d]; k < col.offsets[d + 1]; k++) {
            if (col.kind === 'numeric') numbers.push(col.values[k]);
            else strings.push(col.dictionary[col.ords[k]]);
          }
        }
        offsets[++nd] = kind === 'numeric' ? numbers.length : strings.length;
      }
    });
    if (kind === 'numeric') {
      out.push({ kind, field, offsets, values: Float64Array.from(numbers) });
      continue;
    }
    const dictionary = [...new Set(strings)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const ordOf = new Map(dictionary.map((s, i) => [s, i]));
    out.push({ kind, field, offsets, dictionary, ords: Uint32Array.from(strings, (s) => ordOf.get(s)!) });
  }
  return out;
}
