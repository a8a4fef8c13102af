/**
 * The merge policy: a pure function from the segments that are not merging to the merges to run,
 * after Lucene's TieredMergePolicy and Bleve's mergeplan, much simplified.
 *
 * Segments are sized by their live bytes (`sizeBytes * liveDocs / maxDoc`), floored at
 * `floorSegmentBytes` so that a stream of tiny flushes counts as one size. Tier `t` holds the
 * segments whose floored size lies in `[floor * m^t, floor * m^(t+1))` with `m = maxMergeAtOnce`.
 * Whenever a tier holds more than `segmentsPerTier` segments its smallest ones are merged, up to
 * `m` at a time, so merges combine similarly sized segments and a merge of `m` segments from tier
 * `t` lands in tier `t + 1` or above. Each tier therefore settles at `segmentsPerTier` segments or
 * fewer, and there are about `log_m(total / floor) + 1` tiers: the segment count stays logarithmic
 * in the index size.
 *
 * A merge never grows past `maxMergedSegmentBytes`, and segments already larger than half of it
 * are left out of size-driven merges (merging them would gain little and rewrite a lot). A segment
 * whose deleted fraction exceeds `deletesPctAllowed` and that no merge picked up is rewritten alone
 * to expunge its deletes, whatever its size. Segments with no live docs are ignored: the writer
 * drops them at the next commit without any merge.
 */

/** What the policy knows of a segment. */
export interface SegmentStats {
  readonly name: string;
  /** Docs in the segment, deleted ones included. */
  readonly maxDoc: number;
  /** Docs not deleted. */
  readonly liveDocs: number;
  /** Bytes of the segment's files. */
  readonly sizeBytes: number;
}

/** Tuning of {@link planMerges}. */
export interface MergePolicyOptions {
  /** Segments a size tier may hold before its smallest are merged (>= 1). */
  readonly segmentsPerTier: number;
  /** Most segments merged at once (>= 2); also the size ratio between tiers. */
  readonly maxMergeAtOnce: number;
  /** Segments smaller than this count as this size (> 0). */
  readonly floorSegmentBytes: number;
  /** Largest estimated size of a merged segment (> 0); expunge-only rewrites are exempt. */
  readonly maxMergedSegmentBytes: number;
  /** A segment with a higher percentage of deleted docs is rewritten (0-100). */
  readonly deletesPctAllowed: number;
}

/** Lucene's TieredMergePolicy defaults, with a smaller deletes allowance. */
export const defaultMergePolicyOptions: MergePolicyOptions = Object.freeze({
  segmentsPerTier: 10,
  maxMergeAtOnce: 10,
  floorSegmentBytes: 2 * 1024 * 1024,
  maxMergedSegmentBytes: 5 * 1024 * 1024 * 1024,
  deletesPctAllowed: 20,
});

/** One planned merge: the segments to combine into one, in the order they were given. */
export interface MergeSpec {
  readonly segments: readonly string[];
}

interface Candidate {
  readonly stats: SegmentStats;
  /** Position in the caller's list, which orders a merge's segments and breaks size ties. */
  readonly index: number;
  readonly liveBytes: number;
  readonly tier: number;
}

/**
 * Chooses merges among `eligible` segments (those not already merging). Deterministic; never
 * lists a segment twice; each merge has at least two segments unless it is a single segment whose
 * deleted fraction exceeds `deletesPctAllowed` (a rewrite to expunge deletes). No I/O.
 * @throws RangeError when an option is out of its documented range.
 */
export function planMerges(eligible: readonly SegmentStats[], options: Partial<MergePolicyOptions> = {}): MergeSpec[] {
  const o = { ...defaultMergePolicyOptions, ...options };
  checkOptions(o);
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  eligible.forEach((stats, index) => {
    if (seen.has(stats.name) || stats.liveDocs <= 0 || stats.maxDoc <= 0) return;
    seen.add(stats.name);
    // Multiply first: exact for integer sizes, so caps compare without rounding surprises.
    const liveBytes = stats.liveDocs >= stats.maxDoc ? stats.sizeBytes : (stats.sizeBytes * stats.liveDocs) / stats.maxDoc;
    candidates.push({ stats, index, liveBytes, tier: tierOf(Math.max(liveBytes, o.floorSegmentBytes), o) });
  });

  const merges: MergeSpec[] = [];
  const merged = new Set<Candidate>();
  const tooLarge = o.maxMergedSegmentBytes / 2;
  const tiers = new Map<number, Candidate[]>();
  for (const c of candidates) {
    if (c.liveBytes > tooLarge) continue;
    const tier = tiers.get(c.tier);
    if (tier === undefined) tiers.set(c.tier, [c]);
    else tier.push(c);
  }
  for (const t of [...tiers.keys()].sort((a, b) => a - b)) {
    const tier = tiers.get(t)!.sort(bySize);
    let start = 0;
    while (tier.length - start > o.segmentsPerTier) {
      const group = smallestGroup(tier, start, o);
      if (group.length < 2) break;
      merges.push(toSpec(group));
      for (const c of group) merged.add(c);
      start += group.length;
    }
  }

  for (const c of candidates) {
    if (merged.has(c)) continue;
    const deletedPct = (100 * (c.stats.maxDoc - c.stats.liveDocs)) / c.stats.maxDoc;
    if (deletedPct > o.deletesPctAllowed) merges.push({ segments: [c.stats.name] });
  }
  return merges;
}

