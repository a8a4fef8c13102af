/**
 * `yarrow index file`: pulls JSONL from a path, directory, HTTP URL or S3 prefix into an index,
 * one commit per file, logs that indexing is done with the final seq, and exits 0. This is where
 * config, storage, sources and the engine are wired together.
 */
// Not the config barrel: a cached config loads neither yaml nor zod (config-cache.ts, issue 17).
import { loadConfigCached } from '../../config/config-cache.js';
import { prestartBulkThreads, stopPrestartedBulkThreads } from '../../engine/index.js';
import { FileIndexer, HttpFileSource, LocalFileSource, parseSourceUrl, ProgressReporter, SourceError, SourceUrlError } from '../../ingest/index.js';
import type { FileSource, SourceUrl } from '../../ingest/index.js';
import { BULK_THREADS, bundledBulkWorker } from '../bulk-prestart.js';
import { TerminalProgressBar } from '../progress-bar.js';
import { InterruptedError, UsageError } from '../usage-error.js';
import type { CommonOptions, ModeContext } from './mode-context.js';
import { mappingOf, openPullIndex } from './pull-index.js';

/** Options of `index file` (SPEC §1.1). */
export interface IndexFileOptions extends CommonOptions {
  readonly config: string;
  readonly index: string;
  readonly url: string;
  readonly recursive: boolean;
  readonly endpoint: string | undefined;
  /** `--force_merge <N>`: merge down to N segments after indexing (Nixiesearch 0.8). */
  readonly forceMerge?: number | undefined;
}

/** Runs `index file`; resolves to the exit code, throws the error that ended it. */
export async function runIndexFile(options: IndexFileOptions, ctx: ModeContext): Promise<number> {
  // The bulk-load threads start loading their code now, while this thread reads the config and
  // opens the store and the input; the first load hands them the mapping (issue 17).
  prestartBulkThreads(BULK_THREADS, bundledBulkWorker());
  try {
    return await indexFiles(options, ctx);
  } finally {
    // Those no load took (a mapping with semantic fields, an error before the first file).
    await stopPrestartedBulkThreads();
  }
}

async function indexFiles(options: IndexFileOptions, ctx: ModeContext): Promise<number> {
  const { log } = ctx;
  const loaded = await loadConfigCached(options.config, ctx.env);
  const mapping = mappingOf(loaded, options.config, options.index);
  const url = parseUrl(options.url);
  if (options.endpoint !== undefined && url.kind !== 's3') {
    throw new UsageError(`-e, --endpoint applies to s3:// URLs only, but -u is ${options.url}`);
  }
  const source = await createSource(options, url, ctx);
  const started = performance.now();
  try {
    const objects = await source.list();
    if (objects.length === 0) throw new SourceError(`${options.url}: no files to index`, options.url);
    // Files are bulk loaded on both cores (FileIndexer); a mapping with semantic fields embeds on
    // this thread and logs its batches, and then the second core inverts.
    const semantic = mapping.fields.some((f) => f.semantic != null);
    // No bulk load then: the prestarted threads would only hold memory.
    if (semantic) await stopPrestartedBulkThreads();
    const { index, store, close } = await openPullIndex(loaded, options.index, mapping, ctx, {
      memoryWarning: 'the store is memory: the index is discarded when this process exits',
      // A file must commit whole or not at all, so no size-triggered commit may cut one in two.
      writer: { maxWalBytes: Number.MAX_SAFE_INTEGER, inversionThreads: semantic ? 1 : 0 },
    });
    try {
      const display = ctx.stderr.isTTY === true ? new TerminalProgressBar(ctx.stderr, ctx.sink) : null;
      const progress = new ProgressReporter({ log: (message, fields) => { log.info(fields, message); }, display });
      for (const o of objects) progress.addTotal(o.size);
      log.info(`indexing ${objects.length} file${objects.length === 1 ? '' : 's'} from ${options.url} into index ${options.index} (${store.location})`);
      progress.start();
      let filesDone = 0;
      const indexer = new FileIndexer({
        target: index,
        progress,
        // A batch exists several times over while it is parsed, logged and handed to the inversion
        // thread (parsed, serialised for the log, encoded, copied): small batches bound that.
        batchBytes: 2 * 1024 * 1024,
        bulkThreads: BULK_THREADS,
        checkpointKey: options.url,
        signal: ctx.signal,
        interrupted: () => new InterruptedError('interrupted: the file being indexed was rolled back; files indexed before it stay committed'),
        onFileDone: (r) => {
          filesDone++;
          log.info(`indexed ${r.name}: ${r.docs} docs from ${r.lines} lines, seq=${r.seq}`);
        },
        onFileRolledBack: (name) => {
          const before = filesDone === 0 ? '' : `; the ${filesDone} file${filesDone === 1 ? '' : 's'} indexed before it stay${filesDone === 1 ? 's' : ''} committed`;
          log.warn(`rolled back ${name}: nothing of it is committed${before}`);
        },
      });
      let results;
      try {
        results = await indexer.indexAll(objects);
      } finally {
        progress.stop();
      }
      let seq = results[results.length - 1].seq;
      if (options.forceMerge !== undefined) {
        const before = index.stats().segments;
        await index.forceMerge(options.forceMerge);
        seq = (await index.commit()).seq;
        log.info(`force-merged index ${options.index} from ${before} to ${index.stats().segments} segment${index.stats().segments === 1 ? '' : 's'} (--force_merge ${options.forceMerge}), seq=${seq}`);
      }
      const seconds = (performance.now() - started) / 1000;
      const p = progress.snapshot();
      log.info(
        { files: results.length, docs: p.docs, seconds: Number(seconds.toFixed(3)), seq },
        `indexing done: ${p.docs} docs from ${results.length} file${results.length === 1 ? '' : 's'} in ${seconds.toFixed(1)} s ` +
          `(${Math.round(p.docs / Math.max(seconds, 1e-3))} docs/s, ${(p.bytes / 1e6 / Math.max(seconds, 1e-3)).toFixed(1)} MB/s); ` +
          `index ${options.index} is at seq=${seq}`,
      );
    } finally {
      await close();
    }
  } finally {
    (source as { close?: () => void }).close?.();
  }
  return 0;
}

function parseUrl(value: string): SourceUrl {
  try {
    return parseSourceUrl(value);
  } catch (e) {
    if (e instanceof SourceUrlError) throw new UsageError(`-u, --url: ${e.message}`);
    throw e;
  }
}

async function createSource(options: IndexFileOptions, url: SourceUrl, ctx: ModeContext): Promise<FileSource> {
  switch (url.kind) {
    case 'file':
      return new LocalFileSource(options.url, url.path, {
        recursive: options.recursive,
        onSkippedDirectory: (path) => { ctx.log.info(`skipping directory ${path} (use -r to index subdirectories)`); },
      });
    case 'http':
      return new HttpFileSource(url.url);
    case 's3': {
      // The AWS SDK takes a while to load: only s3:// URLs pay for it.
      const { S3FileSource } = await import('../../ingest/s3-file-source.js');
      return new S3FileSource(options.url, {
        bucket: url.bucket,
        prefix: url.prefix,
        env: ctx.env,
        ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
      });
    }
  }
}
