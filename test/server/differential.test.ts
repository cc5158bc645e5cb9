import { describeDifferential } from "../support/differential/runner.js";
import { startTablekitServer } from "../support/tablekit-server.js";

/**
 * Seeded random operations against `memory:` (the reference) and against `tablekit serve` through
 * the azure backend with `emulator: false`: every observable result must match, -0 and the
 * millisecond boundaries included (the server has none of Azurite's divergences).
 */
describeDifferential({
  title: "azure (tablekit serve)",
  startServer: startTablekitServer,
  timeoutMs: 120_000,
  data: {
    partitions: ["p0", "p1", "p2"],
    rows: Array.from({ length: 12 }, (_, i) => `r${String(i).padStart(2, "0")}`),
    tickOffsets: [0n, 1n, 4_999n, 9_999n, 10_000n, 10_001n, 20_000n, -1n],
    keyComparisonChance: 0.3,
    absentKeys: { partitions: ["p9"], rows: ["r99"] },
    pinnedPartitionChance: 0.2,
  },
  mix: { create: 18, upsert: 14, update: 14, delete: 8, get: 10, transaction: 16, query: 20 },
});
