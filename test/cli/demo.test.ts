import { afterAll, describe, expect, it } from "vitest";
import { cli, ndjson, tempDir } from "./run-cli.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);

describe("tablekit demo", { timeout: 120_000 }, () => {
  it("builds the sample data on the default store, and a second run rebuilds the same data", async () => {
    const first = await cli(["demo"], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    // Only the store it used, as no --store named it.
    expect(first.stderr).toBe("store file:./tablekit.db (the default; name another with --store)\n");
    for (const key of [
      "empid_000223",
      "email_jones@contoso.com",
      "2521272959999999999",
      "v0_Audit",
      "v000003_Audit",
      "0000000005",
      "~counter",
      '"id":"archive-Marketing-7"',
    ]) {
      expect(first.stdout).toContain(key);
    }
    const snapshot = async () => {
      const out: Record<string, unknown[]> = {};
      for (const table of [
        "DemoEmployees",
        "DemoArchive",
        "DemoExpenses",
        "DemoPosts",
        "DemoAudits",
        "DemoOrders",
      ]) {
        const r = await cli(["query", table, "-o", "ndjson", "--select", "RowKey"], { cwd: dir });
        expect(r.code, r.stderr).toBe(0);
        out[table] = ndjson(r.stdout).map((e) => `${e.PartitionKey}/${e.RowKey}`);
      }
      return out;
    };
    const before = await snapshot();
    expect(before.DemoOrders).toHaveLength(6);
    // The archived employee moved: in the archive, gone from Marketing with its email copy.
    expect(before.DemoArchive).toEqual(["Marketing/empid_000007"]);
    expect(before.DemoEmployees!.filter((k) => String(k).startsWith("Marketing/"))).toEqual([]);
    const second = await cli(["demo"], { cwd: dir });
    expect(second.code, second.stderr).toBe(0);
    expect(await snapshot()).toEqual(before);
    // The log blobs are rewritten, not appended to: the same six blobs of the same sizes.
    const blobs = (stdout: string) => stdout.match(/queue\/2014\/07\/31\/\d{4}\/000001\.log +\d+/g);
    expect(blobs(first.stdout)).toHaveLength(6);
    expect(blobs(second.stdout)).toEqual(blobs(first.stdout));
    const tables = await cli(["tables"], { cwd: dir });
    expect(tables.stdout.split("\n").filter(Boolean).sort()).toEqual([
      "DemoArchive",
      "DemoAudits",
      "DemoEmployees",
      "DemoExpenses",
      "DemoJournal",
      "DemoOrders",
      "DemoPosts",
    ]);
  });
});
