/** Reading CPU profiles (V8's `.cpuprofile` format, from node:inspector or `node --cpu-prof`). */

export interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  /** Microseconds before each sample (since the previous one). */
  timeDeltas?: number[];
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

/**
 * The `n` functions with the most self time in a CPU profile, as shares of all samples; given
 * `ops`, also each one's self time divided by `ops` (µs per operation, start-up included).
 */
export function printTop(profile: CpuProfile, n: number, ops?: number): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, { samples: number; micros: number }>();
  const samples = profile.samples ?? [];
  for (let i = 0; i < samples.length; i++) {
    const frame = byId.get(samples[i]!)!.callFrame;
    const file = frame.url.replace(/^.*\/(src|bench|node_modules|dist)\//, "$1/");
    const name = `${frame.functionName || "(anonymous)"} ${file}`;
    const entry = self.get(name) ?? { samples: 0, micros: 0 };
    entry.samples++;
    entry.micros += profile.timeDeltas?.[i] ?? 0;
    self.set(name, entry);
  }
  const total = samples.length;
  const rows = [...self].sort((a, b) => b[1].samples - a[1].samples).slice(0, n);
  console.table(
    rows.map(([frame, { samples: count, micros }]) => ({
      "self %": ((100 * count) / total).toFixed(1),
      ...(ops === undefined ? {} : { "µs/op": (micros / ops).toFixed(1) }),
      frame,
    })),
  );
}
