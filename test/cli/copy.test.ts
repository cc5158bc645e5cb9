/** copy between two stores: batched, resumable, checked by counting both sides. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, finished, ndjson, startCli, tempDir } from "./run-cli.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);
const run = (args: string[]) => cli(args, { cwd: dir });
const FROM = "file:./from.db";
const TO = "file:./to.db";

const lines = Array.from({ length: 150 }, (_, i) =>
  JSON.stringify({
    PartitionKey: `p${i % 3}`,
    RowKey: String(i).padStart(4, "0"),
    "big@odata.type": "Edm.Int64",
    big: String(2n ** 60n + BigInt(i)),
  }),
);

const exported = async (store: string, table: string) => {
  const r = await run(["export", table, "--store", store]);
  expect(r.code, r.stderr).toBe(0);
  return ndjson(r.stdout).map(({ Timestamp, ...rest }) => rest);
};

describe("tablekit copy", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    writeFileSync(join(dir, "src.ndjson"), `${lines.join("\n")}\n`);
    expect((await run(["import", "Orders", "src.ndjson", "--store", FROM])).code).toBe(0);
  });

  it("copies a table to another store and prints both counts", async () => {
    const r = await run(["copy", "Orders", "--from", FROM, "--to", TO]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("source Orders: 150 entities");
    expect(r.stdout).toContain("target Orders: 150 entities");
    expect(await exported(TO, "Orders")).toEqual(await exported(FROM, "Orders"));
  });

  it("fails with CountMismatch when the target holds other entities", async () => {
    const put = await cli(["put", "Orders", "--store", TO], {
      cwd: dir,
      input: '{"PartitionKey":"zz","RowKey":"extra"}',
    });
    expect(put.code).toBe(0);
    const r = await run(["copy", "Orders", "--from", FROM, "--to", TO]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("target Orders: 151 entities");
    expect(r.stderr).toMatch(/^error CountMismatch: /m);
  });

  it("a killed copy resumes from its last page", async () => {
    const state = join(dir, "copy-state.json");
    const args = [
      "copy",
      "Orders",
      "--from",
      FROM,
      "--to",
      TO,
      "--to-table",
      "OrdersCopy",
      "--state",
      "copy-state.json",
    ];
    const child = startCli([...args, "--pause", "40", "--batch-size", "5", "--page-size", "10"], {
      cwd: dir,
    });
    const done = finished(child);
    let exited = false;
    void done.then(() => (exited = true));
    while (!exited) {
      try {
        if (existsSync(state) && JSON.parse(readFileSync(state, "utf8")).entities >= 20)
          child.kill("SIGKILL");
      } catch {
        // a read racing the state file's creation: look again
      }
      await sleep(20);
    }
    expect((await done).signal).toBe("SIGKILL");
    const r = await run(args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^resuming after \d+ entities/m);
    expect(r.stdout).toContain("target OrdersCopy: 150 entities");
    expect(await exported(TO, "OrdersCopy")).toEqual(await exported(FROM, "Orders"));
  });

  it("refuses to copy a table onto itself (usage, exit 2)", async () => {
    const r = await run(["copy", "Orders", "--from", FROM, "--to", FROM]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error Usage: /m);
  });
});
