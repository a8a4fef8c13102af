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
import type { Directory, RandomAccessFile } from '../../directory.js';
import { VectorEncoding, VectorSimilarity } from '../quantization.js';
import { recordLayout, VectorStore } from '../vector-store.js';
import type { KernelKind } from '../kernels/distance-kernels.js';
import { SequentialFileReader } from './sequential-file-reader.js';
import type { BlockCache } from '../block-cache.js';
import { PagedDocIds } from '../paged-doc-ids.js';
import { PagedVectorStore } from '../paged-vector-store.js';

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
  const { dim, count, encoding, similarity, stride } = await readHead(r);
  const store = new VectorStore(dim, encoding, count, kind);
  await r.stream(count * stride, stride, (chunk) => {
    store.appendRecords(chunk);
  });
  const docIds = new Int32Array(count);
  await r.readInto(docIds);
  await r.finish();
  return { similarity, store, docIds };
}

/** A vectors file kept on storage and read through a block cache. */
export interface PagedVectorsFile {
  similarity: VectorSimilarity;
  store: PagedVectorStore;
  /** docIds[ord]; null when it is the identity (every document of the segment has a vector). */
  docIds: PagedDocIds | null;
  /** The open file (closed by the caller if opening the field fails later). */
  file: RandomAccessFile;
}

/**
 * Opens a vectors file to be read by position through `cache`. Every byte is still verified
 * against the checksum once, streamed in bounded chunks, and nothing of it is kept in memory.
 * Null when a record is larger than a cache page (the caller then loads the file instead).
 */
export async function openPagedVectorsFile(dir: Directory & Required<Pick<Directory, 'openRandomAccess'>>, fileName: string, cache: BlockCache): Promise<PagedVectorsFile | null> {
  const file = await dir.openRandomAccess(fileName);
  try {
    return await openPaged(dir, fileName, cache, file);
  } catch (error) {
    file.close();
    throw error;
  }
}

async function openPaged(dir: Directory, fileName: string, cache: BlockCache, file: RandomAccessFile): Promise<PagedVectorsFile | null> {
  const r = await SequentialFileReader.open(dir, fileName, VECTORS_MAGIC, VECTORS_VERSION, file);
  const { dim, count, encoding, similarity, stride } = await readHead(r);
  if (stride > cache.pageSize) {
    file.close();
    return null;
  }
  await r.stream(count * stride, stride, () => undefined);
  // Whether docIds[ord] === ord throughout (a holder: TypeScript does not see the callback assign).
  const scan = { identity: true, ord: 0 };
  await r.stream(count * 4, 4, (chunk) => {
    const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let at = 0; at < chunk.length && scan.identity; at += 4, scan.ord++) scan.identity = view.getInt32(at, true) === scan.ord;
  });
  await r.finish();
  const position = HEADER_LENGTH + 16;
  const store = new PagedVectorStore(cache, file, { dim, encoding, count, position });
  return { similarity, store, docIds: scan.identity ? null : new PagedDocIds(cache, file, count, position + count * stride), file };
}

/** The header fields after the magic and version, checked. */
async function readHead(r: SequentialFileReader): Promise<{ dim: number; count: number; encoding: VectorEncoding; similarity: VectorSimilarity; stride: number }> {
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
  return { dim, count, encoding, similarity, stride };
}
