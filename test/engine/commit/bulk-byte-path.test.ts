/**
 * The bulk load's byte path (text values of ASCII lines inverted from the line's bytes,
 * `FieldInverter.invertAscii`) against the string path (the general path: JSON.parse,
 * validateDocument, the tokenizer's string scan): both must give the same segment files, byte for
 * byte, so the same terms, postings, positions and field lengths, on real package metadata and on
 * random text made of what the byte scan decides on (case, digits, apostrophes, JSON escapes,
 * over-long tokens, stop words) mixed with what it leaves to the string path (non-ASCII, `\u`
 * and `\/` escapes).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { getAnalyzer } from '../../../src/engine/analysis/index.js';
import { asciiByteClasses, bmpCharTable, byteApostrophe, byteEscape, byteSeparator, byteUpper, byteWord, apostropheClass, classMask, lowerFlag, separatorClass, wordClass } from '../../../src/engine/analysis/char-class.js';
import { BulkBuffer } from '../../../src/engine/commit/bulk-chunk.js';
import { FieldInverter } from '../../../src/engine/segment/field-inverter.js';
import { parseMapping } from '../../../src/engine/schema/mapping.js';
import type { Mapping } from '../../../src/engine/schema/mapping.js';
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
    de: { type: 'text', search: { lexical: { analyze: 'german' } } },
    section: { type: 'text', search: false, filter: true },
  },
}, 'bytes');

/** Counts the values the byte path inverts (the real method runs), so a test knows it took that path. */
function countByteValues(): { readonly count: () => number; readonly restore: () => void } {
  type InvertAscii = (this: FieldInverter, ...args: Parameters<FieldInverter['invertAscii']>) => boolean;
  const original = Object.getOwnPropertyDescriptor(FieldInverter.prototype, 'invertAscii')!.value as InvertAscii;
  let n = 0;
  FieldInverter.prototype.invertAscii = function (this: FieldInverter, ...args: Parameters<InvertAscii>): boolean {
    const taken = original.apply(this, args);
    if (taken) n++;
    return taken;
  };
  return { count: () => n, restore: () => { FieldInverter.prototype.invertAscii = original; } };
}

/** The segment files of `chunk` loaded through the fast path (from bytes where it can, or strings) or the general path. */
async function segmentOf(m: Mapping, chunk: Uint8Array, path: 'bytes' | 'strings' | 'general'): Promise<[string, Uint8Array][]> {
  const buffer = new BulkBuffer(m, getAnalyzer, path !== 'general', path === 'bytes');
  buffer.addChunk(chunk, 1, 'input.jsonl', 'test:');
  const { flushed } = await buffer.flush('_0');
  return [...flushed.files].sort(([a], [b]) => (a < b ? -1 : 1));
}

/** Words the byte scan must split, case and join exactly as the string scan does. */
const asciiWord = fc.oneof(
  fc.constantFrom('the', 'The', 'AND', 'of', 'running', 'Runs', 'RUNNER', "don't", "DON'T", "o'", "'tis", "rock'n'roll", "x''y", 'l10n', 'X11', '0', '2024',
    'caching', 'Cached', 'a', 'I', 'e.g.', 'foo_bar', 'foo-bar', 'C++', 'node.js'),
  fc.stringMatching(/^[A-Za-z0-9']{1,12}$/),
  fc.constantFrom('a'.repeat(255), 'B'.repeat(256), `${'c'.repeat(200)}'${'d'.repeat(60)}`, 'q'.repeat(300)),
);
/** Words that send their line to the string path. */
const otherWord = fc.constantFrom('ÉCOLE', 'école', 'Straße', 'don’t', '東京タワー', 'ภาษาไทย', '😀', 'a\u0301b', 'İstanbul', '\u00a0', '\u2028');
const word = fc.oneof({ weight: 30, arbitrary: asciiWord }, { weight: 1, arbitrary: otherWord });
const gap = fc.constantFrom(' ', '  ', '\n', '\t', '\r\n', ', ', '. ', '"', '\\', '/', ' (', ') ', "'", " '", "' ", '\b', '\f', '-', '_', '\u0001');
const text = fc.array(fc.tuple(word, gap), { maxLength: 24 }).map((parts) => parts.map(([w, g]) => w + g).join(''));

/** A document as a JSON line, at times with the escapes JSON.stringify does not write (`\/`, `\u`). */
const line = fc.tuple(
  fc.record({
    _id: fc.string({ minLength: 1, maxLength: 6 }),
    name: fc.oneof(text, fc.constant(undefined)),
    summary: fc.oneof(text, fc.constant(undefined)),
    description: fc.oneof(text, fc.constant(undefined)),
    plain: fc.oneof(text, fc.constant(undefined)),
    list: fc.oneof(fc.array(text, { maxLength: 3 }), text, fc.constant(undefined)),
    de: fc.oneof(text, fc.constant(undefined)),
    section: fc.oneof(text, fc.constant(undefined)),
  }, { requiredKeys: ['_id'] }),
  fc.constantFrom('plain', 'plain', 'plain', 'slash', 'unicode'),
).map(([doc, style]) => {
  const json = JSON.stringify(doc);
  if (style === 'slash') return json.replaceAll('/', '\\/');
  if (style === 'unicode') return json.replaceAll('e', '\\u0065').replaceAll('\\n', '\\u000a');
  return json;
});

describe('bulk load byte path', () => {
  it('reads the ASCII characters as the standard tokenizer classes them', () => {
    const table = bmpCharTable();
    for (let c = 0; c < 0x80; c++) {
      const cls = table[c] & classMask;
      const expected = c === 0x5c ? byteEscape
        : cls === wordClass ? ((table[c] & lowerFlag) !== 0 ? byteUpper : byteWord)
          : cls === apostropheClass ? byteApostrophe : byteSeparator;
      assert.equal(cls === separatorClass || cls === wordClass || cls === apostropheClass, true, `code ${c}`);
      assert.equal(asciiByteClasses[c], expected, `code ${c}`);
    }
  });

  it('gives the segment the string path gives on npm and Debian package metadata', async () => {
    const counter = countByteValues();
    try {
      for (const file of ['npm-packages.jsonl.gz', 'debian-packages.jsonl.gz']) {
        const sample = corpusLines(file, 4000);
        const before = counter.count();
        const bytes = await segmentOf(mapping, sample, 'bytes');
        // Most values of these corpora take the byte path: the comparison covers it.
        assert.ok(counter.count() - before > 4000, `${file}: ${counter.count() - before} values inverted from bytes`);
        assert.deepEqual(bytes, await segmentOf(mapping, sample, 'general'), file);
        assert.deepEqual(bytes, await segmentOf(mapping, sample, 'strings'), file);
      }
    } finally {
      counter.restore();
    }
  });

  it('gives the segment the string path gives on random ASCII, unicode and escape-laden text', async () => {
    const counter = countByteValues();
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 12 }), async (lines) => {
          const chunk = Buffer.from(`${lines.join('\n')}\n`);
          const bytes = await segmentOf(mapping, chunk, 'bytes');
          assert.deepEqual(bytes, await segmentOf(mapping, chunk, 'general'));
          assert.deepEqual(bytes, await segmentOf(mapping, chunk, 'strings'));
        }),
        { numRuns: 400 },
      );
      assert.ok(counter.count() > 1000, `${counter.count()} values inverted from bytes`);
    } finally {
      counter.restore();
    }
  });
});
