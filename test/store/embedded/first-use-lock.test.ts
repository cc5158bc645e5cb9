/**
 * A port's tables are prepared on its first use, outside the store's own lock wait: while another
 * process holds the write lock, that first use waits for it (SQLite's busy handler, as at open)
 * instead of failing with ServerBusy. Found by the two-writer log-blob test, which failed once in CI
 * when the blob catalogue's schema transaction met the other writer's lock.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../../src/index.js";
import { startChild } from "./child-process.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("first use of a port while another process writes", () => {
  it("the blob port's first use waits for another process's write lock, then works", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tablekit-first-use-"));
    dirs.push(dir);
    const file = join(dir, "store.db");
    const setup = await openStore(`file:${file}`);
    await setup.createTable("Seed"); // the database exists; the blob tables do not yet
    await setup.close();

    const store = await openStore(`file:${file}`);
    const holder = startChild("hold-write-lock.ts", [file, "400"]);
    await holder.waitFor("locked");
    try {
      // The blob catalogue is made here, synchronously, under the other process's lock.
      const container = store.container("logs");
      await container.create();
      await container.uploadBlockBlob("a.txt", "hello", 5);
      expect((await container.getBlobClient("a.txt").downloadToBuffer()).toString()).toBe("hello");
    } finally {
      await store.close();
      expect(await holder.exited).toBe(0);
    }
    expect(holder.lines).toEqual(["locked", "released"]);
  });
});
