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

/** `-o, --offset`: `earliest`, `latest`, `ts=<unixtime>` or `last=<N>`. */
export function parseOffset(value: string): KafkaOffset {
  if (value === 'earliest' || value === 'latest') return { kind: value };
  const ts = /^ts=(\d+)$/.exec(value);
  if (ts !== null) return { kind: 'timestamp', unixTime: Number(ts[1]) };
  const last = /^last=(\d+)$/.exec(value);
  if (last !== null && Number(last[1]) > 0) return { kind: 'last', count: Number(last[1]) };
  throw new InvalidArgumentError('expected earliest, latest, ts=<unixtime> or last=<N> with N > 0');
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
