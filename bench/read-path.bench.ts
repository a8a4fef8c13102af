/**
 * Micro-benchmark of a bulk thread's bytes before inversion, in ns per input byte (CPU time), over
 * the JSON Lines files `yarrow index file` reads and under the mapping it indexes them with (`_id`
 * plus the searched text fields, all stored):
 *
 * - `floor newline`: `Buffer.indexOf` of each newline, nothing else (bulk-chunk's line split);
 * - `floor quotes`: a bare JS loop over every byte counting quotes and newlines (what any reader
 *   that looks at each byte once costs at least);
 * - `read`: `FlatLineBytes.read` of each line, the stored JSON into a reader-owned buffer;
 * - `read + store`: the same writing into a `StoredFieldsWriter`'s open block, each document added
 *   (`addStoredToSink`), blocks LZ4-compressed as they fill, the line split as `addChunk` does it:
 *   what `addChunk` does before inverting;
 * - `store only`: the stored JSON of every document (made once) added with `addRawBytes` (block
 *   writer + LZ4), and `lz4 only`: `compressLz4Block` over the writer's 16 KiB blocks; both in ns
 *   per input byte of the line file, so the rows add up.
 *
 * Hot loops run far slower under tsx than in the esbuild bundle the CLI ships, so this file is
 * bundled first:
 *
 *   npx esbuild bench/read-path.bench.ts --bundle --platform=node --format=esm --outfile=/tmp/read-path.mjs
 *   node /tmp/read-path.mjs [npm-file] [debian-file]   (defaults: /tmp/p0/npm.jsonl /tmp/p0/deb.jsonl)
 *   YARROW_BENCH_ROUNDS=9 ... (the median round is printed; default 7)
 */
import { readFileSync } from 'node:fs';
import { StoredFieldsWriter } from '../src/engine/codec/stored-fields/stored-fields-writer.js';
import { compressLz4Block, maxCompressedLength } from '../src/engine/codec/stored-fields/lz4-block.js';
import { FlatLineBytes } from '../src/engine/schema/flat-json-bytes.js';
import { flatPlanOf } from '../src/engine/schema/flat-json-line.js';
import { parseMapping } from '../src/engine/schema/mapping.js';

const ROUNDS = Number(process.env.YARROW_BENCH_ROUNDS ?? 7);
const text = { type: 'text', search: { lexical: { analyze: 'english' } } };
const files: readonly { name: string; path: string; fields: readonly string[] }[] = [
  { name: 'npm', path: process.argv[2] ?? '/tmp/p0/npm.jsonl', fields: ['name', 'summary'] },
  { name: 'debian', path: process.argv[3] ?? '/tmp/p0/deb.jsonl', fields: ['name', 'summary', 'description'] },
];

function cpuNs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

let sink = 0;

