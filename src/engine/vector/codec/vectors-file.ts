/**
 * The vectors file of one vector field of one segment (`Yvec`, version 1). Fixed-width, so that
 * records can be copied straight into kernel memory:
 *
 *   header      'Yvec', uint32 version
 *   uint32      dim
 *   uint32      count                    vectors in the file (ordinals 0..count-1)
 *   uint8       encoding                 0 float32, 1 int8
 *   uint8       similarity               0 cosine (vectors stored normalised), 1 dot
 *   uint16      0
 *   uint32      stride                   bytes per record (see recordLayout)
 *   records     count x stride           the VectorStore records: float32 lanes padded to 8, or
 *                                        int8 codes padded to 16 + float32 scale + 12 zero bytes
 *   docIds      count x int32            the segment docId of each ordinal
 *   footer      'Yend', CRC-32
 *
 * Every number is little-endian; typed arrays are written as their bytes (the engine runs on
 * little-endian hosts: x86-64 and arm64).
 */
import { ByteWriter } from '../../codec/bytes/byte-writer.js';
import { FOOTER_LENGTH, HEADER_LENGTH, writeFooter, writeHeader } from '../../codec/file-format.js';
import type { Directory } from '../../directory.js';
import { VectorEncoding, VectorSimilarity } from '../quantization.js';
import { recordLayout, VectorStore } from '../vector-store.js';
import type { KernelKind } from '../kernels/distance-kernels.js';
import { SequentialFileReader } from './sequential-file-reader.js';

export const VECTORS_MAGIC = 'Yvec';
export const VECTORS_VERSION = 1;

const ENCODINGS = [VectorEncoding.float32, VectorEncoding.int8] as const;
const SIMILARITIES = [VectorSimilarity.cosine, VectorSimilarity.dot] as const;

/** What a vectors file holds. */
export interface VectorsFileContent {
  similarity: VectorSimilarity;
  store: VectorStore;
  /** docIds[ord]. */
  docIds: Int32Array;
}

/** The bytes of a vectors file. */
export function writeVectorsFile(content: VectorsFileContent): Uint8Array {
  const { store, docIds } = content;
  if (docIds.length !== store.count) throw new RangeError(`${docIds.length} docIds for ${store.count} vectors`);
  const w = new ByteWriter(32 + store.count * (store.stride + 4));
  writeHeader(w, VECTORS_MAGIC, VECTORS_VERSION);
  w.writeUint32(store.dim);
  w.writeUint32(store.count);
  w.writeByte(ENCODINGS.indexOf(store.encoding));
  w.writeByte(SIMILARITIES.indexOf(content.similarity));
  w.writeByte(0);
  w.writeByte(0);
  w.writeUint32(store.stride);
  w.writeBytes(store.records());
  w.writeBytes(new Uint8Array(docIds.buffer, docIds.byteOffset, docIds.byteLength));
  writeFooter(w);
  return w.view();
}

/**
 * Reads a vectors file by position into a new store, verifying its checksum on the way
 * (corruption is `corrupt_index`, another version `incompatible_format`).
 */
export async function readVectorsFile(dir: Directory, fileName: string, kind?: KernelKind): Promise<VectorsFileContent> {
  const r = await SequentialFileReader.open(dir, fileName, VECTORS_MAGIC, VECTORS_VERSION);
  const head = new DataView((await r.read(16)).slice().buffer);
  const dim = head.getUint32(0, true);
  const count = head.getUint32(4, true);
  const encoding = ENCODINGS[head.getUint8(8)] as VectorEncoding | undefined;
  const similarity = SIMILARITIES[head.getUint8(9)] as VectorSimilarity | undefined;
  const stride = head.getUint32(12, true);
  if (encoding === undefined) throw r.corrupt(`unknown vector encoding ${head.getUint8(8)}`);
  if (similarity === undefined) throw r.corrupt(`unknown similarity ${head.getUint8(9)}`);
  if (dim < 1 || dim > 65536) throw r.corrupt(`vector dimension ${dim} out of range`);
  if (stride !== recordLayout(dim, encoding).stride) throw r.corrupt(`record stride ${stride} does not match ${encoding} x ${dim}`);
  if (count > 0x7fffffff / stride) throw r.corrupt(`${count} vectors do not fit a segment`);
  await r.expectSize(HEADER_LENGTH + 16 + count * (stride + 4) + FOOTER_LENGTH);
  const store = new VectorStore(dim, encoding, count, kind);
  await r.stream(count * stride, stride, (chunk) => {
    store.appendRecords(chunk);
  });
  const docIds = new Int32Array(count);
  await r.readInto(docIds);
  await r.finish();
  return { similarity, store, docIds };
}
