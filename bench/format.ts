/** Text formatting shared by the benchmark reports: aligned tables, numbers, latencies, ratios. */
import os from 'node:os';
import type { LatencySummary } from './stats.js';

export const MB = 2 ** 20;

/** Rows as an aligned table: first column left-aligned, the others right-aligned. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows
    .map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '))
    .join('\n');
}

export function num(n: number, digits: number): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '-';
}

export function int(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-';
}

/** p50 / p95 / p99 in ms. */
export function lat(s: LatencySummary): string {
  return `${num(s.p50, 3)} / ${num(s.p95, 3)} / ${num(s.p99, 3)}`;
}

export function ratio(a: number, b: number): string {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}x` : '-';
}

/** The machine a results file was measured on. */
export function machine(): { startedAt: string; node: string; platform: string; cpu: string; cpus: number } {
  return {
    startedAt: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cpus: os.cpus().length,
  };
}
