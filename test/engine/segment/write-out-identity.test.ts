/**
 * The bytes a segment flush writes stay what they were when this test was made (main aa070a0):
 * the writers' speed-ups (term order, postings, term dictionary, ids, norms, stored fields' LZ4
 * compressor, buffers reused across segments) must not change a single byte. Each case flushes
 * real package metadata, or generated documents that reach the writers' rarer branches (unicode
 * and surrogate pairs in terms, terms in more than one postings block, stored documents larger
 * than a block, incompressible and highly repetitive text), twice in a row in one thread (the
 * second flush runs on whatever the first one left for reuse), and compares each file's SHA-256
 * with the digest recorded from the writers as they were.
 */
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getAnalyzer } from '../../../src/engine/analysis/index.js';
import { BulkBuffer } from '../../../src/engine/commit/bulk-chunk.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';
import { mulberry32 } from '../../../bench/queries.js';
import { corpusLines } from '../../helpers/corpus-sample.js';

const english = { type: 'text', search: { lexical: { analyze: 'english' } } };
const mapping = parseMapping({
  fields: {
    _id: { type: 'id' },
    name: english,
    summary: english,
    description: english,
    plain: { type: 'text', search: { lexical: { analyze: 'standard' } } },
    list: { type: 'text[]', search: { lexical: { analyze: 'english' } } },
    section: { type: 'text', search: false, filter: true },
  },
}, 'identity');

const WORDS = ['the', 'running', 'Runs', 'cache', 'cached', 'alpha', 'beta', 'gamma', 'delta', 'node', 'js', 'l10n', 'X11', '2024', "don't",
  'école', 'ÉCOLE', 'Straße', '東京タワー', 'ภาษาไทย', '😀', '😀x', '𝔘𝔫𝔦', 'a\u0301b', 'İstanbul', 'zoo', 'zebra', 'aardvark', 'q'.repeat(300)];

/** Generated JSON lines: ids that repeat (replaced docs), common and rare terms, long and random documents. */
function generated(docs: number, seed: number): Uint8Array {
  const next = mulberry32(seed);
  const pick = (): string => (next() < 0.7 ? WORDS[Math.floor(next() * WORDS.length)] : Math.floor(next() * 1e6).toString(36));
  const text = (n: number): string => Array.from({ length: n }, pick).join(next() < 0.5 ? ' ' : ', ');
  const lines: string[] = [];
  for (let d = 0; d < docs; d++) {
    const id = d % 97 === 5 ? `id-${d - 3}` : `id-${Math.floor(next() * 1e9)}`;
    const long = d % 211 === 0;
    const doc = {
      _id: id,
      name: text(1 + Math.floor(next() * 4)),
      summary: text(Math.floor(next() * 30)),
      description: long ? text(6000) : d % 53 === 0 ? 'x'.repeat(20_000) : text(Math.floor(next() * 120)),
      plain: d % 3 === 0 ? text(10) : undefined,
      list: d % 5 === 0 ? [text(3), text(2)] : undefined,
      section: `s${d % 7}`,
      noise: d % 89 === 0 ? Array.from({ length: 3000 }, () => String.fromCharCode(32 + Math.floor(next() * 90))).join('').replace(/["\\]/g, '.') : undefined,
    };
    lines.push(`${JSON.stringify(doc)}\n`);
  }
  return Buffer.from(lines.join(''));
}

/** Flushes `input` as two buffers of one thread (first half, second half); returns each file's digest by name. */
async function digests(input: Uint8Array): Promise<Record<string, string>> {
  let cut = input.indexOf(0x0a, input.length >> 1) + 1;
  if (cut <= 0) cut = input.length;
  const out: Record<string, string> = {};
  for (const [s, chunk] of [input.subarray(0, cut), input.subarray(cut)].entries()) {
    const buffer = new BulkBuffer(mapping, getAnalyzer, true, true);
    buffer.addChunk(chunk, 1, 'input.jsonl', 'test:');
    const { flushed } = await buffer.flush(`_${s}`);
    for (const [name, bytes] of [...flushed.files].sort(([a], [b]) => (a < b ? -1 : 1))) out[name] = createHash('sha256').update(bytes).digest('hex').slice(0, 24);
  }
  return out;
}

/** The digests as written by main aa070a0's writers. */
const RECORDED: Record<string, Record<string, string>> = {
  npm: {
    '_0.dvd': 'fb6b8e49bb0a68c900fcaccf',
    '_0.fdt': 'a5c7d8339055d2583a766bac',
    '_0.nrm': '25091917f6df437f8891d5e7',
    '_0.pos': '2b7c35a9af23f2418f0697ab',
    '_0.pst': '2b41c0ff0e09feedd89f757f',
    '_0.tdx': '9e9509b7ba12c6a087e5dba0',
    '_1.dvd': '6998173a56e09df43fec6ea0',
    '_1.fdt': '87a6ba2bc19ecfd134380beb',
    '_1.nrm': 'b64c99c93b53513fa83f94d8',
    '_1.pos': '06e2245e8a9885a2ab8e7d80',
    '_1.pst': 'be548bf225f76d4086a4beab',
    '_1.tdx': '7c729b099ed4582a41085074',
  },
  debian: {
    '_0.dvd': '0d9802b4e134ae95fa1d9af3',
    '_0.fdt': '3a431b97fc8994d9c2bab343',
    '_0.nrm': '18633c595ccda5a77e0a48b7',
    '_0.pos': '7d9e128f6bc0e07004abe3c6',
    '_0.pst': '0b1b01a94bfb83bd8ec634bc',
    '_0.tdx': '8a9a4afb9df546c5843c3e0f',
    '_1.dvd': '533daa199737a48605c7f937',
    '_1.fdt': '67fce26b5f8936c263172d60',
    '_1.nrm': 'c2d3dcf826a5ac4b514d2b94',
    '_1.pos': '78377d16fbdf9bdf6e86e48a',
    '_1.pst': '7c515083667c5303f86fabfa',
    '_1.tdx': 'a2700cbd2761b87b9019217e',
  },
  generated: {
    '_0.dvd': '3b2519d8e8c967c2af759cb3',
    '_0.fdt': '6d40655f3e6000b72b21977a',
    '_0.nrm': '8ebd74b0a995f996cdb0cfe0',
    '_0.pos': '1b3f3ebaf0b17da073cf0f37',
    '_0.pst': '4a1893d839ade494f9ecdf6f',
    '_0.tdx': '6d02ed4be8584cb18edd8643',
    '_1.dvd': '14af023a17972705fbc99b47',
    '_1.fdt': 'b459da1b42262a18ca4f4812',
    '_1.nrm': '28678e73a79cacadf71c65d1',
    '_1.pos': '7daaa626c38ed7cc89de2a00',
    '_1.pst': '43ea78487051691d30799c94',
    '_1.tdx': '9c3ddafd4ab2ffaccc63d494',
  },
};

describe('segment write-out', () => {
  for (const [name, input] of [
    ['npm', () => corpusLines('npm-packages.jsonl.gz', 12_000)],
    ['debian', () => corpusLines('debian-packages.jsonl.gz', 3_000)],
    ['generated', () => generated(3_000, 17)],
  ] as const) {
    it(`writes the same bytes as before, ${name}`, async () => {
      const got = await digests(input());
      if (process.env.YARROW_RECORD_DIGESTS !== undefined) appendFileSync(process.env.YARROW_RECORD_DIGESTS, `${JSON.stringify({ [name]: got })}\n`);
      assert.deepEqual(got, RECORDED[name]);
    });
  }
});
