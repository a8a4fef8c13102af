/**
 * The `sqlite-fts5-file` loader: what a user loading SQLite FTS5 from a JSON Lines file runs, so
 * that its whole run compares with `yarrow index file`'s. It reads the file in 1 MiB chunks, parses
 * each line with JSON.parse, inserts every document into the bench's FTS5 table (schema.ts) in one
 * transaction, commits, closes the database and reports its own figures on stderr: `docs=<n>`,
 * `max_rss_bytes=<n>` and `cpu_ms=<n>` (the format of `yarrow` under YARROW_REPORT_MAX_RSS=1).
 *
 * bench/engines/sqlite-fts5-file.ts bundles this file into plain JavaScript (better-sqlite3 left
 * external) and runs it with `node`, so neither TypeScript nor a loader is part of the timed run:
 * `node sqlite-fts5-load.mjs <input.jsonl> <database file> <field,field,...>`.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { CorpusDoc } from '../../corpus.js';
import { createTableSql, insertSql, rowValues } from './schema.js';

const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

/** Calls `onLine` with each non-blank line of `file` (without its newline) and its 1-based number. */
function forEachLine(file: string, onLine: (line: string, lineNo: number) => void): void {
  const fd = openSync(file, 'r');
  try {
    let buf = Buffer.allocUnsafe(CHUNK_BYTES);
    let filled = 0;
    let lineNo = 0;
    const emit = (start: number, end: number): void => {
      lineNo++;
      const line = buf.toString('utf8', start, end);
      if (line.trim() !== '') onLine(line, lineNo);
    };
    while (true) {
      // A line longer than the buffer grows it.
      if (filled === buf.length) buf = Buffer.concat([buf, Buffer.allocUnsafe(buf.length)]);
      const n = readSync(fd, buf, filled, buf.length - filled, null);
      if (n === 0) break;
      filled += n;
      let start = 0;
      for (let nl = buf.indexOf(NEWLINE, start); nl !== -1 && nl < filled; nl = buf.indexOf(NEWLINE, start)) {
        emit(start, nl);
        start = nl + 1;
      }
      // The partial last line moves to the front for the next read.
      buf.copy(buf, 0, start, filled);
      filled -= start;
    }
    if (filled > 0) emit(0, filled);
  } finally {
    closeSync(fd);
  }
}

function main(): void {
  const [input = '', dbFile = '', fieldList = ''] = process.argv.slice(2);
  if (input === '' || dbFile === '' || fieldList === '') throw new Error('usage: load-file <input.jsonl> <database file> <field,field,...>');
  const fields = fieldList.split(',');
  const db = new Database(dbFile);
  db.exec(createTableSql(fields));
  const insert = db.prepare(insertSql(fields));
  const values: (string | number)[] = [];
  let rows = 0;
  db.exec('BEGIN');
  forEachLine(input, (line, lineNo) => {
    const doc: unknown = JSON.parse(line);
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error(`${input}:${lineNo}: expected a JSON object`);
    rowValues(++rows, doc as CorpusDoc, fields, values);
    insert.run(values);
  });
  db.exec('COMMIT');
  db.close();
  const usage = process.resourceUsage();
  // maxRSS is in KiB; CPU times in microseconds.
  process.stderr.write(`docs=${rows}\nmax_rss_bytes=${usage.maxRSS * 1024}\ncpu_ms=${Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000)}\n`);
}

try {
  main();
} catch (err) {
  // One readable line (the runner reports the last lines of stderr), not a stack trace.
  process.stderr.write(`sqlite-fts5 loader failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
