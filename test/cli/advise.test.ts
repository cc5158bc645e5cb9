import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cli, PATTERNS_ENTRY, tempDir } from "./run-cli.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);
const run = (args: string[], input?: string) =>
  cli(args, { cwd: dir, ...(input === undefined ? {} : { input }) });

describe("tablekit advise", { timeout: 120_000 }, () => {
  it("reports findings for people and machines, exits 1 with findings and 0 without", async () => {
    const rows = ["1", "2", "10", "11"].map((k) => JSON.stringify({ PartitionKey: "orders", RowKey: k }));
    expect((await run(["import", "Orders", "-"], rows.join("\n"))).code).toBe(0);
    const text = await run(["advise", "Orders"]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("advise table Orders: 4 entities in 1 partition (all of it)");
    expect(text.stdout).toContain("error numeric-key-unpadded  RowKey: Numbers in keys without padding");
    expect(text.stdout).toContain("fix: Padded numeric keys (docs/keys/padded-integers.md)");
    expect(text.stdout).not.toContain("\u001b["); // no colour when stdout is not a terminal
    const json = await run(["advise", "Orders", "--json"]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report.read).toEqual({ entities: 4, partitions: 1, partialPartitions: 0, complete: true });
    expect(report.findings.map((f: { id: string }) => f.id)).toEqual(["numeric-key-unpadded"]);

    const clean = ["001", "002", "010"].map((k) => JSON.stringify({ PartitionKey: "orders", RowKey: k }));
    expect((await run(["import", "Clean", "-"], clean.join("\n"))).code).toBe(0);
    const ok = await run(["advise", "Clean"]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("no findings");
  });

  it("checks models without data, and refuses a command with neither table nor models", async () => {
    const file = join(dir, "models.mjs");
    writeFileSync(
      file,
      `import { defineModel, field } from ${JSON.stringify(pathToFileURL(PATTERNS_ENTRY).href)};
export const Reading = defineModel({
  table: "Readings",
  fields: { at: field.dateTime(), sensor: field.string(), value: field.double() },
  partitionKey: (k) => k.field("at"),
  rowKey: (k) => k.field("sensor"),
});
export const notAModel = 42;
`,
    );
    const res = await run(["advise", "--models", file, "--json"]);
    expect(res.code).toBe(1);
    const report = JSON.parse(res.stdout);
    expect(report).toMatchObject({ subject: "Readings", source: "model" });
    expect(report.findings.map((f: { id: string }) => f.id)).toEqual(["partition-key-grows-with-time"]);
    const usage = await run(["advise"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("name a table, or give --models");
  });
});
