/**
 * `npm run soak`: issue 18's crash loop for 100 rounds (ROUNDS overrides) against the built
 * `yarrow standalone` (npm run soak builds it first). Prints each round's totals and a summary;
 * exits 1 when an acknowledged document was lost, a batch was half there, a restart could not read
 * the index, or the server answered 5xx. The same loop runs bounded in npm test
 * (test/e2e/reliability/crash-loop.test.ts).
 */
import { runCrashLoop } from '../test/e2e/reliability/crash-loop.js';

const rounds = Number(process.env.ROUNDS ?? 100);
if (!Number.isInteger(rounds) || rounds < 1) {
  process.stderr.write(`ROUNDS must be a positive whole number, got ${process.env.ROUNDS ?? ''}\n`);
  process.exit(2);
}

const started = performance.now();
process.stdout.write(`soak: ${rounds} SIGKILL rounds of yarrow standalone during HTTP pushes and flushes\n`);
const report = await runCrashLoop({
  rounds,
  onRound: (round, r) => {
    if (round % 10 === 0 || round === rounds) {
      process.stdout.write(`round ${String(round).padStart(3)}: acknowledged ${r.acknowledgedDocs} docs, lost ${r.lostDocs}, partial batches ${r.partialBatches}, unreadable opens ${r.unreadableOpens}, flushes ${r.flushes}, 5xx ${r.serverErrors}\n`);
    }
  },
});
const seconds = ((performance.now() - started) / 1000).toFixed(0);
process.stdout.write(`rounds: ${report.rounds}\nacknowledged docs: ${report.acknowledgedDocs}\nlost docs: ${report.lostDocs}\npartial batches: ${report.partialBatches}\nunreadable opens: ${report.unreadableOpens}\nflushes: ${report.flushes}\nserver errors (5xx): ${report.serverErrors}\ntime: ${seconds} s\n`);
const ok = report.rounds === rounds && report.lostDocs === 0 && report.partialBatches === 0 && report.unreadableOpens === 0 && report.serverErrors === 0;
process.stdout.write(ok ? 'soak: OK\n' : 'soak: FAILED\n');
process.exit(ok ? 0 : 1);
