/**
 * Ids handed out, kept as runs of consecutive ids: a block allocator hands out millions of ids a
 * second, more than a `Set` can hold, but only a few runs (one a block).
 */

/** The ids one client received, as runs of consecutive ids. */
export class IdRuns {
  readonly runs: [first: number, last: number][] = [];
  count = 0;

  add(id: number): void {
    this.count++;
    const run = this.runs[this.runs.length - 1];
    if (run && id === run[1] + 1) run[1] = id;
    else this.runs.push([id, id]);
  }
}

/** How many ids the clients received more than once, and whether every id lies in 1..last. */
export function checkIds(clients: readonly IdRuns[], last: number): { duplicates: number; inRange: boolean } {
  const runs = clients.flatMap((c) => c.runs).sort((a, b) => a[0] - b[0]);
  let duplicates = 0;
  let covered = 0;
  for (const [first, end] of runs) {
    if (first <= covered) duplicates += Math.min(end, covered) - first + 1;
    covered = Math.max(covered, end);
  }
  return { duplicates, inRange: runs.length === 0 || (runs[0]![0] >= 1 && covered <= last) };
}
