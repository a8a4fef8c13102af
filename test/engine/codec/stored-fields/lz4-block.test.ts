import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { corpusBytes } from '../../../helpers/corpus-sample.js';
import { compressLz4Block, decompressLz4Block, maxCompressedLength } from '../../../../src/engine/codec/stored-fields/lz4-block.js';

function compress(input: Uint8Array): Uint8Array {
  const out = new Uint8Array(maxCompressedLength(input.length));
  return out.slice(0, compressLz4Block(input, out));
}

function decompress(packed: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(length);
  const cursor = { src: 0, out: 0 };
  decompressLz4Block(packed, packed.length, out, cursor, length);
  assert.equal(cursor.out, length);
  assert.equal(cursor.src, packed.length);
  return out;
}

/** Bytes that repeat: runs drawn from a small alphabet, so the matcher finds matches of every length and offset. */
const repetitive = fc
  .array(fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.constantFrom(...['{"name":"', '","summary":"', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'ab'].map((s) => new TextEncoder().encode(s)))), { maxLength: 200 })
  .map((parts) => Uint8Array.from(parts.flatMap((p) => [...p])));

/** The first `bytes` of a real corpus. */
function realSample(file: string, bytes: number): Uint8Array {
  return Uint8Array.from(corpusBytes(file).subarray(0, bytes));
}

