import { statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { startChild } from "./child-process.js";
import { entity, freshTable, openFile, queryAll, tempDir } from "./helpers.js";

const COUNT = 30_000; // ~60 MiB in one transaction: SQLite spills pages to the WAL long before commit

const walSize = (path: string) => {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
};

async function countRows(path: string): Promise<number> {
  const store = await openFile(path);
  const { entities } = await queryAll(store.table("Crash"), {
    ranges: [{ kind: "rows", pk: "batch", rk: {} }],
    select: [],
  });
  await store.close();
  return entities.length;
}

describe("embedded crash atomicity", () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it("a process killed (SIGKILL) in the middle of a large transaction leaves nothing of it", async () => {
    const path = join(dir, "crash.db");
    const store = await openFile(path);
    const table = await freshTable(store, "Crash");
    await table.write({ kind: "create", entity: entity({ partitionKey: "before", rowKey: "r", n: 1 }) }, {});
    await store.close();
    const walBefore = walSize(path);

    const run = startChild("big-transaction-child.ts", [path, String(COUNT)]);
    await run.waitFor("begin");
    // Kill once the uncommitted transaction has written 16 MiB of pages into the WAL.
    while (walSize(path) < walBefore + 16 * 2 ** 20 && !run.lines.includes("committed")) {
      await new Promise((r) => setTimeout(r, 5));
    }
    run.child.kill("SIGKILL");
    await run.exited;
    expect(run.lines).not.toContain("committed");

    expect(await countRows(path)).toBe(0);
    const raw = new Database(path);
    expect(raw.pragma("integrity_check", { simple: true })).toBe("ok");
    raw.close();
    const reopened = await openFile(path);
    expect((await reopened.table("Crash").get("before", "r", {}))?.properties.get("n")).toEqual({
      type: "Int32",
      value: 1,
    });
    await reopened.close();
  }, 120_000);

  it("a process killed right after its commit leaves all of it", async () => {
    const path = join(dir, "crash.db");
    const run = startChild("big-transaction-child.ts", [path, String(COUNT)]);
    await run.waitFor("committed");
    run.child.kill("SIGKILL");
    await run.exited;
    expect(await countRows(path)).toBe(COUNT);
  }, 120_000);
});
