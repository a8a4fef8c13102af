/**
 * The indexing comparison of `npm run bench` (issue 17): every engine indexes the same fields, the
 * `sqlite-fts5-file` loader loads the same table from a JSON Lines file as the in-memory FTS5 engine
 * does from parsed documents, and the report's ratios are computed against the right rows.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { parse } from 'yaml';
import type { CorpusDoc, CorpusName, CorpusSpec } from '../../bench/corpus.js';
import { CORPORA, CORPUS_NAMES } from '../../bench/corpus.js';
import type { EngineResult } from '../../bench/engine-result.js';
import type { BenchEngine } from '../../bench/engines/bench-engine.js';
import { DEFAULT_ENGINES, ENGINE_NAMES } from '../../bench/engines/bench-engine.js';
import { runLoader } from '../../bench/engines/file-load.js';
import { buildLoader, createEngine as createFileEngine } from '../../bench/engines/sqlite-fts5-file.js';
import { createEngine as createFts5Engine } from '../../bench/engines/sqlite-fts5.js';
import { createEngine as createCliFullEngine } from '../../bench/engines/yarrow-cli-full.js';
import { createEngine as createCliEngine } from '../../bench/engines/yarrow-cli.js';
import { benchSearchRequest } from '../../bench/engines/yarrow-request.js';
import { MAPPINGS, TEXT_MAPPINGS } from '../../bench/engines/yarrow.js';
import type { BenchQuery } from '../../bench/queries.js';
import { buildQuerySet } from '../../bench/queries.js';
import { checkTargets, formatIndexingTable, indexingRows } from '../../bench/report.js';

describe('bench mappings', () => {
  it('index exactly the searched fields (plus the implicit _id) in the like-for-like mapping, and more only in the full one', () => {
    for (const name of CORPUS_NAMES) {
      assert.deepEqual(Object.keys(TEXT_MAPPINGS[name].fields), [...CORPORA[name].textFields], name);
      const extra = Object.keys(MAPPINGS[name].fields).filter((f) => !CORPORA[name].textFields.includes(f));
      assert.ok(extra.length > 0, `${name}: the full mapping adds filter/sort fields`);
    }
  });

  it('search only fields of the like-for-like mapping', () => {
    // Words w0..w199, w<k> in every (k+1)-th document: a few frequent, many rare.
    const docs: CorpusDoc[] = Array.from({ length: 1000 }, (_, i) => ({
      _id: `d${i}`,
      name: `pkg${i}`,
      summary: Array.from({ length: 200 }, (_, k) => k).filter((k) => i % (k + 1) === 0).map((k) => `w${k}`).join(' '),
      downloads_a_month: i,
    }));
    const queries = buildQuerySet(docs, CORPORA.npm.textFields);
    assert.ok(queries.length > 0);
    for (const q of queries) {
      const request = benchSearchRequest(q, CORPORA.npm.textFields) as { query: { multi_match: { fields: string[] } } };
      for (const f of request.query.multi_match.fields) assert.ok(f in TEXT_MAPPINGS.npm.fields, `query field ${f}`);
    }
  });

  it('leave the full-mapping engine out of a default run', () => {
    assert.ok(ENGINE_NAMES.includes('yarrow-cli-full'));
    assert.ok(!DEFAULT_ENGINES.includes('yarrow-cli-full'));
    for (const e of ['yarrow', 'yarrow-cli', 'sqlite-fts5', 'sqlite-fts5-file', 'xapian'] as const) assert.ok(DEFAULT_ENGINES.includes(e), e);
  });
});

describe('sqlite-fts5-file', () => {
  const corpus: CorpusSpec = { name: 'debian', file: 'unused.jsonl.gz', textFields: ['name', 'summary', 'description'] };
  const docs: CorpusDoc[] = [
    { _id: 'zlib1g', name: 'zlib1g', summary: 'compression library - runtime', description: 'zlib is a library implementing the deflate compression method', section: 'libs' },
    { _id: 'gzip', name: 'gzip', summary: 'GNU compression utilities', description: 'This package provides the standard GNU file compression utilities', tags: ['a', 'b'] },
    { _id: 'ümlaut', name: 'ümlaut', summary: 'Unicode naïve test', description: null },
    { _id: 'tar-quux', name: 'tar', summary: 'archiving utility', installed_size: 3000 },
  ];
  const queries: BenchQuery[] = [
    { class: 'frequent-1', terms: ['compression'], operator: 'or' },
    { class: 'and-2', terms: ['gnu', 'utilities'], operator: 'and' },
    { class: 'or-2', terms: ['naive', 'archiving'], operator: 'or' },
  ];
  let dir = '';
  before(async () => { dir = await mkdtemp(path.join(tmpdir(), 'yarrow-bench-test-')); });
  after(async () => { await rm(dir, { recursive: true, force: true }); });

  async function loaded(create: typeof createFileEngine, sub: string): Promise<BenchEngine> {
    const engineDir = await mkdtemp(path.join(dir, sub));
    const engine = await create(corpus, engineDir);
    await engine.index(docs);
    await engine.commit();
    return engine;
  }

  it('loads the same table from the JSON Lines file as sqlite-fts5 from parsed documents, in a process of its own', async () => {
    const fromFile = await loaded(createFileEngine, 'file-');
    const inMemory = await loaded(createFts5Engine, 'mem-');
    try {
      for (const q of queries) assert.equal(await fromFile.search(q), await inMemory.search(q), q.terms.join(' '));
      assert.equal(await fromFile.search(queries[0]), 2);
      assert.ok((fromFile.indexCpuMs?.() ?? 0) > 0, 'the child reports its CPU time');
      assert.ok(((await fromFile.processStats?.())?.peakRssBytes ?? 0) > 10 * 2 ** 20, 'the child reports its peak RSS');
      assert.ok((fromFile.untimedIndexMs?.() ?? -1) >= 0);
    } finally {
      await fromFile.close();
      await inMemory.close();
    }
  });

  it('keeps each document\'s _id, not tokenized', async () => {
    const engineDir = await mkdtemp(path.join(dir, 'ids-'));
    const engine = await createFileEngine(corpus, engineDir);
    await engine.index(docs);
    await engine.close();
    const db = new Database(path.join(engineDir, 'db', 'bench.db'), { readonly: true });
    try {
      const ids = db.prepare<[], { rowid: number; _id: string }>('SELECT rowid, _id FROM t ORDER BY rowid').all();
      assert.deepEqual(ids.map((r) => r._id), docs.map((d) => d._id));
      assert.deepEqual(ids.map((r) => r.rowid), [1, 2, 3, 4]);
      // The id column is UNINDEXED: a word only in an _id matches nothing.
      assert.deepEqual(db.prepare('SELECT rowid FROM t WHERE t MATCH ?').all('"quux"'), []);
      assert.deepEqual(db.prepare('SELECT rowid FROM t WHERE t MATCH ?').all('"tar"'), [{ rowid: 4 }]);
    } finally {
      db.close();
    }
  });

  it('fails naming the line that is not a JSON object, and reads lines longer than its buffer', async () => {
    const loader = await buildLoader();
    const bad = path.join(dir, 'bad.jsonl');
    await writeFile(bad, `${JSON.stringify(docs[0])}\n\n[1, 2]\n`);
    await assert.rejects(runLoader('loader', [loader, bad, path.join(dir, 'bad.db'), 'name,summary']), /bad\.jsonl:3: expected a JSON object/);

    const long = path.join(dir, 'long.jsonl');
    const description = 'word '.repeat(300_000);
    await writeFile(long, `${JSON.stringify({ _id: 'a', name: 'a', description })}\r\n${JSON.stringify({ _id: 'b', name: 'b', description: 'short' })}`);
    const run = await runLoader('loader', [loader, long, path.join(dir, 'long.db'), 'name,description']);
    assert.match(run.stderr, /^docs=2$/m);
  });
});

describe('yarrow-cli engines (needs npm run build)', () => {
  const corpus = CORPORA.npm;
  const docs: CorpusDoc[] = [
    { _id: 'left-pad', name: 'left-pad', summary: 'String left pad', downloads_a_month: 5 },
    { _id: 'right-pad', name: 'right-pad', summary: 'pad a string on the right', downloads_a_month: 7 },
    { _id: 'lodash', name: 'lodash', summary: 'Lodash modular utilities.', downloads_a_month: 9 },
  ];
  const pad: BenchQuery = { class: 'frequent-1', terms: ['pad'], operator: 'or' };

  const cases = [
    ['yarrow-cli', createCliEngine, ['_id', 'name', 'summary']],
    ['yarrow-cli-full', createCliFullEngine, ['_id', 'name', 'summary', 'downloads_a_month']],
  ] as const;
  for (const [name, create, fields] of cases) {
    it(`${name} maps ${fields.join(', ')}, indexes the file through yarrow index file and searches it in its child`, async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'yarrow-bench-cli-'));
      const engine = await create(corpus, dir);
      try {
        const config = parse(await readFile(path.join(dir, 'yarrow.yml'), 'utf8')) as { schema: { npm: { fields: object } } };
        assert.deepEqual(Object.keys(config.schema.npm.fields), fields);
        await engine.index(docs);
        await engine.commit();
        assert.equal(await engine.search(pad), 2);
        assert.equal(await engine.search({ class: 'and-2', terms: ['pad', 'right'], operator: 'and' }), 1);
        assert.ok((engine.indexCpuMs?.() ?? 0) > 0);
        assert.ok(((await engine.processStats?.())?.peakRssBytes ?? 0) > 0);
      } finally {
        await engine.close();
        await rm(dir, { recursive: true, force: true });
      }
    });
  }
});

/** An engine result with the figures the indexing report reads. */
function result(engine: EngineResult['engine'], corpus: CorpusName, docsPerSec: number, indexCpuMs: number, peakRssBytes = 100 * 2 ** 20): EngineResult {
  const summary = { count: 1, mean: 1, p50: 1, p95: 1, p99: 1, max: 1 };
  return {
    engine, corpus, docs: 100_000, queries: 1, queryFingerprint: 'f', rounds: 1, loadMs: 0, indexMs: 1, commitMs: 0, docsPerSec, indexCpuMs,
    indexBytes: 1, rssAfterLoadBytes: 0, peakRssBytes,
    latency: { overall: summary, byClass: { 'frequent-1': summary, 'rare-1': summary, 'or-2': summary, 'or-3': summary, 'and-2': summary, 'and-3': summary } },
    hits: { 'frequent-1': { mean: 1, zero: 0 }, 'rare-1': { mean: 1, zero: 0 }, 'or-2': { mean: 1, zero: 0 }, 'or-3': { mean: 1, zero: 0 }, 'and-2': { mean: 1, zero: 0 }, 'and-3': { mean: 1, zero: 0 } },
  };
}

