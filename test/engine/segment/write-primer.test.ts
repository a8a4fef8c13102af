import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import fc from 'fast-check';
import { getAnalyzer } from '../../../src/engine/analysis/analyzers.js';
import { compressLz4Block, decompressLz4Block, maxCompressedLength } from '../../../src/engine/codec/stored-fields/lz4-block.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';
import { validateDocument } from '../../../src/engine/schema/document.js';
import { SegmentBuffer } from '../../../src/engine/segment/segment-buffer.js';
import { sortedTermIds } from '../../../src/engine/segment/term-order.js';
import { primeSegmentWrite } from '../../../src/engine/segment/write-primer.js';
import { temporaryDirectories } from '../../helpers/temp-dirs.js';

const tempDir = temporaryDirectories('yarrow-write-primer-');

/**
 * Runs a fresh Node process (with V8's natives) that optimises a typed-array loop, after making a
 * segment buffer or not, then transfers an ArrayBuffer as a flush's reply does; returns whether
 * the loop's optimised code survived the transfer. The probe is bundled and run by plain node: a
 * module loader's own hooks (tsx) transfer buffers of their own at start.
 */
async function optimisedCodeSurvivesTransfer(makeBufferFirst: boolean): Promise<boolean> {
  const dir = await tempDir();
  const source = (path: string): string => JSON.stringify(new URL(path, import.meta.url).pathname);
  const probe = `
import { getAnalyzer } from ${source('../../../src/engine/analysis/analyzers.ts')};
import { parseMapping } from ${source('../../../src/engine/schema/mapping.ts')};
import { SegmentBuffer } from ${source('../../../src/engine/segment/segment-buffer.ts')};
const natives = (call: string) => new Function('f', \`return %\${call}(f)\`) as (f: unknown) => number;
const mapping = parseMapping({ fields: { _id: { type: 'id' }, body: { type: 'text', search: { lexical: { analyze: 'english' } } } } }, 'probe');
if (process.argv[2] === 'buffer') new SegmentBuffer(mapping, getAnalyzer);
function sum(a: Int32Array): number { let s = 0; for (let i = 0; i < a.length; i++) s += a[i]; return s; }
const values = new Int32Array(1000).fill(1);
natives('PrepareFunctionForOptimization')(sum);
sum(values);
sum(values);
natives('OptimizeFunctionOnNextCall')(sum);
sum(values);
const optimised = (natives('GetOptimizationStatus')(sum) & 16) !== 0;
const reply = new ArrayBuffer(64);
structuredClone(reply, { transfer: [reply] });
console.log(JSON.stringify({ optimised, after: (natives('GetOptimizationStatus')(sum) & 16) !== 0 }));
`;
  const bundle = join(dir, 'probe.mjs');
  await esbuild.build({ stdin: { contents: probe, loader: 'ts', resolveDir: dir }, bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'error', banner: { js: "import { createRequire as probeRequire } from 'node:module'; const require = probeRequire(import.meta.url);" } });
  const { stdout } = await promisify(execFile)(process.execPath, ['--allow-natives-syntax', bundle, makeBufferFirst ? 'buffer' : 'none']);
  const { optimised, after } = JSON.parse(stdout) as { optimised: boolean; after: boolean };
  assert.equal(optimised, true, 'the probe loop was optimised before the transfer');
  return after;
}

const mapping = parseMapping({ fields: { _id: { type: 'id' }, body: { type: 'text', search: { lexical: { analyze: 'english' } } } } }, 'test');

/** The files of a segment of `bodies`, written through a fresh buffer. */
async function segmentOf(bodies: readonly string[]): Promise<Map<string, Uint8Array>> {
  const buffer = new SegmentBuffer(mapping, getAnalyzer);
  bodies.forEach((body, i) => {
    const source = { _id: `d${i}`, body };
    buffer.add(validateDocument(mapping, source), `d${i}`, JSON.stringify(source));
  });
  return new Map((await buffer.flush('_0')).files);
}

describe('write-out primer', () => {
  it('leaves no state behind: the flush that primes writes the bytes a later flush writes', async () => {
    // The primer runs once per thread (module instance), at the start of the first flush here.
    const bodies = ['Árvíztűrő tükörfúrógép 😀 packages', 'the quick brown fox', 'a package of packages', 'zz 12 3.4.5'];
    const before = await segmentOf(bodies);
    primeSegmentWrite();
    primeSegmentWrite();
    assert.deepEqual(await segmentOf(bodies), before);
  });

  it('keeps optimised code through a thread\'s first transfer once a segment buffer was made', async () => {
    // The premise: an isolate's first detached ArrayBuffer throws away optimised typed-array code.
    assert.equal(await optimisedCodeSurvivesTransfer(false), false);
    // A segment buffer detaches one when made, before the thread's hot code is compiled.
    assert.equal(await optimisedCodeSurvivesTransfer(true), true);
  });

  it('leaves the term sort and the LZ4 matcher exact after priming', () => {
    primeSegmentWrite();
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 8 }), { maxLength: 120 }), (raw) => {
        const terms = [...new Set(raw)];
        assert.deepEqual([...sortedTermIds(terms)].map((id) => terms[id]), [...terms].sort());
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 1, max: 40 }), (seed, repeat) => {
        const input = new Uint8Array(seed.length * repeat);
        for (let r = 0; r < repeat; r++) input.set(seed, r * seed.length);
        const out = new Uint8Array(maxCompressedLength(input.length));
        const n = compressLz4Block(input, out);
        const decoded = new Uint8Array(input.length);
        decompressLz4Block(out.subarray(0, n), n, decoded, { src: 0, out: 0 }, input.length);
        assert.deepEqual(decoded, input);
      }),
      { numRuns: 100 },
    );
  });
});
