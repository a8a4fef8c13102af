/**
 * Latency summaries. Percentiles use the nearest-rank method (no interpolation), so every figure
 * reported is a latency that was actually measured.
 */

/** Summary of a set of latency samples, in milliseconds. */
export interface LatencySummary {
  readonly count: number;
  readonly mean: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

/**
 * The nearest-rank `p`-th percentile (0 < p <= 100) of samples already sorted ascending;
 * NaN when there are none.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** Summarizes latency samples (ms); the input is not modified. */
export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (const s of sorted) sum += s;
  return {
    count: sorted.length,
    mean: sorted.length === 0 ? Number.NaN : sum / sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1],
  };
}

/** Milliseconds elapsed since a `process.hrtime.bigint()` reading. */
export function msSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Measured rounds per benchmark: `$YARROW_BENCH_ROUNDS`, default 5. */
export function benchRounds(): number {
  const raw = process.env.YARROW_BENCH_ROUNDS;
  const n = raw === undefined || raw === '' ? 5 : Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`YARROW_BENCH_ROUNDS must be a positive integer, got ${raw}`);
  return n;
}

/** A full GC before a measured phase (best effort: without --expose-gc the figures are only noisier). */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Times `index(docs)` and then `commit()` of an engine under test, in ms. */
export async function timeIndexAndCommit<D>(engine: { index(docs: D): Promise<void>; commit(): Promise<void> }, docs: D): Promise<{ indexMs: number; commitMs: number }> {
  const indexStart = process.hrtime.bigint();
  await engine.index(docs);
  const indexMs = msSince(indexStart);
  const commitStart = process.hrtime.bigint();
  await engine.commit();
  return { indexMs, commitMs: msSince(commitStart) };
}
