/**
 * The last check of a batch's vectors before the write-ahead log: once a batch is logged, replay
 * must be able to apply it, so nothing the segment buffer would refuse may get in.
 *
 * - A semantic field with a `model` whose text has no vector is refused: the embedder fills
 *   vectors before the log (`document-embedding.ts`), so reaching here without one means no
 *   embedder ran (a bug or a missing `inference` model), and the document would silently never
 *   be found by `knn`/`semantic`.
 * - Every vector has its field's dimension: `dim` of the mapping, or for a `model` field the
 *   dimension of the first vector the index holds for it (pre-embedded input of a model field is
 *   accepted, but one index has one dimension per field).
 */
import { ErrorCode, YarrowError } from '../errors.js';
import type { Mapping } from '../schema/mapping.js';
import type { SegmentInfo } from '../segment/segment-info.js';
import { textToEmbed } from './document-embedding.js';
import type { PreparedDocument } from './writer-options.js';

/** The dimensions of an index's vector fields, learned from segments and batches. */
export class VectorDimensions {
  private readonly dims = new Map<string, number>();

  constructor(
    private readonly mapping: Mapping,
    segments: readonly SegmentInfo[],
  ) {
    for (const s of segments) for (const f of s.vectorFields ?? []) this.dims.set(f.field, f.dim);
  }

  /** Throws `invalid_document` for the first document of the batch that breaks a rule above. */
  check(docs: readonly PreparedDocument[]): void {
    const learned = new Map<string, number>();
    for (const { doc, id } of docs) {
      for (const [field, vector] of doc.vectors) {
        const semantic = this.mapping.field(field)?.semantic ?? null;
        if (semantic === null) refuse(id, field, 'a field with search.semantic', 'a vector');
        const dim = semantic.dim ?? this.dims.get(field) ?? learned.get(field);
        if (dim === undefined) learned.set(field, vector.length);
        else if (vector.length !== dim) refuse(id, field, `${dim} dimensions`, `${vector.length} dimensions`);
      }
      for (const f of this.mapping.fields) {
        if (f.semantic?.model == null || doc.vectors.has(f.name)) continue;
        if (textToEmbed(doc, f.name) === null) continue;
        refuse(id, f.name, `an embedding by model "${f.semantic.model}" (documents are embedded before the write-ahead log)`, 'text without an embedding');
      }
    }
    for (const [field, dim] of learned) this.dims.set(field, dim);
  }
}

function refuse(id: string, field: string, expected: string, actual: string): never {
  throw new YarrowError(ErrorCode.invalidDocument, `document "${id}": field "${field}": expected ${expected}, got ${actual}`, { id, field, expected, actual });
}
