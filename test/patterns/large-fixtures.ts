import type { LargeEntities, LargeEntityStep } from "../../src/patterns/index.js";

/**
 * The crash scenarios of the large entities suite, shared by the suite (a writer "killed" by an
 * exception from `onStep`) and large-worker.ts (a child process that SIGKILLs itself at step k).
 */

export const PARTITION = "Sales";

/** Version A or B of employee `rowKey`: every large value says which version it belongs to. */
export function version(
  rowKey: string,
  v: "A" | "B",
): Record<string, unknown> & { partitionKey: string; rowKey: string } {
  const photo = new Uint8Array(70_000).fill(v.charCodeAt(0));
  if (v === "A") {
    return {
      partitionKey: PARTITION,
      rowKey,
      Version: "A",
      Photo: photo,
      Resume: "r".repeat(40_000), // 80,000 bytes as UTF-16: past what a String property holds
      Extra: `${"A".repeat(40_000)}`,
    };
  }
  // B: a new Photo, the same Resume (its blob is reused), a new Thumb, no Extra.
  return {
    partitionKey: PARTITION,
    rowKey,
    Version: "B",
    Photo: photo,
    Resume: "r".repeat(40_000),
    Thumb: "B".repeat(40_000),
  };
}

/** Which version a read returned: "A" or "B" when every value is that version's, "torn" otherwise. */
export function versionOf(record: Record<string, unknown>): "A" | "B" | "torn" {
  const v = record.Version;
  if (v !== "A" && v !== "B") return "torn";
  const expected = version(String(record.rowKey), v);
  const names = Object.keys(record).filter(
    (n) => !["partitionKey", "rowKey", "etag", "timestamp"].includes(n),
  );
  if (
    names.sort().join() !==
    Object.keys(expected)
      .filter((n) => n !== "partitionKey" && n !== "rowKey")
      .sort()
      .join()
  ) {
    return "torn";
  }
  for (const name of names) {
    const a = record[name];
    const b = expected[name];
    const same =
      a instanceof Uint8Array && b instanceof Uint8Array ? Buffer.from(a).equals(Buffer.from(b)) : a === b;
    if (!same) return "torn";
  }
  return v;
}

export interface CrashScenario {
  /** Steps the write reports (kill points 1..steps). */
  readonly steps: number;
  /** The state before the write (done by the test, never killed). */
  prepare(large: LargeEntities, rowKey: string): Promise<void>;
  /** The write that is killed. */
  run(large: LargeEntities, rowKey: string): Promise<unknown>;
  /** What a read shows once the writer died after step k. */
  readAfter(k: number): "A" | "B" | "absent";
  /** Blobs left unreferenced once the writer died after step k (what cleanup must find). */
  orphansAfter(k: number): number;
}

export const SCENARIOS: Record<"create" | "update" | "delete", CrashScenario> = {
  // upload Photo, Resume, Extra; write the entity.
  create: {
    steps: 4,
    prepare: async () => {},
    run: (large, rowKey) => large.create(version(rowKey, "A")),
    readAfter: (k) => (k >= 4 ? "A" : "absent"),
    orphansAfter: (k) => (k >= 4 ? 0 : k),
  },
  // upload Photo, Thumb (Resume reused); write the entity; delete the old Photo and Extra.
  update: {
    steps: 5,
    prepare: async (large, rowKey) => {
      await large.create(version(rowKey, "A"));
    },
    run: (large, rowKey) => large.update(version(rowKey, "B"), "Replace"),
    readAfter: (k) => (k >= 3 ? "B" : "A"),
    orphansAfter: (k) => [0, 1, 2, 2, 1, 0][k]!,
  },
  // delete the entity; delete its three blobs.
  delete: {
    steps: 4,
    prepare: async (large, rowKey) => {
      await large.create(version(rowKey, "A"));
    },
    run: (large, rowKey) => large.delete(PARTITION, rowKey),
    readAfter: () => "absent",
    orphansAfter: (k) => 4 - k,
  },
};

/** An `onStep` that calls `die` when step `k` has completed. */
export function dieAtStep(k: number, die: () => never): (step: LargeEntityStep) => void {
  let n = 0;
  return () => {
    if (++n === k) die();
  };
}
