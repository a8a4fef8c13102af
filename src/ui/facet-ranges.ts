/**
 * Range buckets for numeric and date facets. The page learns a field's smallest and largest value
 * once per index (a `term` aggregation of every value) and cuts that span into a few buckets with
 * round bounds (10, 20, 50 …; dates on calendar years, months or days), which the `range`
 * aggregation then counts for every search.
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
 * above (so values added later still land in one). Bounds of int and long fields are whole;
 * dates (epoch milliseconds) are cut on the first day of years, months, or at whole days.
 */
export function rangeBuckets(min: number, max: number, type: string): RangeValue[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  const isDate = type === 'date' || type === 'datetime';
  const integral = type === 'int' || type === 'long';
  // One distinct value (or a span too narrow for round bounds): one bucket holding it all.
  if (max <= min || (max - min) / Math.max(Math.abs(min), Math.abs(max), 1) < 1e-9) return [{ from: min }];
  const bounds = isDate ? dateBounds(min, max) : numberBounds(min, max, integral);
  const buckets: RangeValue[] = [];
  bounds.forEach((b, i) => {
    buckets.push(i === 0 ? { to: b } : { from: bounds[i - 1], to: b });
  });
  buckets.push(bounds.length === 0 ? {} : { from: bounds[bounds.length - 1] });
  return buckets;
}

/** Removes floating-point noise from a bound that should be a multiple of `step` (0.1 + 0.2 …). */
function numberBounds(min: number, max: number, integral: boolean): number[] {
  const step = niceStep(max - min, integral);
  const start = Math.floor(min / step) * step;
  const bounds: number[] = [];
  for (let b = start + step; b <= max; b += step) bounds.push(roundTo(b, step));
  return bounds;
}

/** Calendar bounds in (min, max]: Jan 1 of every n years, the 1st of every n months, or every n days. */
function dateBounds(min: number, max: number): number[] {
  const lo = new Date(min);
  const days = (max - min) / DAY_MS;
  const bounds: number[] = [];
  if (days >= 2 * 365) {
    const years = niceStep(days / 365.25, true);
    for (let y = Math.floor(lo.getUTCFullYear() / years) * years + years; Date.UTC(y, 0, 1) <= max; y += years) bounds.push(Date.UTC(y, 0, 1));
  } else if (days >= 60) {
    const months = [1, 2, 3, 6].find((m) => days / 30.44 / m <= MAX_BUCKETS) ?? 6;
    const first = lo.getUTCFullYear() * 12 + Math.floor(lo.getUTCMonth() / months) * months + months;
    for (let m = first; Date.UTC(Math.floor(m / 12), m % 12, 1) <= max; m += months) bounds.push(Date.UTC(Math.floor(m / 12), m % 12, 1));
  } else {
    const step = niceStep(Math.max(days, 1), true) * DAY_MS;
    for (let b = Math.floor(min / step) * step + step; b <= max; b += step) bounds.push(b);
  }
  return bounds;
}

function roundTo(v: number, step: number): number {
  const decimals = Math.min(20, Math.max(0, -Math.floor(Math.log10(step)) + 1));
  return Number(v.toFixed(decimals));
}

/** How a bucket reads: `1990 – 1999`, `< 1990`, `≥ 2020`, `8.5 – 9`; dates as years, months or days. */
export function describeRange(range: RangeValue, type: string): string {
  const isDate = type === 'date' || type === 'datetime';
  const integral = type === 'int' || type === 'long';
  const { from, to } = range;
  const grain = isDate ? dateGrain([from, to].filter((v) => v !== undefined)) : null;
  const show = (v: number): string => {
    if (grain === null) return v.toLocaleString('en-US', { maximumFractionDigits: 6, useGrouping: false });
    return new Date(v).toISOString().slice(0, grain === 'year' ? 4 : grain === 'month' ? 7 : 10);
  };
  if (from === undefined && to === undefined) return 'any';
  if (from === undefined) return `< ${show(to!)}`;
  if (to === undefined) return `≥ ${show(from)}`;
  // Whole-number and calendar ranges read inclusively: [1990, 2000) is "1990 – 1999".
  if (integral && Number.isInteger(from) && Number.isInteger(to)) return to - from === 1 ? show(from) : `${show(from)} – ${show(to - 1)}`;
  if (grain !== null) {
    const last = show(grain === 'day' ? to - DAY_MS : to - 1);
    return last === show(from) ? last : `${show(from)} – ${last}`;
  }
  return `${show(from)} – ${show(to)}`;
}

/** The coarsest calendar unit every bound falls on. */
function dateGrain(bounds: readonly number[]): 'year' | 'month' | 'day' {
  const dates = bounds.map((b) => new Date(b));
  if (dates.every((d) => d.getUTCMonth() === 0 && d.getUTCDate() === 1 && d.getTime() % DAY_MS === 0)) return 'year';
  if (dates.every((d) => d.getUTCDate() === 1 && d.getTime() % DAY_MS === 0)) return 'month';
  return 'day';
}
