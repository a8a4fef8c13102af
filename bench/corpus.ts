/**
 * The benchmark corpora: where they live, which fields are searched, and a loader that parses a
 * whole corpus into memory so that every engine times indexing alone, not gunzip or JSON.parse.
 */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';

/** Names of the corpora, in the order `--corpus all` runs them. */
export const CORPUS_NAMES = ['npm', 'debian'] as const;

/** One of {@link CORPUS_NAMES}. */
export type CorpusName = (typeof CORPUS_NAMES)[number];

/** A parsed JSON Lines document; fields may be missing or of any JSON type. */
export type CorpusDoc = Readonly<Record<string, unknown>>;

/** Static description of a corpus. */
export interface CorpusSpec {
  readonly name: CorpusName;
  /** File name inside the data directory. */
  readonly file: string;
  /** Free-text fields every engine indexes and searches, in the same order for every engine. */
  readonly textFields: readonly string[];
}

/** The corpora, by name. */
export const CORPORA: Readonly<Record<CorpusName, CorpusSpec>> = {
  npm: { name: 'npm', file: 'npm-packages.jsonl.gz', textFields: ['name', 'summary'] },
  debian: {
    name: 'debian',
    file: 'debian-packages.jsonl.gz',
    textFields: ['name', 'summary', 'description'],
  },
};

/** The `schema` section that the CLI benchmarks (index file, Kafka, S3) give the npm corpus. */
export const NPM_SCHEMA_YAML = `schema:
  npm:
    fields:
      _id: { type: id }
      name: { type: text, search: { lexical: { analyze: english } } }
      summary: { type: text, search: { lexical: { analyze: english } } }
      downloads_a_month: { type: long, sort: true, filter: true }
`;

/** The repository root (bench/ lives directly under it). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Whether a string names a corpus. */
export function isCorpusName(value: string): value is CorpusName {
  return (CORPUS_NAMES as readonly string[]).includes(value);
}

/**
 * The directory holding the corpus files: `$YARROW_BENCH_DATA` if set, else `../shared/data`
 * relative to the repository root (the corpora are shared, never copied into the repo).
 */
export function dataDir(): string {
  const override = process.env.YARROW_BENCH_DATA;
  if (override !== undefined && override !== '') return path.resolve(override);
  return path.resolve(REPO_ROOT, '..', 'shared', 'data');
}

/**
 * The per-corpus document cap from `$YARROW_BENCH_LIMIT`, or undefined for the whole corpus.
 * Throws on anything but a positive integer, so a typo cannot silently benchmark everything.
 */
export function docLimit(): number | undefined {
  const raw = process.env.YARROW_BENCH_LIMIT;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw new Error(`YARROW_BENCH_LIMIT must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return n;
}

/**
 * Streams a gzip'd JSON Lines corpus and returns its documents (at most `limit`). Blank lines are
 * skipped; a line that is not a JSON object fails loudly with its line number.
 *
 * A repeated `_id` (the Debian index lists a few packages twice) replaces the earlier document in
 * place, as an upsert would, so every engine indexes the same set of distinct documents.
 */
export async function loadCorpus(spec: CorpusSpec, limit?: number): Promise<CorpusDoc[]> {
  const file = path.join(dataDir(), spec.file);
  const input = createReadStream(file);
  const lines = createInterface({ input: input.pipe(createGunzip()), crlfDelay: Infinity });
  const docs: CorpusDoc[] = [];
  const rowOfId = new Map<string, number>();
  let lineNo = 0;
  try {
    for await (const line of lines) {
      lineNo++;
      if (line.trim() === '') continue;
      const value: unknown = JSON.parse(line);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new Error(`${file}:${lineNo}: expected a JSON object`);
      }
      const doc = value as CorpusDoc;
      const id = doc._id;
      const seen = typeof id === 'string' ? rowOfId.get(id) : undefined;
      if (seen !== undefined) {
        docs[seen] = doc;
        continue;
      }
      if (typeof id === 'string') rowOfId.set(id, docs.length);
      docs.push(doc);
      if (limit !== undefined && docs.length >= limit) break;
    }
  } finally {
    lines.close();
    input.destroy();
  }
  return docs;
}

/**
 * A document's field as plain text: '' when missing or null, array items joined by spaces, other
 * values stringified. Engines without their own field extraction (FTS5) use it.
 */
export function textOf(doc: CorpusDoc, field: string): string {
  const value = doc[field];
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(' ');
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
