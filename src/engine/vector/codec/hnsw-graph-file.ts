/**
 * The HNSW graph file of one vector field of one segment (`Yhnw`, version 1), the arrays of
 * {@link HnswGraph} as they are in memory:
 *
 *   header      'Yhnw', uint32 version
 *   uint32      nodes                    0 = no graph (a small segment is scanned exactly)
 *   uint32      m                        neighbours per upper level; level 0 has 2m
 *   int32       entryPoint
 *   int32       maxLevel
 *   uint32      upperLength              int32 slots of the upper levels
 *   uint32      0
 *   levels      nodes x uint8, zero-padded to a multiple of 4
 *   level0      nodes x (2m + 1) int32   neighbour count, then neighbours
 *   upperStart  nodes x int32            -1 for a node on level 0 only
 *   upper       upperLength x int32      per level 1..top: count, then m slots
 *   footer      'Yend', CRC-32
 *
 * The reader checks structure as well as the checksum (neighbour ordinals in range, counts within
 * capacity), so that a damaged graph never sends a search out of bounds.
 */
import { ByteWriter } from '../../codec/bytes/byte-writer.js';
import { FOOTER_LENGTH, HEADER_LENGTH, writeFooter, writeHeader } from '../../codec/file-format.js';
import type { Directory, RandomAccessFile } from '../../directory.js';
import type { HnswArrays } from '../hnsw-graph.js';
import { SequentialFileReader } from './sequential-file-reader.js';
import type { BlockCache } from '../block-cache.js';
import { PagedGraphLists } from '../paged-graph-lists.js';

export const HNSW_MAGIC = 'Yhnw';
export const HNSW_VERSION = 1;

/** The bytes of a graph file; `graph` null writes the "no graph" form. */
export function writeHnswGraphFile(graph: HnswArrays | null): Uint8Array {
  const nodes = graph?.count ?? 0;
  const w = new ByteWriter(64 + (graph === null ? 0 : graph.level0.byteLength + graph.upper.byteLength + nodes * 5));
  writeHeader(w, HNSW_MAGIC, HNSW_VERSION);
  w.writeUint32(nodes);
  w.writeUint32(graph?.m ?? 0);
  w.writeUint32((graph?.entryPoint ?? -1) >>> 0);
  w.writeUint32((graph?.maxLevel ?? -1) >>> 0);
  w.writeUint32(graph?.upper.length ?? 0);
  w.writeUint32(0);
  if (graph !== null) {
    w.writeBytes(graph.levels);
    for (let pad = (4 - (nodes % 4)) % 4; pad > 0; pad--) w.writeByte(0);
    w.writeBytes(bytesOf(graph.level0));
    w.writeBytes(bytesOf(graph.upperStart));
    w.writeBytes(bytesOf(graph.upper));
  }
  writeFooter(w);
  return w.view();
}

/** Reads and checks a graph file for a store of `vectors` ordinals; null for the "no graph" form. */
export async function readHnswGraphFile(dir: Directory, fileName: string, vectors: number): Promise<HnswArrays | null> {
  const r = await SequentialFileReader.open(dir, fileName, HNSW_MAGIC, HNSW_VERSION);
  const head = await readHead(r, vectors);
  if (head === null) return null;
  const { nodes, m, entryPoint, maxLevel, upperLength, levelBytes } = head;
  const levels = new Uint8Array(levelBytes);
  await r.readInto(levels);
  const m0 = 2 * m;
  const level0 = new Int32Array(nodes * (m0 + 1));
  await r.readInto(level0);
  const upperStart = new Int32Array(nodes);
  await r.readInto(upperStart);
  const upper = new Int32Array(upperLength);
  await r.readInto(upper);
  await r.finish();
  const arrays: HnswArrays = { m, count: nodes, entryPoint, maxLevel, levels: levels.subarray(0, nodes), level0, upperStart, upper };
  checkStructure(arrays, r);
  return arrays;
}

/** A graph file kept on storage: its level 0 read through a block cache, its upper levels in memory. */
export interface PagedGraphFile {
  head: { m: number; entryPoint: number; maxLevel: number };
  lists: PagedGraphLists;
  file: RandomAccessFile;
}

/**
 * Opens a graph file to be read by position through `cache`: every byte verified against the
 * checksum and every list's structure checked, streamed in bounded chunks; only the upper levels
 * (and, while opening, one byte per node) are held in memory. Null for the "no graph" form.
 */
export async function openPagedHnswGraphFile(dir: Directory & Required<Pick<Directory, 'openRandomAccess'>>, fileName: string, vectors: number, cache: BlockCache): Promise<PagedGraphFile | null> {
  const file = await dir.openRandomAccess(fileName);
  try {
    const graph = await openPaged(dir, fileName, vectors, cache, file);
    if (graph === null) file.close();
    return graph;
  } catch (error) {
    file.close();
    throw error;
  }
}