describe('compressLz4Block', () => {
  it('round-trips random (incompressible), repetitive and tiny inputs', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 3000 }), repetitive, fc.uint8Array({ maxLength: 16 })), (input) => {
        const packed = compress(input);
        assert.ok(packed.length <= maxCompressedLength(input.length));
        assert.deepEqual(decompress(packed, input.length), input);
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips real package metadata and compresses it', () => {
    for (const file of ['npm-packages.jsonl.gz', 'debian-packages.jsonl.gz']) {
      const sample = realSample(file, 1 << 20);
      for (let at = 0; at < sample.length; at += 16 * 1024) {
        const block = sample.subarray(at, at + 16 * 1024 + (at % 977));
        const packed = compress(block);
        assert.deepEqual(decompress(packed, block.length), block);
        assert.ok(packed.length < block.length * 0.6, `${file} at ${at}: ${packed.length} of ${block.length}`);
      }
    }
  });

  it('writes the same bytes for an input whatever it compressed before', () => {
    // One hash table serves every block of a thread and is cleared per window: nothing of an
    // earlier block may be matched, or a segment's bytes would depend on what its thread did before.
    fc.assert(
      fc.property(fc.array(fc.oneof(repetitive, fc.uint8Array({ maxLength: 3000 })), { minLength: 1, maxLength: 8 }), (inputs) => {
        const first = inputs.map(compress);
        for (const [i, input] of [...inputs.entries()].reverse()) {
          const packed = compress(input);
          assert.deepEqual(packed, first[i]);
          assert.deepEqual(decompress(packed, input.length), input);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('round-trips every kind of input at the sizes where the matcher changes its rules', () => {
    // Sizes around the 12 bytes before any match, a block of the writer, the 64 KiB window (a
    // longer input is matched window by window) and two windows.
    const sizes = [0, 1, 4, 5, 11, 12, 13, 17, 255, 16 * 1024, 16 * 1024 + 1, 65_523, 65_535, 65_536, 65_537, 65_548, 65_549, 131_072, 131_085, 200_001];
    const random = (n: number, seed: number): Uint8Array => fc.sample(fc.uint8Array({ minLength: n, maxLength: n }), { numRuns: 1, seed })[0];
    const json = new TextEncoder().encode(
      corpusBytes('npm-packages.jsonl.gz')
        .subarray(0, 300_000)
        .toString('utf8')
        .replace(/[^\n]*$/, ''),
    );
    const kinds: Record<string, (n: number) => Uint8Array> = {
      incompressible: (n) => random(n, n),
      zeros: (n) => new Uint8Array(n),
      // A short unit repeated: every match crosses the 64 KiB window boundary when there is one.
      repetitive: (n) => Uint8Array.from({ length: n }, (_, i) => '{"name":"left-pad"}'.charCodeAt(i % 19)),
      'package lines': (n) => json.subarray(0, n),
      // Incompressible bytes, then the same bytes again 40 KiB later: a match whose source is in
      // the window before (it must not be taken: offsets stay within the window).
      'repeat across a window': (n) => {
        const out = random(n, 3);
        if (n > 50_000) out.copyWithin(n - 10_000, n - 50_000, n - 40_000);
        return out;
      },
    };
    for (const [kind, make] of Object.entries(kinds)) {
      for (const n of sizes) {
        const input = make(n);
        assert.equal(input.length, n, `${kind} ${n}`);
        const packed = compress(input);
        assert.ok(packed.length <= maxCompressedLength(n), `${kind} ${n}: ${packed.length}`);
        assert.deepEqual(decompress(packed, n), input, `${kind} ${n}`);
        if (kind === 'zeros' || kind === 'repetitive') assert.ok(packed.length <= 64 + n / 200, `${kind} ${n}: ${packed.length}`);
        if (kind === 'package lines' && n >= 16 * 1024) assert.ok(packed.length < 0.45 * n, `${kind} ${n}: ${packed.length}`);
      }
    }
  });

  it('finds matches longer than the token and reaching 64 KiB back', () => {
    const unit = fc.sample(fc.uint8Array({ minLength: 70_000, maxLength: 70_000 }), { numRuns: 1, seed: 7 })[0];
    const input = new Uint8Array(140_000);
    input.set(unit);
    input.set(unit.subarray(0, 70_000), 70_000); // repeats at distance 70,000 > 65,535: no match there
    const zeros = new Uint8Array(100_000);
    assert.deepEqual(decompress(compress(input), input.length), input);
    const packedZeros = compress(zeros);
    assert.ok(packedZeros.length < 1000, `${packedZeros.length}`);
    assert.deepEqual(decompress(packedZeros, zeros.length), zeros);
  });
});

describe('decompressLz4Block', () => {
  it('stops at the length asked for and resumes to the same bytes', () => {
    fc.assert(
      fc.property(repetitive, fc.array(fc.nat(), { maxLength: 8 }), (input, stops) => {
        const packed = compress(input);
        const out = new Uint8Array(input.length);
        const cursor = { src: 0, out: 0 };
        for (const s of [...stops.map((x) => x % (input.length + 1)), input.length].sort((a, b) => a - b)) {
          decompressLz4Block(packed, packed.length, out, cursor, s);
          assert.ok(cursor.out >= s);
          assert.deepEqual(out.subarray(0, cursor.out), input.subarray(0, cursor.out));
        }
        assert.deepEqual(out, input);
      }),
      { numRuns: 200 },
    );
  });

  it('rejects damaged input with a RangeError and stays inside both buffers', () => {
    fc.assert(
      fc.property(repetitive, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }), fc.integer({ min: -3, max: 3 }), (input, flips, sizeDelta) => {
        const packed = compress(input);
        for (const [at, mask] of flips) if (packed.length > 0) packed[at % packed.length] ^= mask;
        const out = new Uint8Array(Math.max(0, input.length + sizeDelta));
        const cursor = { src: 0, out: 0 };
        try {
          decompressLz4Block(packed, packed.length, out, cursor, out.length);
        } catch (err) {
          assert.ok(err instanceof RangeError, String(err));
          return;
        }
        assert.ok(cursor.src <= packed.length && cursor.out <= out.length);
      }),
      { numRuns: 500 },
    );
  });

  it('rejects random garbage and cut input without hanging', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat({ max: 1000 }), (garbage, size) => {
        const out = new Uint8Array(size);
        const cursor = { src: 0, out: 0 };
        try {
          decompressLz4Block(garbage, garbage.length, out, cursor, size);
          assert.ok(cursor.src <= garbage.length && cursor.out <= size);
        } catch (err) {
          assert.ok(err instanceof RangeError, String(err));
        }
      }),
      { numRuns: 1000 },
    );
    const packed = compress(new TextEncoder().encode('{"name":"left-pad","summary":"pads the left"}'.repeat(20)));
    const out = new Uint8Array(900);
    for (let cut = 0; cut < packed.length; cut++) {
      const cursor = { src: 0, out: 0 };
      try {
        decompressLz4Block(packed, cut, out, cursor, out.length);
      } catch (err) {
        assert.ok(err instanceof RangeError);
        continue;
      }
      assert.ok(cursor.out < out.length, `cut at ${cut} still decodes everything`);
    }
  });
});
