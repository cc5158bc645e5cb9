import { describeDifferential } from "../../support/differential/runner.js";
import { startDynamoDbLocal } from "../../support/dynamodb-local.js";

/**
 * Seeded random operations against `memory:` (the reference) and against DynamoDB Local through
 * the dynamodb backend; every observable result must match (see describeDifferential).
 */
describeDifferential({
  title: "dynamodb",
  startServer: () => startDynamoDbLocal(),
  timeoutMs: 240_000,
  data: {
    // Empty keys, which DynamoDB cannot store as is. Keys stay ASCII, where UTF-8 and UTF-16 agree.
    partitions: ["", "p0", "p1", "p2"],
    rows: ["", ...Array.from({ length: 11 }, (_, i) => `r${String(i).padStart(2, "0")}`)],
    tickOffsets: [0n, 1n, 9_999n, 10_000n, 10_001n, -1n],
    keyComparisonChance: 0.35,
    absentKeys: { partitions: ["p"], rows: ["r0"] },
    // Queries pinned to one partition, as real ones often are: the backend's Query path.
    pinnedPartitionChance: 0.4,
  },
  mix: { create: 18, upsert: 14, update: 14, delete: 8, get: 8, transaction: 16, query: 22 },
});
