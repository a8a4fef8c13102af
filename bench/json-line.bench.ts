/**
 * Micro-benchmark of the first step of a bulk-load thread alone: one JSON line to a validated
 * document and its stored JSON, by the flat-line fast path (`flat-json-bytes.ts`) and by the
 * general path (JSON.parse, validateDocument, JSON.stringify of the stored fields), rounds
 * interleaved, under the mapping `yarrow-cli` indexes with (`_id` and the searched fields).
 * Inversion, stored-fields compression and the threads are left out (bulk-chunk.bench.ts times
 * the whole of a thread's work).
 *
 *   node --max-semi-space-size=4 --import tsx bench/json-line.bench.ts [--corpus npm|debian|all]
 *
 * Prints per corpus and path the best round's CPU time per document.
 */
import { FlatLineBytes } from '../src/engine/schema/flat-json-bytes.js';
import { flatPlanOf } from '../src/engine/schema/flat-json-line.js';
import { validateDocument } from '../src/engine/schema/document.js';
import { parseMapping } from '../src/engine/schema/mapping.js';
import { CORPORA, CORPUS_NAMES, docLimit, isCorpusName, loadCorpus } from './corpus.js';
import type { CorpusName } from './corpus.js';
import { TEXT_MAPPINGS } from './engines/yarrow.js';

const ROUNDS = 4;

function corporaOf(argv: readonly string[]): readonly CorpusName[] {
  if (argv.length === 0 || argv[1] === 'all') return CORPUS_NAMES;
  return argv[1].split(',').map((c) => {
    if (!isCorpusName(c)) throw new Error(`unknown corpus ${c}; expected ${CORPUS_NAMES.join(', ')} or all`);
    return c;
  });
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

for (const corpus of corporaOf(process.argv.slice(2))) {
  const docs = await loadCorpus(CORPORA[corpus], docLimit());
  const bytes = Buffer.from(`${docs.map((d) => JSON.stringify(d)).join('\n')}\n`);
  const mapping = parseMapping({ fields: { _id: { type: 'id' }, ...TEXT_MAPPINGS[corpus].fields } }, corpus);
  const plan = flatPlanOf(mapping);
  if (plan === null) throw new Error(`the ${corpus} mapping does not take the fast path`);
  const reader = new FlatLineBytes(plan, () => true);
  const best = new Map<string, number>();
  let storedBytes = 0;
  let fallbacks = 0;
  const general = (start: number, end: number, line: number): number =>
    Buffer.byteLength(JSON.stringify(validateDocument(mapping, JSON.parse(bytes.toString('utf8', start, end)), { source: corpus, line }).stored));
  for (let r = 0; r < ROUNDS; r++) {
    for (const path of ['fast path', 'general path']) {
      const t = cpuMs();
      if (path === 'fast path') fallbacks = 0;
      for (let start = 0, line = 1; start < bytes.length; line++) {
        const end = bytes.indexOf(0x0a, start);
        if (path === 'general path') {
          storedBytes += general(start, end, line);
        } else if (reader.read(bytes, start, end, corpus, line, () => `${line}`) !== null) {
          storedBytes += reader.storedBytes().length;
        } else {
          fallbacks++;
          storedBytes += general(start, end, line);
        }
        start = end + 1;
      }
      const us = (1000 * (cpuMs() - t)) / docs.length;
      best.set(path, Math.min(best.get(path) ?? Infinity, us));
    }
  }
  console.log(`${corpus}: ${fallbacks} of ${docs.length} lines left to the general path by the fast path`);
  for (const [path, us] of best) console.log(`${corpus} ${path}: ${us.toFixed(2)} us CPU per doc (${docs.length} docs)`);
  if (storedBytes === 0) throw new Error('nothing stored');
}
