import { openChecked } from '../file-format.js';
import { ErrorCode, YarrowError } from '../../errors.js';
import { NORMS_MAGIC, NORMS_VERSION, NormsEncoding } from './norms-writer.js';

/**
 * Decodes a norms file written by {@link encodeNorms} (verifying its checksum) into one array of
 * maxDoc bytes per field. Dense fields are views into `bytes` (no copy), so treat them as read-only.
 */
export function decodeNorms(bytes: Uint8Array, fileName: string): Map<string, Uint8Array> {
  const { reader, bodyEnd } = openChecked(bytes, fileName, NORMS_MAGIC, NORMS_VERSION);
  const maxDoc = reader.readVarint();
  const count = reader.readVarint();
  const out = new Map<string, Uint8Array>();
  for (let f = 0; f < count; f++) {
    const name = reader.readString();
    const encoding = reader.readByte();
    if (encoding === NormsEncoding.dense) {
      out.set(name, reader.readBytes(maxDoc));
    } else if (encoding === NormsEncoding.constant) {
      out.set(name, new Uint8Array(maxDoc).fill(reader.readByte()));
    } else {
      throw new YarrowError(ErrorCode.corruptIndex, `${fileName}: unknown norms encoding ${encoding} for field ${name}`, { source: fileName, field: name });
    }
  }
  if (reader.pos !== bodyEnd) {
    throw new YarrowError(ErrorCode.corruptIndex, `${fileName}: ${bodyEnd - reader.pos} unexpected bytes after the norms`, { source: fileName });
  }
  return out;
}