/** The smallest segments from `start` on, at most `maxMergeAtOnce`, within the merged-size cap. */
function smallestGroup(tier: readonly Candidate[], start: number, o: MergePolicyOptions): Candidate[] {
  const group: Candidate[] = [];
  let bytes = 0;
  for (let i = start; i < tier.length && group.length < o.maxMergeAtOnce; i++) {
    const c = tier[i];
    // Sorted by size: if this one does not fit, no later one does.
    if (bytes + c.liveBytes > o.maxMergedSegmentBytes) break;
    bytes += c.liveBytes;
    group.push(c);
  }
  return group;
}

function toSpec(group: readonly Candidate[]): MergeSpec {
  return { segments: [...group].sort((a, b) => a.index - b.index).map((c) => c.stats.name) };
}

function bySize(a: Candidate, b: Candidate): number {
  return a.liveBytes - b.liveBytes || a.index - b.index;
}

/** Integer tier of a floored size, by repeated multiplication so boundaries are exact. */
function tierOf(size: number, o: MergePolicyOptions): number {
  let tier = 0;
  for (let limit = o.floorSegmentBytes * o.maxMergeAtOnce; size >= limit; limit *= o.maxMergeAtOnce) tier++;
  return tier;
}

function checkOptions(o: MergePolicyOptions): void {
  const bad = (name: string, rule: string): never => {
    throw new RangeError(`merge policy option ${name} must be ${rule}`);
  };
  if (!Number.isInteger(o.segmentsPerTier) || o.segmentsPerTier < 1) bad('segmentsPerTier', 'an integer >= 1');
  if (!Number.isInteger(o.maxMergeAtOnce) || o.maxMergeAtOnce < 2) bad('maxMergeAtOnce', 'an integer >= 2');
  if (!(o.floorSegmentBytes > 0 && Number.isFinite(o.floorSegmentBytes))) bad('floorSegmentBytes', 'a positive number');
  if (!(o.maxMergedSegmentBytes > 0)) bad('maxMergedSegmentBytes', 'a positive number');
  if (!(o.deletesPctAllowed >= 0 && o.deletesPctAllowed <= 100)) bad('deletesPctAllowed', 'between 0 and 100');
}

/**
 * The next merge of a forced merge down to `maxSegments` segments (Lucene's `forceMerge`): while
 * there are more, the smallest segments are merged into one so exactly `maxSegments` remain; once
 * there are few enough, each segment that still has deleted docs is rewritten alone to expunge
 * them. Empty when nothing is left to do. Pure, like {@link planMerges}; the scheduler calls it
 * again after each merge.
 * @throws RangeError when `maxSegments` is not an integer >= 1.
 */
export function planForcedMerge(eligible: readonly SegmentStats[], maxSegments: number): MergeSpec | null {
  if (!Number.isInteger(maxSegments) || maxSegments < 1) throw new RangeError(`maxSegments must be an integer >= 1, got ${maxSegments}`);
  const live = eligible
    .map((stats, index) => ({ stats, index, liveBytes: stats.maxDoc <= 0 ? 0 : (stats.sizeBytes * stats.liveDocs) / stats.maxDoc }))
    .filter((c) => c.stats.liveDocs > 0);
  if (live.length > maxSegments) {
    const smallest = [...live].sort((a, b) => a.liveBytes - b.liveBytes || a.index - b.index).slice(0, live.length - maxSegments + 1);
    return { segments: smallest.sort((a, b) => a.index - b.index).map((c) => c.stats.name) };
  }
  const withDeletes = live.find((c) => c.stats.liveDocs < c.stats.maxDoc);
  return withDeletes === undefined ? null : { segments: [withDeletes.stats.name] };
}
