/**
 * SQLite FTS5 peer: a plain on-disk database file, one FTS5 table over the corpus's text fields with
 * the porter stemmer plus the `_id` (sqlite-fts5/schema.ts), all inserts in one transaction, ranked
 * by FTS5's built-in bm25(). Its documents come parsed from the runner, so its docs/s is the inserts
 * and the commit alone; `sqlite-fts5-file` is the same table loaded from the JSON Lines file by a
 * process of its own, like `yarrow index file`.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import type { CorpusDoc, CorpusSpec } from '../corpus.js';
import type { BenchQuery } from '../queries.js';
import type { BenchEngine, CreateEngine } from './bench-engine.js';
import { directoryBytes } from './bench-engine.js';
import { createTableSql, insertSql, rowValues } from './sqlite-fts5/schema.js';

/** A term as an FTS5 string literal, so words like `and`/`or`/`near` are never read as operators. */
export function quote(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** The MATCH expression of a bench query: its quoted terms joined by OR or AND. */
export function matchExpression(query: Pick<BenchQuery, 'terms' | 'operator'>): string {
  return query.terms.map(quote).join(query.operator === 'and' ? ' AND ' : ' OR ');
}

/**
 * The bench's FTS5 query: top 10 by bm25 (lower is better in FTS5), returning each hit's `_id`
 * as Yarrow's search returns ids, so both pay for reading the id of every hit.
 */
export const SELECT_TOP10 = 'SELECT _id, bm25(t) AS s FROM t WHERE t MATCH ? ORDER BY s LIMIT 10';

/** Creates the FTS5 engine in `dir`. */
export const createEngine: CreateEngine = (corpus: CorpusSpec, dir: string) => {
  const db = new Database(path.join(dir, 'bench.db'));
  const fields = corpus.textFields;
  db.exec(createTableSql(fields));
  const insert = db.prepare(insertSql(fields));
  const select = db.prepare<[string], { _id: string; s: number }>(SELECT_TOP10);

  const engine: BenchEngine = {
    name: 'sqlite-fts5',
    index(docs: readonly CorpusDoc[]): Promise<void> {
      // The transaction stays open until commit(), so the one fsync is paid in the commit phase.
      db.exec('BEGIN');
      const values: (string | number)[] = [];
      for (let row = 0; row < docs.length; row++) {
        rowValues(row + 1, docs[row], fields, values);
        insert.run(values);
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
      return Promise.resolve(select.all(matchExpression(query)).length);
    },
    close(): Promise<void> {
      db.close();
      return Promise.resolve();
    },
  };
  return Promise.resolve(engine);
};
