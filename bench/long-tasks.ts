/**
 * What holds the event loop: reads a V8 CPU profile (`node --cpu-prof`, e.g. the server of
 * `npm run bench:http` run with `YARROW_HTTP_SERVER_ARGS="--cpu-prof --cpu-prof-dir=/tmp/p"`) and
 * lists its long tasks: while one runs, no request is answered. A profile marks no task
 * boundaries, so a task here is a run of samples entered from the same event-loop callback (the
 * stack's outermost frame below the root) with no idle sample between them; two slices of one
 * sliced job that follow each other with nothing in between count as one, so read the figures as
 * upper bounds. For each task over the threshold it prints its length and the project functions
 * (dist/ or src/) it spent most time in, inclusive, so the culprit's name shows.
 *
 * Run: `node --import tsx bench/long-tasks.ts <file.cpuprofile> [threshold ms, default 20] [from s] [to s]`;
 * `from`/`to` keep only the tasks that start in that window of the profile (e.g. the last phase of
 * bench:http, the paced search while indexing), negative values counting back from its end.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const [file, thresholdArg, fromArg, toArg] = process.argv.slice(2) as (string | undefined)[];
if (file === undefined) throw new Error('usage: long-tasks.ts <file.cpuprofile> [threshold ms]');
const thresholdMs = Number(thresholdArg ?? 20);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const label = (n: ProfileNode): string => {
  const url = n.callFrame.url.replace(/^.*\/(dist|src|node_modules)\//, '$1/');
  return `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber + 1}`;
};
/** The outermost frame below the root: which event-loop callback a sample runs in. */
function entryOf(id: number): number {
  let at = id;
  for (let up = parent.get(at); up !== undefined && parent.get(up) !== undefined; up = parent.get(up)) at = up;
  return at;
}
/** Samples that belong to whatever task is running (the collector, V8's own work). */
const isNeutral = (n: ProfileNode): boolean => n.callFrame.functionName === '(garbage collector)' || n.callFrame.functionName === '(program)';
const isProject = (n: ProfileNode): boolean => /\/(dist|src)\//.test(n.callFrame.url) && !n.callFrame.url.includes('node_modules');

/** Distinct project frames of a sample's stack, and its leaf. */
function stackOf(id: number): { frames: Set<string>; leaf: string } {
  const frames = new Set<string>();
  const leaf = label(byId.get(id)!);
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const n = byId.get(at)!;
    if (isProject(n)) frames.add(label(n));
  }
  return { frames, leaf };
}

interface Task {
  start: number;
  ms: number;
  entry: number;
  inclusive: Map<string, number>;
  self: Map<string, number>;
}

const tasks: Task[] = [];
let current: Task | null = null;
let t = 0;
let busyMs = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i] / 1000;
  t += dt;
  const node = byId.get(profile.samples[i])!;
  if (node.callFrame.functionName === '(idle)') {
    if (current !== null) tasks.push(current);
    current = null;
    continue;
  }
  busyMs += dt;
  const entry = entryOf(node.id);
  if (current !== null && !isNeutral(node) && current.entry !== entry) {
    if (current.entry === -1) current.entry = entry;
    else {
      tasks.push(current);
      current = null;
    }
  }
  current ??= { start: t, ms: 0, entry: isNeutral(node) ? -1 : entry, inclusive: new Map(), self: new Map() };
  current.ms += dt;
  const { frames, leaf } = stackOf(node.id);
  for (const f of frames) current.inclusive.set(f, (current.inclusive.get(f) ?? 0) + dt);
  current.self.set(leaf, (current.self.get(leaf) ?? 0) + dt);
}
if (current !== null) tasks.push(current);

// The window, in ms from the profile's start (negative: from its end).
const at = (arg: string | undefined, fallback: number): number => (arg === undefined ? fallback : Number(arg) < 0 ? t + 1000 * Number(arg) : 1000 * Number(arg));
const [from, to] = [at(fromArg, 0), at(toArg, t)];
const windowed = tasks.filter((task) => task.start >= from && task.start <= to);
tasks.splice(0, tasks.length, ...windowed);
const long = tasks.filter((task) => task.ms >= thresholdMs);
const top = (m: Map<string, number>, n: number): string =>
  [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([f, ms]) => `${ms.toFixed(0)} ms ${f}`).join('\n      ');
console.log(`${file}: ${(t / 1000).toFixed(1)} s profiled (window ${(from / 1000).toFixed(1)}-${(to / 1000).toFixed(1)} s), ${(busyMs / 1000).toFixed(1)} s busy in all, ${tasks.length} tasks, ${long.length} of >= ${thresholdMs} ms (${long.reduce((s, x) => s + x.ms, 0).toFixed(0)} ms in all)`);
const hist = [8, 16, 32, 64, 128, 256, Infinity].map((limit, i, all) => {
  const low = i === 0 ? 0 : all[i - 1];
  return `${low}-${limit === Infinity ? '' : limit} ms: ${tasks.filter((x) => x.ms >= low && x.ms < limit).length}`;
});
console.log(`task lengths: ${hist.join(', ')}`);

// The same culprit shows up task after task: group the long tasks by their heaviest project frame.
const groups = new Map<string, Task[]>();
for (const task of long) {
  const key = [...task.inclusive].sort((a, b) => a[1] - b[1]).filter(([, ms]) => ms >= 0.8 * task.ms).map(([f]) => f)[0] ?? '(no project frame)';
  groups.set(key, [...(groups.get(key) ?? []), task]);
}
for (const [key, group] of [...groups].sort((a, b) => b[1].reduce((s, x) => s + x.ms, 0) - a[1].reduce((s, x) => s + x.ms, 0))) {
  const worst = group.reduce((a, b) => (b.ms > a.ms ? b : a));
  console.log(`\n${group.length} tasks, ${group.reduce((s, x) => s + x.ms, 0).toFixed(0)} ms in all, longest ${worst.ms.toFixed(0)} ms at ${(worst.start / 1000).toFixed(1)} s; innermost frame covering 80%: ${key}`);
  console.log(`    longest, inclusive:\n      ${top(worst.inclusive, 8)}`);
  console.log(`    longest, self:\n      ${top(worst.self, 5)}`);
}
