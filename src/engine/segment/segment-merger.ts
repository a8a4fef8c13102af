/**
 * Merges segments into one, dropping deleted docs: term dictionaries are merged term by term and
 * postings are copied with doc ids remapped, without re-analyzing any text. Norms, stored fields
 * and doc values are copied doc by doc. A merge runs in phases that each read only some parts of
 * its sources and write their own files (see {@link mergeSegments}).
 */
import type { DocValuesColumn } from '../codec/doc-values/doc-values-writer.js';
import type { LiveDocs } from '../codec/live-docs/live-docs.js';
import { IndexOptions, NO_MORE_DOCS } from '../codec/postings/postings-format.js';
import type { MergePostings } from '../codec/postings/postings-file.js';
import type { TermEntry } from '../codec/term-dictionary/term-dictionary-reader.js';
import { TimeSlicer } from '../event-loop.js';
import { mergeSuggestions } from '../suggest/suggest-merger.js';
import { ID_FIELD } from './segment-buffer.js';
import { OptionalSegmentComponent, SegmentComponent } from './segment-component.js';
import type { SegmentInfo, VectorFieldInfo } from './segment-info.js';
import { VectorFieldWriter } from '../vector/vector-field-writer.js';
import { SegmentLoad } from './segment-reader.js';
import type { SegmentReader } from './segment-reader.js';
import { SegmentWriter } from './segment-writer.js';

/** A source of a merge: a segment, the live docs it had when the merge started, and its parts. */
export interface MergeSource {
  readonly maxDoc: number;
  readonly liveDocs: LiveDocs;
  /** A reader holding at least the parts of `load` (a full reader serves every phase). */
  open(load: SegmentLoad): Promise<SegmentReader>;
}

/** The merged segment's manifest entry and, per source, the new id of each old doc (-1: dropped). */
export interface MergedSegment {
  readonly info: SegmentInfo;
  readonly docMaps: readonly Int32Array[];
}

/**
 * Merges `sources` (in order) into a new segment named `name`, in four phases (postings, doc
 * values, stored fields, suggestions, vectors). Each phase opens only the parts of the sources it reads and hands its
 * output files to `write` before the next phase starts, so a merge holds one phase's inputs and
 * outputs at a time rather than two whole segments.
 */
export async function mergeSegments(
  name: string,
  sources: readonly MergeSource[],
  write: (files: ReadonlyMap<string, Uint8Array>) => Promise<void>,
): Promise<MergedSegment> {
  const slicer = new TimeSlicer();
  const docMaps: Int32Array[] = [];
  let maxDoc = 0;
  for (const s of sources) {
    const map = new Int32Array(s.maxDoc);
    for (let d = 0; d < map.length; d++) map[d] = s.liveDocs.isLive(d) ? maxDoc++ : -1;
    docMaps.push(map);
  }
  const writer = new SegmentWriter(name, maxDoc);
  await write(await mergePostingsPhase(writer, sources, docMaps, maxDoc, slicer));
  await write(await mergeDocValuesPhase(writer, sources, docMaps, maxDoc));
  await write(await mergeStoredPhase(writer, sources, docMaps, slicer));
  await write(await mergeSuggestionsPhase(writer, sources, docMaps, slicer));
  await write(await mergeVectorsPhase(writer, sources, docMaps, slicer));
  return { info: writer.info(), docMaps };
}

/**
 * Opens every source with `load` and runs `phase` on the readers, holding each for the phase
 * ({@link SegmentReader.retain}): a reader opened for the phase alone has its files closed after
 * it, and a searching reader a rollback drops from every snapshot meanwhile stays open until the
 * phase is done with it.
 */
async function withAll<T>(sources: readonly MergeSource[], load: SegmentLoad, phase: (readers: SegmentReader[]) => Promise<T>): Promise<T> {
  const readers = await Promise.all(sources.map(async (s) => (await s.open(load)).retain()));
  try {
    return await phase(readers);
  } finally {
    for (const r of readers) r.release();
  }
}

async function mergePostingsPhase(
  writer: SegmentWriter,
  sources: readonly MergeSource[],
  docMaps: readonly Int32Array[],
  maxDoc: number,
  slicer: TimeSlicer,
): Promise<Map<string, Uint8Array>> {
  await withAll(sources, SegmentLoad.postings, async (readers) => {
    // One cursor per source for the whole phase: fields are merged in the order they are written.
    const postings = readers.map((r) => r.mergePostings());
    await mergeField(writer, readers, postings, docMaps, ID_FIELD, IndexOptions.docs, maxDoc, slicer);
    const textFields = new Set<string>();
    for (const r of readers) for (const f of r.terms.fieldNames) if (f !== ID_FIELD) textFields.add(f);
    for (const field of [...textFields].sort()) {
      await mergeField(writer, readers, postings, docMaps, field, IndexOptions.docsFreqsPositions, maxDoc, slicer);
    }
  });
  return writer.take([SegmentComponent.terms, SegmentComponent.postings, SegmentComponent.positions, SegmentComponent.norms]);
}

