/**
 * The merge policy: a pure function from the segments that are not merging to the merges to run
 * (after Lucene's TieredMergePolicy and Bleve's mergeplan, much simplified). Segments are sized by
 * their live bytes, floored so that tiny segments count as one small size; segments of similar
 * size are merged `maxMergeAtOnce` at a time whenever a tier holds more than `segmentsPerTier`;
 * a segment with too many deletes is rewritten alone. The segment count therefore stays
 * logarithmic in the index size.
 */

/** What the policy knows of a segment. */
export interface SegmentStats {
  readonly name: string;
  readonly maxDoc: number;
  readonly liveDocs: number;
  readonly sizeBytes: number;
}

export interface MergePolicyOptions {
  /** Segments allowed per size tier before a merge is planned. */
  readonly segmentsPerTier: number;
  /** Segments merged at once. */
  readonly maxMergeAtOnce: number;
  /** Segments smaller than this count as this size. */
  readonly floorSegmentBytes: number;
  /** Merges whose result would exceed this are not planned. */
  readonly maxMergedSegmentBytes: number;
  /** A segment with a larger percentage of deleted docs is rewritten. */
  readonly deletesPctAllowed: number;
}

export const defaultMergePolicyOptions: MergePolicyOptions = {
  segmentsPerTier: 10,
  maxMergeAtOnce: 10,
  floorSegmentBytes: 2 * 1024 * 1024,
  maxMergedSegmentBytes: 5 * 1024 * 1024 * 1024,
  deletesPctAllowed: 20,
};

/** One planned merge. */
export interface MergeSpec {
  readonly segments: readonly string[];
}

/** Plans merges among `eligible`; deterministic, and never lists a segment twice. */
export function planMerges(eligible: readonly SegmentStats[], options: Partial<MergePolicyOptions> = {}): MergeSpec[] {
  const o = { ...defaultMergePolicyOptions, ...options };
  const liveBytes = (s: SegmentStats): number => (s.maxDoc === 0 ? 0 : (s.sizeBytes * s.liveDocs) / s.maxDoc);
  const sized = eligible
    .map((s) => ({ s, size: Math.max(liveBytes(s), o.floorSegmentBytes) }))
    .sort((a, b) => a.size - b.size || (a.s.name < b.s.name ? -1 : 1));
  const merges: MergeSpec[] = [];
  const used = new Set<string>();

  // Tiers: each tier holds segments up to maxMergeAtOnce times the size of the tier below.
  let i = 0;
  while (i < sized.length) {
    const tierMax = sized[i].size * o.maxMergeAtOnce;
    let j = i;
    while (j < sized.length && sized[j].size < tierMax) j++;
    const tier = sized.slice(i, j).filter((x) => !used.has(x.s.name));
    let k = 0;
    while (tier.length - k > o.segmentsPerTier - 1 && tier.length - k >= 2) {
      const group = tier.slice(k, k + o.maxMergeAtOnce);
      const total = group.reduce((sum, x) => sum + liveBytes(x.s), 0);
      if (group.length < 2 || total > o.maxMergedSegmentBytes) break;
      merges.push({ segments: group.map((x) => x.s.name) });
      for (const x of group) used.add(x.s.name);
      k += group.length;
    }
    i = j;
  }

  for (const { s } of sized) {
    if (used.has(s.name) || s.maxDoc === 0) continue;
    const deletedPct = (100 * (s.maxDoc - s.liveDocs)) / s.maxDoc;
    if (deletedPct > o.deletesPctAllowed && s.liveDocs > 0) {
      merges.push({ segments: [s.name] });
      used.add(s.name);
    }
  }
  return merges;
}
