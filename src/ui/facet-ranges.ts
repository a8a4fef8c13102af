/**
 * Range buckets for numeric and date facets. The page learns a field's smallest and largest value
 * once per index (a `term` aggregation of every value) and cuts that span into a few buckets with
 * round bounds (10, 20, 50 … or whole decades of years), which the `range` aggregation then counts
 * for every search.
 */
import type { RangeValue } from './url-state.js';

const MAX_BUCKETS = 6;
const DAY_MS = 86_400_000;

/** The step of at most {@link MAX_BUCKETS} buckets over `span`: 1, 2 or 5 times a power of ten. */
function niceStep(span: number, integral: boolean): number {
  const raw = span / MAX_BUCKETS;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? 10 * pow;
  return integral ? Math.max(1, Math.round(step)) : step;
}

/**
 * Buckets `[from, to)` covering `min..max`: round bounds, the first open below and the last open
 * above (so values added later still land in one). `integral` keeps bounds whole (int, long).
 * Dates (epoch milliseconds) are cut at whole days.
 */
export function rangeBuckets(min: number, max: number, type: string): RangeValue[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  const isDate = type === 'date' || type === 'datetime';
  const integral = type === 'int' || type === 'long';
  // One distinct value (or a span too narrow for round bounds): one bucket holding it all.
  if (max <= min || (max - min) / Math.max(Math.abs(min), Math.abs(max), 1) < 1e-9) return [{ from: min }];
  const unit = isDate ? DAY_MS : 1;
  const step = niceStep((max - min) / unit, integral || isDate) * unit;
  const start = Math.floor(min / step) * step;
  const bounds: number[] = [];
  for (let b = start + step; b <= max; b += step) bounds.push(roundTo(b, step));
  const buckets: RangeValue[] = [];
  bounds.forEach((b, i) => {
    buckets.push(i === 0 ? { to: b } : { from: bounds[i - 1], to: b });
  });
  buckets.push(bounds.length === 0 ? {} : { from: bounds[bounds.length - 1] });
  return buckets;
}

/** Removes floating-point noise from a bound that should be a multiple of `step` (0.1 + 0.2 …). */
function roundTo(v: number, step: number): number {
  const decimals = Math.min(20, Math.max(0, -Math.floor(Math.log10(step)) + 1));
  return Number(v.toFixed(decimals));
}

/** How a bucket reads: `1990 – 1999`, `< 1990`, `≥ 2020`, `8.5 – 9`, or dates `2001-01-01 – …`. */
export function describeRange(range: RangeValue, type: string): string {
  const isDate = type === 'date' || type === 'datetime';
  const integral = type === 'int' || type === 'long';
  const show = (v: number): string => (isDate ? new Date(v).toISOString().slice(0, 10) : v.toLocaleString('en-US', { maximumFractionDigits: 6, useGrouping: false }));
  const { from, to } = range;
  if (from === undefined && to === undefined) return 'any';
  if (from === undefined) return `< ${show(to!)}`;
  if (to === undefined) return `≥ ${show(from)}`;
  // Whole-number ranges read inclusively: [1990, 2000) is "1990 – 1999".
  if (integral && Number.isInteger(from) && Number.isInteger(to)) return to - from === 1 ? show(from) : `${show(from)} – ${show(to - 1)}`;
  if (isDate && to - from === DAY_MS) return show(from);
  return `${show(from)} – ${show(to)}`;
}