async function mergeDocValuesPhase(
  writer: SegmentWriter,
  sources: readonly MergeSource[],
  docMaps: readonly Int32Array[],
  maxDoc: number,
): Promise<Map<string, Uint8Array>> {
  await withAll(sources, SegmentLoad.docValues, (readers) => {
    for (const column of mergeDocValues(readers, docMaps, maxDoc)) writer.addDocValues(column);
    return Promise.resolve();
  });
  return writer.take([SegmentComponent.docValues]);
}

async function mergeStoredPhase(
  writer: SegmentWriter,
  sources: readonly MergeSource[],
  docMaps: readonly Int32Array[],
  slicer: TimeSlicer,
): Promise<Map<string, Uint8Array>> {
  // Docs are copied source after source, so each source is opened only when its turn comes and
  // dropped after: the phase holds one source's stored fields at a time, not all of them (long
  // documents make this the biggest part of a segment).
  for (let i = 0; i < sources.length; i++) {
    const map = docMaps[i];
    if (!map.some((nd) => nd >= 0)) continue;
    await withAll([sources[i]], SegmentLoad.storedFields, async ([reader]) => {
      const stored = reader.stored;
      for (let d = 0; d < map.length; d++) {
        if (map[d] < 0) continue;
        if (slicer.due()) await slicer.yield();
        // On a merge thread the file is read a window at a time: the doc's block first.
        const loading = reader.loadStored(d);
        if (loading !== null) await loading;
        writer.stored.addRaw(stored.getRaw(d));
      }
    });
  }
  return writer.take([SegmentComponent.storedFields]);
}

/** Merges the suggestion candidates of the live docs (an optional file; none when no source has one). */
async function mergeSuggestionsPhase(
  writer: SegmentWriter,
  sources: readonly MergeSource[],
  docMaps: readonly Int32Array[],
  slicer: TimeSlicer,
): Promise<Map<string, Uint8Array>> {
  // Suggestions are read lazily, so the ids-only load is enough to reach them.
  const merged = await withAll(sources, SegmentLoad.ids, (readers) => mergeSuggestions(readers, docMaps, slicer));
  if (merged !== null) writer.addOptional(OptionalSegmentComponent.suggestions, merged);
  return writer.takeOptional();
}

/**
 * Copies each vector field's records of the live docs (no second quantization) and builds the
 * merged segment's graph over them; the HNSW parameters come from the sources' segment infos.
 */
async function mergeVectorsPhase(
  writer: SegmentWriter,
  sources: readonly MergeSource[],
  docMaps: readonly Int32Array[],
  slicer: TimeSlicer,
): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  await withAll(sources, SegmentLoad.vectors, async (readers) => {
    const fields = new Map<string, VectorFieldInfo>();
    for (const r of readers) for (const f of r.info.vectorFields ?? []) if (!fields.has(f.field)) fields.set(f.field, f);
    for (const info of [...fields.values()].sort((a, b) => (a.field < b.field ? -1 : 1))) {
      let merged: VectorFieldWriter | null = null;
      for (let i = 0; i < readers.length; i++) {
        const source = readers[i].vectorField(info.field);
        if (source === undefined) continue;
        merged ??= new VectorFieldWriter(info.field, { dim: info.dim, similarity: source.similarity, encoding: source.encoding, m: info.m, efConstruction: info.efConstruction });
        const map = docMaps[i];
        merged.addFrom(source, (d) => map[d]);
      }
      if (merged === null || merged.count === 0) continue;
      for (const [name, bytes] of writer.addVectorField(info, await merged.finishSliced(slicer))) files.set(name, bytes);
    }
  });
  return files;
}

async function mergeField(
  writer: SegmentWriter,
  sources: readonly SegmentReader[],
  postings: readonly MergePostings[],
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
      const old = s.fieldNorms(field);
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

  const iterators = sources.map((s) => s.terms.terms(field));
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
      // Terms come in order: the source reads its postings a window at a time, on demand.
      let it = postings[i].iterator(h, options);
      if (it === null) {
        await postings[i].load(h, options);
        it = postings[i].iterator(h, options);
        if (it === null) throw new Error(`segment ${sources[i].name}: the postings of ${field}:${term} were not read`);
      }
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

function mergeDocValues(sources: readonly SegmentReader[], docMaps: readonly Int32Array[], maxDoc: number): DocValuesColumn[] {
  const fields = new Map<string, 'numeric' | 'keyword'>();
  for (const s of sources) {
    for (const f of s.docValues.fields) {
      const col = s.docValues.column(f);
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
      const col = s.docValues.column(field);
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
