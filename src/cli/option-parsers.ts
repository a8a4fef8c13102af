/**
 * Parsers for option values that commander does not check itself. Each throws commander's
 * InvalidArgumentError, which it turns into a one-line usage error naming the option.
 */
import { InvalidArgumentError } from 'commander';
import type { KafkaOffset } from './modes/index-kafka-mode.js';

/** `-p, --port`: an integer from 0 to 65535. */
export function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError('expected an integer from 0 to 65535');
  return Number(value);
}

/** A non-empty string (hosts, topics, index names). */
export function parseNonEmpty(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('expected a non-empty value');
  return value;
}

/** `-b, --brokers`: comma-separated `host:port` endpoints. */
export function parseBrokers(value: string): string[] {
  const brokers = value.split(',').map((b) => b.trim()).filter((b) => b !== '');
  if (brokers.length === 0) throw new InvalidArgumentError('expected comma-separated host:port endpoints');
  for (const b of brokers) {
    if (!/^[^\s:]+:\d{1,5}$/.test(b) && !/^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(b)) {
      throw new InvalidArgumentError(`"${b}" is not host:port`);
    }
  }
  return brokers;
}

/** Epoch values from this size on are milliseconds (Nixiesearch's `ts=`); smaller ones are seconds (year 5138 and before). */
const EPOCH_MS_FROM = 100_000_000_000;
const DURATION_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * `-o, --offset`: `earliest`, `latest`, `ts=<epoch>` (milliseconds as in Nixiesearch, or seconds:
 * told apart by size), `last=<N>` (the last N messages of each partition) or `last=<N>s|m|h|d`
 * (Nixiesearch: the messages of the last N seconds, minutes, hours or days, from now).
 */
export function parseOffset(value: string, now: () => number = Date.now): KafkaOffset {
  if (value === 'earliest' || value === 'latest') return { kind: value };
  const ts = /^ts=(\d+)$/.exec(value);
  if (ts !== null) {
    const n = Number(ts[1]);
    return { kind: 'timestamp', epochMs: n >= EPOCH_MS_FROM ? n : n * 1000 };
  }
  const last = /^last=(\d+)([smhd])?$/.exec(value);
  if (last !== null && Number(last[1]) > 0) {
    const unit = last[2] as keyof typeof DURATION_MS | undefined;
    if (unit === undefined) return { kind: 'last', count: Number(last[1]) };
    return { kind: 'timestamp', epochMs: now() - Number(last[1]) * DURATION_MS[unit] };
  }
  throw new InvalidArgumentError('expected earliest, latest, ts=<epoch ms or s>, last=<N> or last=<N>s|m|h|d with N > 0');
}

/** `--force_merge <N>`: a segment count, an integer >= 1. */
export function parseSegmentCount(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('expected a number of segments, an integer >= 1');
  return Number(value);
}

/** `--options`: comma-separated `key=value` pairs. */
export function parseKeyValues(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of value.split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) throw new InvalidArgumentError(`"${part}" is not key=value`);
    out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}
