/**
 * An import of large entities into one partition: the batcher cuts transactions by their request
 * body (Binary counted as base64), so entities the size formula would put in one transaction land
 * in several, each within the limit, every row written once.
 */
import { afterAll, describe, expect, it } from "vitest";
import { type ImportProgress, importRecords } from "../../src/cli/transfer/import-records.js";
import { inputRecords } from "../../src/cli/transfer/input-records.js";
import { openStore, type Store } from "../../src/index.js";
import { requestBodyBytes } from "../conformance/request-payload.js";
import { documentedEntitySize } from "../conformance/sizes.js";

const store: Store = await openStore("memory:");
afterAll(() => store.close());

async function* once(text: string): AsyncGenerator<Buffer> {
  yield Buffer.from(text, "utf8");
}

describe("import batches by request size", () => {
  it("60 entities of 55,000 Binary bytes in one partition: several transactions within 4 MiB, each row once", async () => {
    const table = store.table("BigRows");
    await table.createTable();
    const limits = store.capabilities.limits;
    const rows = Array.from({ length: 60 }, (_, i) => ({
      partitionKey: "p",
      rowKey: `r${String(i).padStart(2, "0")}`,
      blob: Buffer.alloc(55_000, i),
    }));
    // By the entity size formula the rows fit one transaction; on the wire (base64) they do not.
    expect(rows.reduce((n, r) => n + documentedEntitySize(r), 0)).toBeLessThan(limits.maxTransactionBytes);
    expect(requestBodyBytes(table.tableName, rows)).toBeGreaterThan(limits.maxTransactionBytes);
    const text = rows
      .map((r) =>
        JSON.stringify({
          PartitionKey: r.partitionKey,
          RowKey: r.rowKey,
          "blob@odata.type": "Edm.Binary",
          blob: r.blob.toString("base64"),
        }),
      )
      .join("\n");
    const commits: number[][] = [];
    const written = await importRecords(inputRecords(once(`${text}\n`), "ndjson"), {
      table,
      limits,
      mode: "Replace",
      committed: (progress: ImportProgress) => {
        commits.push([...progress.committedLines]);
      },
    });
    expect(written).toBe(60);
    expect(commits.length).toBeGreaterThan(1);
    for (const lines of commits) {
      const batch = lines.map((line) => rows[line - 1]!);
      expect(requestBodyBytes(table.tableName, batch)).toBeLessThanOrEqual(limits.maxTransactionBytes);
    }
    expect(commits.flat().sort((a, b) => a - b)).toEqual(rows.map((_, i) => i + 1));
    const stored = [];
    for await (const e of table.listEntities()) stored.push(e);
    expect(stored.map((e) => e.rowKey)).toEqual(rows.map((r) => r.rowKey));
    expect(stored.every((e, i) => Buffer.from(e.blob as Uint8Array).equals(rows[i]!.blob))).toBe(true);
  });
});
