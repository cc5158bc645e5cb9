import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../../src/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("embedded file store: WAL checkpoints (docs/embedded.md)", () => {
  it("checkpoints every 4,000 pages, not SQLite's default 1,000: the log grows past 1,000 pages", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tablekit-wal-"));
    dirs.push(dir);
    const file = join(dir, "wal.db");
    const store = await openStore(`file:${file}`);
    try {
      await store.createTable("Pages");
      const pages = store.table("Pages");
      // 120 commits of ~15 pages each (a 60 KB string): ~1,800 pages. With a checkpoint at 1,000
      // pages the log is then rewound and stays near 1,000 pages (~4 MB); at 4,000 it holds them all.
      const big = "x".repeat(30_000);
      for (let i = 0; i < 120; i++)
        await pages.createEntity({ partitionKey: "p", rowKey: String(i).padStart(4, "0"), a: big, b: big });
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(1_500 * 4096);
    } finally {
      await store.close();
    }
  });
});
