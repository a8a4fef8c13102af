/**
 * SQLite FTS5 peer: a plain on-disk database file, one FTS5 table over the corpus's text fields with
 * the porter stemmer, all inserts in one transaction, ranked by FTS5's built-in bm25().
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import type { CorpusDoc, CorpusSpec } from '../corpus.js';
import { textOf } from '../corpus.js';
import type { BenchQuery } from '../queries.js';
import type { BenchEngine, CreateEngine } from './bench-engine.js';
import { directoryBytes } from './bench-engine.js';

/** FTS5 column names must be identifiers; the corpus field names already are, but check anyway. */
function column(field: string): string {
  if (!/^[a-z_][a-z0-9_]*$/i.test(field)) throw new Error(`unsupported field name for FTS5: ${field}`);
  return field;
}

/** A term as an FTS5 string literal, so words like `and`/`or`/`near` are never read as operators. */
function quote(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** Creates the FTS5 engine in `dir`. */
export const createEngine: CreateEngine = (corpus: CorpusSpec, dir: string) => {
  const db = new Database(path.join(dir, 'bench.db'));
  const columns = corpus.textFields.map(column);
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(${columns.join(', ')}, tokenize='porter unicode61')`);
  const insert = db.prepare(
    `INSERT INTO t(rowid, ${columns.join(', ')}) VALUES (?, ${columns.map(() => '?').join(', ')})`,
  );
  const select = db.prepare<[string], { rowid: number; s: number }>(
    'SELECT rowid, bm25(t) AS s FROM t WHERE t MATCH ? ORDER BY s LIMIT 10',
  );

  const engine: BenchEngine = {
    name: 'sqlite-fts5',
    index(docs: readonly CorpusDoc[]): Promise<void> {
      // The transaction stays open until commit(), so the one fsync is paid in the commit phase.
      db.exec('BEGIN');
      const values: string[] = new Array<string>(columns.length);
      for (let row = 0; row < docs.length; row++) {
        const doc = docs[row];
        for (let c = 0; c < columns.length; c++) values[c] = textOf(doc, columns[c]);
        insert.run(row + 1, ...values);
      }
      return Promise.resolve();
    },
    commit(): Promise<void> {
      db.exec('COMMIT');
      return Promise.resolve();
    },
    indexBytes(): Promise<number> {
      return directoryBytes(dir);
    },
    search(query: BenchQuery): Promise<number> {
      const match = query.terms.map(quote).join(query.operator === 'and' ? ' AND ' : ' OR ');
      return Promise.resolve(select.all(match).length);
    },
    close(): Promise<void> {
      db.close();
      return Promise.resolve();
    },
  };
  return Promise.resolve(engine);
};
