/** A stored page range: `[start, end)` and the write that put it there (null: written before stamps). */
export interface StampedRange {
  readonly start: number;
  readonly end: number;
  readonly stamp: number | null;
}

/** Ranges as Get Page Ranges answers them: `start` and `end` inclusive. */
export interface PageRangesDiff {
  readonly changed: { start: number; end: number }[];
  readonly cleared: { start: number; end: number }[];
}

/**
 * Get Page Ranges' diff between two versions of one page blob (each version's ranges in order, not
 * overlapping): `changed` where the newer holds pages another write put there than the older
 * (written since, even with the same bytes, as the service tracks writes), `cleared` where the
 * older had pages and the newer has none. Touching parts of one kind are merged.
 */
export function diffPageRanges(
  newer: readonly StampedRange[],
  older: readonly StampedRange[],
): PageRangesDiff {
  const cuts = [...new Set([...newer, ...older].flatMap((r) => [r.start, r.end]))].sort((a, b) => a - b);
  const changed: { start: number; end: number }[] = [];
  const cleared: { start: number; end: number }[] = [];
  const add = (list: { start: number; end: number }[], start: number, end: number) => {
    const last = list[list.length - 1];
    if (last && last.end === start - 1) last.end = end - 1;
    else list.push({ start, end: end - 1 });
  };
  let n = 0;
  let o = 0;
  for (let i = 0; i + 1 < cuts.length; i++) {
    const start = cuts[i]!;
    const end = cuts[i + 1]!;
    while (n < newer.length && newer[n]!.end <= start) n++;
    while (o < older.length && older[o]!.end <= start) o++;
    const inNewer = n < newer.length && newer[n]!.start <= start ? newer[n] : undefined;
    const inOlder = o < older.length && older[o]!.start <= start ? older[o] : undefined;
    if (inNewer && (!inOlder || inNewer.stamp !== inOlder.stamp || inNewer.stamp === null)) {
      add(changed, start, end);
    } else if (!inNewer && inOlder) add(cleared, start, end);
  }
  return { changed, cleared };
}
