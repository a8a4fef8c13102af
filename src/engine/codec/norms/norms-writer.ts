/**
 * Writes the norms (`.nrm`) file: per text field, one byte per doc, the quantised field length
 * from {@link lengthToNorm} (0 = the field is absent from that doc).
 *
 * Byte layout (after the header `Ynrm`, version 1; footer from file-format.ts):
 *   varint  maxDoc
 *   varint  field count
 *   per field, in the map's iteration order:
 *     string  field name
 *     byte    encoding: 0 = dense, 1 = constant
 *     dense:    maxDoc bytes, the norm of each doc
 *     constant: 1 byte, the norm every doc shares (common for short keyword-like text fields)
 */
import { ByteWriter } from '../bytes/byte-writer.js';
import { writeFooter, writeHeader } from '../file-format.js';

export const NORMS_MAGIC = 'Ynrm';
export const NORMS_VERSION = 1;
export const NormsEncoding = { dense: 0, constant: 1 } as const;

/** Per text field, one byte per doc (0 = field absent for that doc); returns the whole file. */
export function encodeNorms(fields: ReadonlyMap<string, Uint8Array>, maxDoc: number): Uint8Array {
  const w = new ByteWriter(64 + fields.size * (maxDoc + 16));
  writeHeader(w, NORMS_MAGIC, NORMS_VERSION);
  w.writeVarint(maxDoc);
  w.writeVarint(fields.size);
  for (const [name, norms] of fields) {
    if (norms.length !== maxDoc) throw new RangeError(`norms of field ${name} have ${norms.length} entries, expected maxDoc ${maxDoc}`);
    w.writeString(name);
    if (maxDoc > 0 && isConstant(norms)) {
      w.writeByte(NormsEncoding.constant);
      w.writeByte(norms[0]);
    } else {
      w.writeByte(NormsEncoding.dense);
      w.writeBytes(norms);
    }
  }
  writeFooter(w);
  return w.toBytes();
}

function isConstant(norms: Uint8Array): boolean {
  const first = norms[0];
  for (let i = 1; i < norms.length; i++) if (norms[i] !== first) return false;
  return true;
}
