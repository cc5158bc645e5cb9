import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startChild } from "./child-process.js";
import { entity, freshTable, openFile, tempDir } from "./helpers.js";

const CHILDREN = 4;
const INCREMENTS = 150;

describe("embedded store shared by several processes", () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it(`${CHILDREN} processes incrementing one counter under optimistic concurrency lose no update`, async () => {
    const path = join(dir, "counter.db");
    const store = await openFile(path);
    const table = await freshTable(store, "Counters");
    await table.write({ kind: "create", entity: entity({ partitionKey: "c", rowKey: "counter", n: 0 }) }, {});

    const children = Array.from({ length: CHILDREN }, () =>
      startChild("counter-child.ts", [path, String(INCREMENTS)]),
    );
    await Promise.all(children.map((c) => c.waitFor("ready")));
    for (const c of children) c.child.stdin!.end("go\n");
    const codes = await Promise.all(children.map((c) => c.exited));
    expect(codes).toEqual(children.map(() => 0));

    const reports = children.map((c) => JSON.parse(c.lines.at(-1)!) as { done: number; conflicts: number });
    const total = reports.reduce((sum, r) => sum + r.done, 0);
    expect(total).toBe(CHILDREN * INCREMENTS);
    // The writers really raced (the "go" barrier starts them together).
    expect(reports.reduce((sum, r) => sum + r.conflicts, 0)).toBeGreaterThan(0);
    const counter = await table.get("c", "counter", {});
    expect(counter!.properties.get("n")).toEqual({ type: "Int32", value: total });
    await store.close();
  }, 60_000);
});
