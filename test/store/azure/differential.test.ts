import { startAzurite } from "../../support/azurite.js";
import { describeDifferential } from "../../support/differential/runner.js";

/**
 * Seeded random operations against `memory:` (the reference) and against Azurite through the azure
 * backend; every observable result must match (see describeDifferential). -0 is left out because
 * the capabilities declare Azurite's double-negative-zero divergence.
 */
describeDifferential({
  title: "azure",
  startServer: startAzurite,
  timeoutMs: 180_000,
  data: {
    partitions: ["p0", "p1", "p2"],
    rows: Array.from({ length: 12 }, (_, i) => `r${String(i).padStart(2, "0")}`),
    // Around one millisecond boundary: where Azurite's ms comparison goes wrong.
    tickOffsets: [0n, 1n, 4_999n, 9_999n, 10_000n, 10_001n, 20_000n, -1n],
    keyComparisonChance: 0.3,
    absentKeys: { partitions: [], rows: [] },
    pinnedPartitionChance: 0,
  },
  mix: { create: 18, upsert: 14, update: 14, delete: 8, get: 10, transaction: 16, query: 20 },
});
