/**
 * Setting a V8 flag at run time without spoiling the code caches a process writes at its exit.
 *
 * V8 stamps a code cache with a hash of the flags in effect when the cache is made, and rejects a
 * cache whose stamp differs from the flags of the process that reads it. A flag set with
 * `v8.setFlagsFromString` changes that hash, so every cache written after it (the CLI's own
 * caches of its vendored packages and modes at exit, src/cli/vendored.ts, and node's compile
 * cache on Node >= 22.1) was rejected by the next start, which compiled ~2.5 MB of JavaScript
 * again and wrote the caches again: issue 17, ~40 ms of CPU of each `yarrow search` start, from
 * the server modes' heap tuning (serving-heap.ts). Putting the flag back to its start value just
 * before the process exits makes the hash, and the caches, those of the next start.
 */
import v8 from 'node:v8';
import { startV8Flags } from './start-v8-flags.js';

/** Flags already set through {@link setV8FlagUntilExit}: their restore is registered once. */
const restoring = new Set<string>();

/**
 * Sets V8 flag `--<name>=<value>` now, and back at exit to the value this process started with
 * (from NODE_OPTIONS, node's own options and the entry's start flags, the later winning, else
 * `defaultValue`, V8's default), before any exit listener writes a code cache. Returns a function that puts the start
 * value back at once (the exit listener still runs, and sets the same value again).
 */
export function setV8FlagUntilExit(name: string, value: string, defaultValue: string): () => void {
  v8.setFlagsFromString(`--${name}=${value}`);
  const start = `--${name}=${startValue(name, defaultValue)}`;
  restoreAtExit(name, () => start);
  return () => { v8.setFlagsFromString(start); };
}

/**
 * Like {@link setV8FlagUntilExit} for a boolean flag, which V8 takes only as `--<name>` or
 * `--no-<name>` (a value is refused).
 */
export function setV8BooleanFlagUntilExit(name: string, on: boolean, defaultOn: boolean): void {
  v8.setFlagsFromString(on ? `--${name}` : `--no-${name}`);
  restoreAtExit(name, () => (startBoolean(name, defaultOn) ? `--${name}` : `--no-${name}`));
}

/** Registers once per flag an exit listener setting `startFlag()`, ahead of the code cache writers. */
function restoreAtExit(name: string, startFlag: () => string): void {
  if (restoring.has(name)) return;
  restoring.add(name);
  const start = startFlag();
  // Prepended: the code caches are written by 'exit' listeners registered earlier, as each file loaded.
  process.prependOnceListener('exit', () => {
    v8.setFlagsFromString(start);
  });
}

/** The spellings of `--name` node and V8 accept (`-` and `_` alike). */
function spellingsOf(name: string, prefix = ''): Set<string> {
  return new Set([name, name.replaceAll('-', '_'), name.replaceAll('_', '-')].map((n) => `--${prefix}${n}`));
}

/**
 * The options this process started with: NODE_OPTIONS, then node's own, then the V8 flags the
 * entry set before anything else ran (src/cli/start-v8-flags.ts), the later winning.
 */
function startArgs(): string[] {
  return [...(process.env.NODE_OPTIONS ?? '').split(/\s+/), ...process.execArgv, ...startV8Flags()];
}

/** The value of V8 flag `name` this process started with (`--name=v` or `--name v`). */
function startValue(name: string, defaultValue: string): string {
  const spellings = spellingsOf(name);
  const args = startArgs();
  let value = defaultValue;
  for (let i = 0; i < args.length; i++) {
    const eq = args[i].indexOf('=');
    if (eq > 0 && spellings.has(args[i].slice(0, eq))) value = args[i].slice(eq + 1);
    else if (spellings.has(args[i]) && i + 1 < args.length) value = args[++i];
  }
  return value;
}

/** Whether boolean V8 flag `name` was on when this process started (`--name`, `--no-name`, `--noname`). */
function startBoolean(name: string, defaultOn: boolean): boolean {
  const on = spellingsOf(name);
  const off = new Set([...spellingsOf(name, 'no-'), ...spellingsOf(name, 'no')]);
  let value = defaultOn;
  for (const arg of startArgs()) {
    if (on.has(arg)) value = true;
    else if (off.has(arg)) value = false;
  }
  return value;
}