async function openPaged(dir: Directory, fileName: string, vectors: number, cache: BlockCache, file: RandomAccessFile): Promise<PagedGraphFile | null> {
  const r = await SequentialFileReader.open(dir, fileName, HNSW_MAGIC, HNSW_VERSION, file);
  const head = await readHead(r, vectors);
  if (head === null) return null;
  const { nodes, m, entryPoint, maxLevel, upperLength, levelBytes } = head;
  const levelsPadded = new Uint8Array(levelBytes);
  await r.readInto(levelsPadded);
  const g = { count: nodes, levels: levelsPadded.subarray(0, nodes) };
  if (g.levels[entryPoint] !== maxLevel) throw r.corrupt(`entry point ${entryPoint} is not on level ${maxLevel}`);
  let upperCount = 0;
  for (let ord = 0; ord < nodes; ord++) {
    if (g.levels[ord] > maxLevel) throw r.corrupt(`node ${ord} on level ${g.levels[ord]} above the top ${maxLevel}`);
    if (g.levels[ord] > 0) upperCount++;
  }
  const m0 = 2 * m;
  const width = m0 + 1;
  const level0Position = HEADER_LENGTH + 24 + levelBytes;
  let ord = 0;
  await r.stream(nodes * width * 4, width * 4, (chunk) => {
    const lists = int32View(chunk);
    for (let at = 0; at < lists.length; at += width, ord++) checkList(g, lists, at, m0, 0, r, ord);
  });
  const upperNodes = new Int32Array(upperCount);
  const upperStarts = new Int32Array(upperCount);
  let found = 0;
  ord = 0;
  await r.stream(nodes * 4, 4, (chunk) => {
    const starts = int32View(chunk);
    for (let i = 0; i < starts.length; i++, ord++) {
      const level = g.levels[ord];
      const start = starts[i];
      if (level === 0) {
        if (start !== -1) throw r.corrupt(`node ${ord} has upper levels it is not on`);
        continue;
      }
      if (start < 0 || start + level * (m + 1) > upperLength) throw r.corrupt(`upper levels of node ${ord} out of range`);
      upperNodes[found] = ord;
      upperStarts[found++] = start;
    }
  });
  const upper = new Int32Array(upperLength);
  await r.readInto(upper);
  await r.finish();
  for (let i = 0; i < upperCount; i++) {
    for (let l = 1; l <= g.levels[upperNodes[i]]; l++) checkList(g, upper, upperStarts[i] + (l - 1) * (m + 1), m, l, r, upperNodes[i]);
  }
  const lists = new PagedGraphLists(cache, file, { nodes, m, level0Position, upper, upperNodes, upperStarts });
  return { head: { m, entryPoint, maxLevel }, lists, file };
}

/** The header fields after the magic and version, checked; null for the "no graph" form. */
async function readHead(r: SequentialFileReader, vectors: number): Promise<{ nodes: number; m: number; entryPoint: number; maxLevel: number; upperLength: number; levelBytes: number } | null> {
  const head = new DataView((await r.read(24)).slice().buffer);
  const nodes = head.getUint32(0, true);
  const m = head.getUint32(4, true);
  const entryPoint = head.getInt32(8, true);
  const maxLevel = head.getInt32(12, true);
  const upperLength = head.getUint32(16, true);
  const levelBytes = nodes + ((4 - (nodes % 4)) % 4);
  await r.expectSize(HEADER_LENGTH + 24 + levelBytes + 4 * (nodes * (2 * m + 1) + nodes + upperLength) + FOOTER_LENGTH);
  if (nodes === 0) {
    await r.finish();
    return null;
  }
  if (upperLength > 0x7fffffff / 4 || m > 512) throw r.corrupt(`graph header out of range (m ${m}, ${upperLength} upper slots)`);
  if (nodes !== vectors) throw r.corrupt(`graph of ${nodes} nodes for ${vectors} vectors`);
  if (m < 2 || m > 512) throw r.corrupt(`m ${m} out of range`);
  if (entryPoint < 0 || entryPoint >= nodes || maxLevel < 0 || maxLevel > 31) throw r.corrupt(`entry point ${entryPoint} at level ${maxLevel} out of range`);
  return { nodes, m, entryPoint, maxLevel, upperLength, levelBytes };
}

/** Every count within capacity and every neighbour an ordinal of the graph. */
function checkStructure(g: HnswArrays, r: SequentialFileReader): void {
  const m0 = 2 * g.m;
  if (g.levels[g.entryPoint] !== g.maxLevel) throw r.corrupt(`entry point ${g.entryPoint} is not on level ${g.maxLevel}`);
  for (let ord = 0; ord < g.count; ord++) {
    checkList(g, g.level0, ord * (m0 + 1), m0, 0, r, ord);
    const level = g.levels[ord];
    if (level > g.maxLevel) throw r.corrupt(`node ${ord} on level ${level} above the top ${g.maxLevel}`);
    const start = g.upperStart[ord];
    if (level === 0) {
      if (start !== -1) throw r.corrupt(`node ${ord} has upper levels it is not on`);
      continue;
    }
    if (start < 0 || start + level * (g.m + 1) > g.upper.length) throw r.corrupt(`upper levels of node ${ord} out of range`);
    for (let l = 1; l <= level; l++) checkList(g, g.upper, start + (l - 1) * (g.m + 1), g.m, l, r, ord);
  }
}

function checkList(g: Pick<HnswArrays, 'count' | 'levels'>, arr: Int32Array, at: number, max: number, level: number, r: SequentialFileReader, ord: number): void {
  const count = arr[at];
  if (count < 0 || count > max) throw r.corrupt(`node ${ord} has ${count} neighbours on level ${level} (at most ${max})`);
  for (let i = 1; i <= count; i++) {
    const nb = arr[at + i];
    if (!(nb >= 0 && nb < g.count && g.levels[nb] >= level)) throw r.corrupt(`node ${ord} links to ${nb} on level ${level}, not a node there`);
  }
}

/** A chunk as int32s: a view when it is aligned (a reused read buffer), else a copy. */
function int32View(chunk: Uint8Array): Int32Array {
  return chunk.byteOffset % 4 === 0 ? new Int32Array(chunk.buffer, chunk.byteOffset, chunk.byteLength >> 2) : new Int32Array(chunk.slice().buffer);
}

function bytesOf(a: Int32Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}
