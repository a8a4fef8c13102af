/**
 * Turns feature-runner results into the tables `npm run bench:features` prints: latency per
 * scenario and engine, and Yarrow-to-peer latency ratios where both could run the scenario.
 */
import { MB, table, num, lat, ratio } from '../format.js';
import type { FeatureEngineName } from './feature-engine.js';
import type { FeatureResult, ScenarioOutcome } from './feature-result.js';
import { SCENARIOS } from './scenarios.js';

/** What happened to one engine: a result or the reason there is none. */
export type FeatureOutcome =
  | { readonly engine: FeatureEngineName; readonly ok: true; readonly result: FeatureResult }
  | { readonly engine: FeatureEngineName; readonly ok: false; readonly error: string };

function cell(o: ScenarioOutcome | undefined): string {
  if (o === undefined) return 'failed';
  if (o.status === 'n/a') return 'n/a';
  if (o.status === 'failed') return 'failed';
  const matches = o.meanMatches === undefined ? '' : `, ${num(o.meanMatches, 0)} matches`;
  return `${lat(o.latency)} (${num(o.meanHits, 1)}, ${o.zeroHits}${matches})`;
}

/** The printed report. */
export function formatFeatureReport(outcomes: readonly FeatureOutcome[]): string {
  const ok = outcomes.flatMap((o) => (o.ok ? [o.result] : []));
  const first = ok.at(0);
  const lines: string[] = [first === undefined
    ? '== debian feature scenarios =='
    : `== debian feature scenarios: ${first.docs.toLocaleString('en-US')} docs, ${SCENARIOS.length} scenarios x ` +
      `${first.rounds} rounds (after 1 checked warm-up) ==`, ''];

  lines.push(table([
    ['engine', 'index+commit s', 'peak RSS MB'],
    ...outcomes.map((o) => o.ok
      ? [o.engine, num((o.result.indexMs + o.result.commitMs) / 1000, 1), num(o.result.peakRssBytes / MB, 0)]
      : [o.engine, 'failed', '-']),
  ]));
  if (new Set(ok.map((r) => r.queryFingerprint)).size > 1) {
    lines.push('', 'WARNING: engines ran different query sets; latencies are not comparable.');
  }

  lines.push('', 'latency p50 / p95 / p99 ms (mean hits returned, queries with none[, mean matching docs]):');
  const resultOf = (engine: FeatureEngineName): FeatureResult | undefined => ok.find((r) => r.engine === engine);
  lines.push(table([
    ['scenario', ...outcomes.map((o) => o.engine)],
    ...SCENARIOS.map((s) => [s, ...outcomes.map((o) => cell(resultOf(o.engine)?.scenarios[s]))]),
  ]));

  const yarrow = resultOf('yarrow');
  const peers = ok.filter((r) => r.engine !== 'yarrow');
  if (yarrow !== undefined && peers.length > 0) {
    lines.push('', 'Yarrow / peer latency, p50 / p99 (<1 is better for Yarrow):');
    lines.push(table([
      ['scenario', ...peers.map((p) => p.engine)],
      ...SCENARIOS.map((s) => [s, ...peers.map((p) => {
        const y = yarrow.scenarios[s];
        const q = p.scenarios[s];
        if (y.status !== 'ok' || q.status !== 'ok') return q.status === 'n/a' ? 'n/a' : '-';
        return `${ratio(y.latency.p50, q.latency.p50)} / ${ratio(y.latency.p99, q.latency.p99)}`;
      })]),
    ]));
  }

  const failures = outcomes.flatMap((o) => o.ok
    ? SCENARIOS.flatMap((s) => {
      const r = o.result.scenarios[s];
      return r.status === 'failed' ? [`${o.engine} ${s} failed: ${r.error}`] : [];
    })
    : [`${o.engine} failed: ${o.error}`]);
  if (failures.length > 0) lines.push('', ...failures);
  return lines.join('\n');
}

/** Whether any engine or any scenario it can express failed. */
export function anyFailed(outcomes: readonly FeatureOutcome[]): boolean {
  return outcomes.some((o) => !o.ok || SCENARIOS.some((s) => o.result.scenarios[s].status === 'failed'));
}
