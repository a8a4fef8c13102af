/**
 * `yarrow search`: a read-only searcher over indexes that `index file`, `api` or `standalone` write
 * to the same local store. It takes no lock, follows new commits (watching each index directory,
 * polling as a fallback) and answers writes with 405.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import { setV8FlagUntilExit } from '../run-time-v8-flag.js';
import { codeCacheCompleteWhen } from '../vendored.js';
import { runServerMode } from './api-mode.js';
import type { ModeContext, ServerOptions } from './mode-context.js';

/** Runs `search`. */
export function runSearch(options: ServerOptions, ctx: ModeContext): Promise<number> {
  loadListenBuiltins();
  holdBackOptimizationUntilFirstResponse();
  // The code caches written at exit are complete once the first query has been answered (vendored.ts).
  onFirstResponse(codeCacheCompleteWhen());
  return runServerMode('search', options, ctx);
}

/** Calls `then` once node:http has written out the process's first response. */
function onFirstResponse(then: () => void): void {
  // Published by node:http once a response has been written out (Node >= 18.7).
  const channel = 'http.server.response.finish';
  const onFinish = (): void => {
    unsubscribe(channel, onFinish);
    then();
  };
  subscribe(channel, onFinish);
}

/**
 * Loads the node built-ins that `listen` requires (node:net loads node:cluster, which loads
 * child_process and dgram: 11 modules) before this mode sets V8 flags at run time. Node ships its
 * built-ins with code caches made under its default flags; V8 rejects them once a flag is changed
 * (the interrupt budget below, the serving heap's flags), so loaded at `listen` they were compiled
 * from source (NODE_DEBUG_NATIVE=CODE_CACHE lists them; issue 17: start to first answer).
 */
function loadListenBuiltins(): void {
  createRequire(import.meta.url)('node:cluster');
}

/**
 * V8's `--interrupt-budget` (bytecode a function runs between checks for tiering it up) of the V8
 * whose default is known, by `major.minor` of `process.versions.v8`: Node 20's.
 */
const DEFAULT_INTERRUPT_BUDGET: ReadonlyMap<string, number> = new Map([['11.3', 66 * 1024]]);

/** How many times the default budget `search` gives each function until its first response. */
const START_UP_BUDGET_FACTOR = 8;

/**
 * Lets the code of a `search` process run unoptimized until its first HTTP response is sent, then
 * tiers up as usual (issue 17: process start to first answer). A first query runs the scoring loops
 * over thousands of postings, enough for V8 to send a dozen functions (term scoring, block
 * decoding, the MaxScore loop, LZ4) to its optimizing compiler while the query runs: 30-50 ms of
 * CPU on helper threads, for code the query itself hardly gets to use (measured: the main thread's
 * share of the first query was no slower with a 16x budget, 12.5 vs 16 ms). With the budget put
 * back, later queries optimize the same functions. Only under a V8 whose default budget is known:
 * the flag must go back to exactly its default, or the code caches written at exit would carry
 * another flag hash and be refused by the next start (see run-time-v8-flag.ts).
 */
function holdBackOptimizationUntilFirstResponse(): void {
  const budget = DEFAULT_INTERRUPT_BUDGET.get(process.versions.v8.split('.').slice(0, 2).join('.'));
  if (budget === undefined) return;
  onFirstResponse(setV8FlagUntilExit('interrupt-budget', String(budget * START_UP_BUDGET_FACTOR), String(budget)));
}
