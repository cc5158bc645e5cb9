/** Tallies what a differential run exercised, so its log line shows the coverage it had. */
export class CoverageTally {
  private readonly counts = new Map<string, number>();
  private readonly started = performance.now();

  /** Counts an operation by kind (the first word of its description) and by outcome. */
  record(description: string, outcome: { ok: true } | { ok: false; code: unknown }): void {
    this.add(description.split(" ")[0]!);
    this.add(outcome.ok ? "succeeded" : String(outcome.code));
  }

  /** One line: how many operations, how long, the seed, and the tally. */
  summary(title: string, operations: number, seed: number): string {
    const seconds = ((performance.now() - this.started) / 1000).toFixed(1);
    const tally = [...this.counts].map(([k, n]) => `${k} ${n}`).join(", ");
    return `${title} differential: ${operations} operations in ${seconds} s (seed ${seed}): ${tally}`;
  }

  private add(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}