describe('indexing report', () => {
  const ok = (r: EngineResult) => ({ engine: r.engine, ok: true as const, result: r });
  const npm = [
    ok(result('yarrow-cli', 'npm', 50_000, 4000, 250 * 2 ** 20)),
    ok(result('sqlite-fts5', 'npm', 200_000, 500)),
    ok(result('sqlite-fts5-file', 'npm', 100_000, 1000)),
    ok(result('xapian', 'npm', 25_000, 4000)),
  ];

  it('prints yarrow index file against both FTS5 rows and Xapian, in docs/s and docs per CPU-second', () => {
    const rows = indexingRows({ npm, debian: [{ engine: 'yarrow-cli', ok: false, error: 'boom' }] });
    assert.equal(rows.length, 1, 'a corpus whose yarrow-cli failed has no row');
    const text = formatIndexingTable(rows);
    const [wallLine, cpuLine] = text.split('\n').filter((l) => l.startsWith('npm, 100,000 docs'));
    // docs/s: 50k / 200k, 50k / 100k, 50k / 25k; Xapian / FTS5 = 0.13; peak RSS 250 MB.
    assert.match(wallLine, /^npm, 100,000 docs\s+50,000\s+0\.25x\s+0\.50x\s+2\.00x\s+200,000\s+100,000\s+25,000 \(0\.13x\)\s+250$/);
    // docs/cpu-s: 25k vs 200k, 100k and 25k.
    assert.match(cpuLine, /^npm, 100,000 docs\s+25,000\s+0\.13x\s+0\.25x\s+1\.00x\s+200,000\s+100,000\s+25,000 \(0\.13x\)\s+250$/);
    assert.match(text, /x FTS5 \(issue\): against sqlite-fts5, documents parsed in memory/);
  });

  it('checks the issue\'s indexing target against in-memory FTS5 when only yarrow-cli ran', () => {
    const checks = checkTargets({ cli: npm[0].result, fts5: npm[1].result, xapian: npm[3].result });
    const indexing = checks.find((c) => c.target.startsWith('indexing docs/s (index file)'));
    assert.deepEqual(indexing && { yarrow: indexing.yarrow, goal: indexing.goal, met: indexing.met }, { yarrow: 50_000, goal: 200_000, met: false });
    assert.ok(checks.some((c) => c.target === 'index file peak RSS MB <= 300' && c.met));
    assert.deepEqual(checkTargets({ fts5: npm[1].result }), []);
  });
});
