/**
 * The one interface every benchmarked engine implements, so the runner times Yarrow and its peers
 * through exactly the same calls.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CorpusDoc, CorpusSpec } from '../corpus.js';
import type { BenchQuery } from '../queries.js';

/** Names of the benchmarked engines, in report order (Yarrow first; the others are its peers). */
export const ENGINE_NAMES = ['yarrow', 'yarrow-cli', 'yarrow-cli-full', 'sqlite-fts5', 'sqlite-fts5-file', 'xapian', 'minisearch'] as const;

/**
 * Engines that run only when `--engines` names them: `yarrow-cli-full` indexes more fields than the
 * peers (the full mapping), so it is not part of the like-for-like comparison.
 */
export const OPT_IN_ENGINES: readonly EngineName[] = ['yarrow-cli-full'];

/** The engines `npm run bench` runs when `--engines` is not given. */
export const DEFAULT_ENGINES: readonly EngineName[] = ENGINE_NAMES.filter((e) => !OPT_IN_ENGINES.includes(e));

/** One of {@link ENGINE_NAMES}. */
export type EngineName = (typeof ENGINE_NAMES)[number];

/** Whether a string names an engine. */
export function isEngineName(value: string): value is EngineName {
  return (ENGINE_NAMES as readonly string[]).includes(value);
}

/** An engine under test, created empty for one corpus. */
export interface BenchEngine {
  readonly name: EngineName;
  /** Indexes every document (the timed indexing phase, together with {@link BenchEngine.commit}). */
  index(docs: readonly CorpusDoc[]): Promise<void>;
  /** Makes the index durable (or final, for in-memory engines) and searchable. */
  commit(): Promise<void>;
  /** Size of the committed index in bytes. */
  indexBytes(): Promise<number>;
  /** Runs one query for the top 10 by BM25 and returns how many hits came back. */
  search(query: BenchQuery): Promise<number>;
  /**
   * For an engine in another process: the duration of the last search as that process measured
   * it, which the runner records instead of its own wall time so that the pipe does not count.
   */
  readonly lastSearchMs?: () => number;
  /** For an engine in another process: that process's RSS once its corpus was parsed, and its peak. */
  readonly processStats?: () => Promise<{ peakRssBytes: number; rssAfterLoadBytes: number }>;
  /** For an engine in another process: the CPU time that process spent indexing and committing. */
  readonly indexCpuMs?: () => number;
  /** Time spent inside {@link BenchEngine.index} on preparation that is not indexing (writing its input file). */
  readonly untimedIndexMs?: () => number;
  /** Releases the engine; the runner deletes its directory afterwards. */
  close(): Promise<void>;
}

/**
 * What each module under bench/engines/ exports. `dir` is a fresh empty directory the engine may
 * use for its files.
 */
export type CreateEngine = (corpus: CorpusSpec, dir: string) => Promise<BenchEngine>;

/** Total size in bytes of every file under `dir`, recursively. */
export async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await directoryBytes(full);
    else if (entry.isFile()) total += (await stat(full)).size;
  }
  return total;
}