for (const file of files) {
  const bytes = readFileSync(file.path);
  const n = bytes.length;
  const mapping = parseMapping({ fields: { _id: { type: 'id' }, ...Object.fromEntries(file.fields.map((f) => [f, text])) } }, file.name);
  const plan = flatPlanOf(mapping);
  if (plan === null) throw new Error('no fast path');
  const deriveId = (line: number | undefined): string => `line-${line}`;

  // The stored JSON of every line, and the writer's blocks, made once for the store-only rows.
  const storedDocs: Uint8Array[] = [];
  {
    const reader = new FlatLineBytes(plan, () => true);
    for (let at = 0, line = 1; at < n; line++) {
      let end = bytes.indexOf(0x0a, at);
      if (end < 0) end = n;
      if (reader.read(bytes, at, end, file.name, line, deriveId) !== null) storedDocs.push(reader.storedBytes().slice());
      at = end + 1;
    }
  }
  const blocks: Uint8Array[] = [];
  {
    let pending: Uint8Array[] = [];
    let size = 0;
    const close = (): void => {
      const block = new Uint8Array(size + 5 * (pending.length + 1));
      let p = 0;
      for (const d of pending) {
        block.set(d, p);
        p += d.length;
      }
      blocks.push(block.subarray(0, p + 5 * (pending.length + 1)));
      pending = [];
      size = 0;
    };
    for (const d of storedDocs) {
      pending.push(d);
      size += d.length;
      if (size >= 16 * 1024 || pending.length >= 1024) close();
    }
    if (pending.length > 0) close();
  }
  const lz4Out = new Uint8Array(maxCompressedLength(Math.max(...blocks.map((b) => b.length))));

  const cases: Record<string, () => number> = {
    'floor newline': () => {
      let lines = 0;
      for (let at = 0; at < n; lines++) {
        const end = bytes.indexOf(0x0a, at);
        if (end < 0) break;
        at = end + 1;
      }
      return lines;
    },
    'floor quotes': () => {
      let q = 0;
      const u8 = new Uint8Array(bytes.buffer, bytes.byteOffset, n);
      for (let i = 0; i < n; i++) {
        const c = u8[i];
        if (c === 0x22 || c === 0x0a) q++;
      }
      return q;
    },
    'floor words': () => {
      // Four bytes at a time, stopping at any quote, backslash, control or high byte: the scan's own inner loop.
      const view = new DataView(bytes.buffer, bytes.byteOffset, n);
      let stops = 0;
      for (let j = 0; j + 4 <= n; j += 4) {
        const w = view.getInt32(j, true);
        if (((w - 0x20202020) | ((w ^ 0x22222222) - 0x01010101) | ((w ^ 0x5c5c5c5c) - 0x01010101) | w) & 0x80808080) stops++;
      }
      return stops;
    },
    scan: () => {
      const reader = new FlatLineBytes(plan, () => true) as unknown as { scan(b: Buffer, s: number, e: number): boolean };
      let ok = 0;
      for (let at = 0; at < n;) {
        let end = bytes.indexOf(0x0a, at);
        if (end < 0) end = n;
        if (reader.scan(bytes, at, end)) ok++;
        at = end + 1;
      }
      return ok;
    },
    read: () => {
      const reader = new FlatLineBytes(plan, () => true);
      let stored = 0;
      for (let at = 0, line = 1; at < n; line++) {
        let end = bytes.indexOf(0x0a, at);
        if (end < 0) end = n;
        if (reader.read(bytes, at, end, file.name, line, deriveId) !== null) stored += reader.storedBytes().length;
        at = end + 1;
      }
      return stored;
    },
    'read + store': () => {
      // As `BulkBuffer.addChunk` does: the line's end found by the reader when it has `lineEnd`
      // (else, in builds before it, by indexOf).
      const writer = new StoredFieldsWriter();
      const reader = new FlatLineBytes(plan, () => true, writer);
      const fused = 'lineEnd' in reader;
      reader.useBytes(bytes);
      for (let at = 0, line = 1; at < n; line++) {
        let end = fused ? n : bytes.indexOf(0x0a, at);
        if (end < 0) end = n;
        if (reader.read(bytes, at, end, file.name, line, deriveId) !== null) {
          reader.addStoredToSink();
          if (fused) end = (reader as unknown as { lineEnd: number }).lineEnd;
        } else if (fused) {
          end = bytes.indexOf(0x0a, at);
          if (end < 0) end = n;
        }
        at = end + 1;
      }
      return writer.finish().length;
    },
    'store only': () => {
      const writer = new StoredFieldsWriter();
      for (const d of storedDocs) writer.addRawBytes(d);
      return writer.finish().length;
    },
    'lz4 only': () => {
      let out = 0;
      for (const b of blocks) out += compressLz4Block(b, lz4Out);
      return out;
    },
  };
  const times = new Map<string, number[]>();
  const results = new Map<string, number>();
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of Object.entries(cases)) {
      const t = cpuNs();
      const result = fn();
      const ns = cpuNs() - t;
      sink += result;
      results.set(name, result);
      const list = times.get(name) ?? [];
      list.push(ns);
      times.set(name, list);
    }
  }
  const rawStored = storedDocs.reduce((s, d) => s + d.length, 0);
  console.log(`${file.name}: ${(n / 1e6).toFixed(1)} MB, ${storedDocs.length} docs, stored JSON ${(rawStored / 1e6).toFixed(1)} MB, .fdt ${((results.get('store only') ?? 0) / 1e6).toFixed(2)} MB (${((100 * (results.get('store only') ?? 0)) / rawStored).toFixed(1)}%)`);
  for (const [name, list] of times) {
    console.log(`  ${name.padEnd(14)} ${(median(list) / n).toFixed(2).padStart(6)} ns/byte  (min ${(Math.min(...list) / n).toFixed(2)}, ${(median(list) / 1e6).toFixed(0)} ms)`);
  }
}
if (sink === 0) console.log('');
