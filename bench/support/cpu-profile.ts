/** Reading CPU profiles (V8's `.cpuprofile` format, from node:inspector or `node --cpu-prof`). */

export interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

/** The `n` functions with the most self time in a CPU profile, as shares of all samples. */
export function printTop(profile: CpuProfile, n: number): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  for (const id of profile.samples ?? []) {
    const frame = byId.get(id)!.callFrame;
    const file = frame.url.replace(/^.*\/(src|bench|node_modules)\//, "$1/");
    const name = `${frame.functionName || "(anonymous)"} ${file}`;
    self.set(name, (self.get(name) ?? 0) + 1);
  }
  const total = profile.samples?.length ?? 0;
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.table(rows.map(([frame, samples]) => ({ "self %": ((100 * samples) / total).toFixed(1), frame })));
}
