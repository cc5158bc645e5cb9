import { describe, expect, it } from "vitest";
import {
  type AdviseTableOptions,
  type AdvisorFinding,
  adviseTable,
  type Table,
  type TableEntity,
  type TransactionAction,
} from "../../src/index.js";
import { defineLog, defineVersioned, field } from "../../src/patterns/index.js";
import { Employee, Location } from "./models.js";
import type { PatternsRef } from "./target.js";

type Row = TableEntity<Record<string, unknown>>;

/** Writes rows in batches of up to 100 per partition (fast on every backend). */
async function put(table: Table, rows: readonly Row[]): Promise<void> {
  const byPartition = new Map<string, Row[]>();
  for (const r of rows) byPartition.set(r.partitionKey, [...(byPartition.get(r.partitionKey) ?? []), r]);
  for (const group of byPartition.values()) {
    for (let i = 0; i < group.length; i += 100) {
      await table.submitTransaction(group.slice(i, i + 100).map((e) => ["create", e] as TransactionAction));
    }
  }
}

const ids = (findings: readonly AdvisorFinding[]) => findings.map((f) => f.id).sort();
const only = (findings: readonly AdvisorFinding[], id: string) => {
  const found = findings.filter((f) => f.id === id);
  expect(found, `${id} in ${JSON.stringify(ids(findings))}`).toHaveLength(1);
  return found[0]!;
};

/** The advisor against tables built to hold each problem, and clean tables that must report nothing. */
export function advisorSuite(ref: PatternsRef): void {
  describe("key-design advisor", () => {
    async function advise(rows: readonly Row[], options: AdviseTableOptions = {}) {
      const table = await ref().freshTable();
      await put(table, rows);
      return { table, report: await adviseTable(ref().store, table.tableName, options) };
    }

    it("reports nothing on tables built with the catalogue's patterns", async () => {
      const table = await ref().freshTable();
      const employees = Employee.on(table);
      const names = [
        "ada",
        "bob",
        "cy",
        "dee",
        "van der Berg",
        "fay",
        "gus",
        "hal",
        "ivy",
        "jo",
        "kit",
        "lu",
      ];
      for (const [i, name] of names.entries()) {
        await employees.create({
          department: i % 3 ? "Sales" : "R&D",
          id: (i + 1) * 97,
          email: `${name.replaceAll(" ", ".")}@contoso.com`,
          firstName: name,
          lastName: name.toUpperCase(),
          age: 20 + i,
        });
      }
      const places = Location.on(table);
      for (const [country, region, state, city] of [
        ["us", "wa", "king", "seattle"],
        ["us", "washington", "dc", "dc"],
        ["us", "wa", "king", "bellevue"],
        ["fr", "idf", "paris", "paris"],
      ] as const) {
        await places.create({ kind: "place", country, region, state, city, population: 1000n });
      }
      const log = defineLog({
        table: table.tableName,
        fields: { app: field.string(), message: field.string() },
        partitionKey: (k) => k.field("app"),
      }).on(table);
      for (let i = 0; i < 15; i++) await log.append({ app: "app1", message: `m${i}` });
      const audits = defineVersioned({
        table: table.tableName,
        fields: { equipment: field.string(), item: field.string(), result: field.string() },
        partitionKey: (k) => k.field("equipment"),
        item: (k) => k.field("item"),
      }).on(table);
      for (let v = 0; v < 12; v++)
        await audits.write({ equipment: "Equipment_1", item: "Audit", result: `r${v}` });
      await table.createEntity({ partitionKey: "settings", rowKey: "theme", value: "dark" });
      const report = await adviseTable(ref().store, table.tableName, { models: [Employee] });
      expect(report.findings).toEqual([]);
      expect(report.read).toMatchObject({ complete: true, partialPartitions: 0 });
      expect(report.read!.entities).toBeGreaterThan(60);
    });

    it("finds unpadded numbers, padding outgrown, 18-digit ticks and unsortable dates", async () => {
      const plainTicks = (iso: string) =>
        String(BigInt(new Date(iso).getTime()) * 10_000n + 621355968000000000n);
      const { report } = await advise([
        ...[1, 2, 9, 10, 11, 100].map((n) => ({ partitionKey: "orders", rowKey: String(n) })),
        ...["0007", "0042", "0999", "12000"].map((n) => ({ partitionKey: "invoices", rowKey: `inv_${n}` })),
        ...["2010-05-27", "2010-05-28", "2011-01-01"].map((d) => ({
          partitionKey: "ticks",
          rowKey: plainTicks(d),
        })),
        ...["28-05-2010", "27-05-2010", "01-06-2009"].map((d) => ({
          partitionKey: "posts",
          rowKey: `post_${d}`,
        })),
      ]);
      expect(ids(report.findings)).toEqual([
        "date-key-unsortable",
        "numeric-key-too-narrow",
        "numeric-key-unpadded",
        "ticks-key-wrong-width",
      ]);
      const unpadded = only(report.findings, "numeric-key-unpadded");
      expect(unpadded).toMatchObject({ severity: "error", subject: "RowKey", count: 5 });
      expect(unpadded.examples).toEqual(["1", "10", "100"]);
      expect(unpadded.docs).toBe("keys/padded-integers.md");
      const narrow = only(report.findings, "numeric-key-too-narrow");
      expect(narrow).toMatchObject({ count: 1, examples: ["inv_0007", "inv_12000"] });
      expect(only(report.findings, "ticks-key-wrong-width")).toMatchObject({ severity: "warning", count: 3 });
      expect(only(report.findings, "date-key-unsortable")).toMatchObject({ count: 3 });
    });

    it("finds a PartitionKey that grows with time, and a hot partition from Timestamps", async () => {
      const hours = ["2014-07-31T17", "2014-07-31T18", "2014-07-31T19"];
      const rows = hours.flatMap((h, i) =>
        Array.from({ length: i === 2 ? 400 : 3 }, (_, n) => ({
          partitionKey: h,
          rowKey: `e${String(n).padStart(4, "0")}`,
        })),
      );
      // 400 writes in 4 batches land in at most a few seconds: one of them holds 100 or more.
      const { report } = await advise(rows, { hotWritesPerSecond: 100 });
      const grows = only(report.findings, "partition-key-grows-with-time");
      expect(grows).toMatchObject({ count: 3, docs: "patterns/hash-partitioning.md" });
      expect(grows.examples).toContain("2014-07-31T17");
      const hot = only(report.findings, "hot-partition");
      expect(hot.count).toBe(1);
      expect(hot.examples[0]).toMatch(/^2014-07-31T19: \d+ writes\/s$/);
      expect(ids(report.findings)).toEqual(["hot-partition", "partition-key-grows-with-time"]);
    });

    it("finds separators inside components, prefix over-matches and keys whose order differs by encoding", async () => {
      const { report } = await advise([
        ...["jones_2012", "smith_2012", "lee_2013", "kim_2014", "ray_2014", "van_der_berg_2012"].map((k) => ({
          partitionKey: "reviews",
          rowKey: `emp_${k}`,
        })),
        { partitionKey: "places", rowKey: "us_wa" },
        { partitionKey: "places", rowKey: "us_washington" },
        { partitionKey: "text", rowKey: "a\u{1F600}" },
        { partitionKey: "text", rowKey: "a\uE000" },
      ]);
      expect(ids(report.findings)).toEqual([
        "key-order-differs",
        "prefix-over-match",
        "separator-in-component",
      ]);
      const sep = only(report.findings, "separator-in-component");
      expect(sep).toMatchObject({ count: 1, examples: ["emp_van_der_berg_2012"], subject: "RowKey (emp_…)" });
      expect(only(report.findings, "prefix-over-match").examples).toEqual(["us_wa / us_washington"]);
      expect(only(report.findings, "key-order-differs").count).toBe(1);
    });

    it("finds mixed property types and entities near the property, size and value limits", async () => {
      const limits = ref().capabilities.limits;
      const wide: Row = { partitionKey: "wide", rowKey: "w1" };
      for (let i = 0; i < 230; i++) wide[`p${i}`] = i;
      const chars = Math.floor(
        0.95 * Math.min(limits.maxEntityBytes / 2, limits.maxItemBytes ?? Number.POSITIVE_INFINITY),
      );
      const big: Row = { partitionKey: "big", rowKey: "b1" };
      for (let i = 0; chars - i * 20000 > 0; i++)
        big[`s${i}`] = "x".repeat(Math.min(20000, chars - i * 20000));
      const { report: again } = await advise([
        { partitionKey: "prices", rowKey: "item_1", Price: 5 },
        { partitionKey: "prices", rowKey: "item_2", Price: 5.5 },
        { partitionKey: "prices", rowKey: "item_3", Price: 7 },
        wide,
        { partitionKey: "big", rowKey: "b0", note: "y".repeat(30000) },
        big,
      ]);
      expect(ids(again.findings)).toEqual([
        "entity-size-near-limit",
        "property-count-near-limit",
        "property-type-mixed",
        "value-size-near-limit",
      ]);
      const mixed = only(again.findings, "property-type-mixed");
      expect(mixed).toMatchObject({ subject: "property 'Price' of item_…", count: 1 });
      expect(mixed.examples).toEqual(["prices / item_1: Edm.Int32", "prices / item_2: Edm.Double"]);
      expect(only(again.findings, "property-count-near-limit").examples).toEqual([
        "wide / w1 (230 properties)",
      ]);
      expect(only(again.findings, "value-size-near-limit").count).toBe(1);
      expect(only(again.findings, "entity-size-near-limit").count).toBe(1);
    });

    it("finds index copies that disagree with their entity, and entities that do not decode as their model", async () => {
      const table = await ref().freshTable();
      const employees = Employee.on(table);
      for (const id of [1, 2, 3, 4]) {
        await employees.create({
          department: "Sales",
          id,
          email: `e${id}@contoso.com`,
          firstName: "F",
          lastName: `L${id}`,
        });
      }
      await table.deleteEntity("Sales", "email_e1@contoso.com");
      await table.updateEntity(
        { partitionKey: "Sales", rowKey: "email_e2@contoso.com", firstName: "Stale" },
        "Merge",
      );
      await table.createEntity({ partitionKey: "Sales", rowKey: "email_ghost@contoso.com", firstName: "G" });
      await table.createEntity({
        partitionKey: "Sales",
        rowKey: "empid_000009",
        EntityType: "Employee",
        id: "nine",
      });
      const report = await adviseTable(ref().store, table.tableName, { models: [Employee] });
      expect(ids(report.findings)).toEqual([
        "index-copy-mismatch",
        "model-field-mismatch",
        "property-type-mixed",
      ]);
      const copies = only(report.findings, "index-copy-mismatch");
      expect(copies.count).toBe(3);
      expect(copies.message).toBe(
        "1 copy missing, 1 copy holding other values than their entity, 1 orphan copy.",
      );
      expect(copies.examples).toEqual([
        "Sales / email_e1@contoso.com: missing (entity empid_000001)",
        "Sales / email_e2@contoso.com: differs from entity empid_000002",
        "Sales / email_ghost@contoso.com: no entity has this index key",
      ]);
      expect(only(report.findings, "model-field-mismatch").count).toBe(1);
      // Without the model, the same table is not judged by it.
      expect(ids((await adviseTable(ref().store, table.tableName)).findings)).toEqual([
        "property-type-mixed",
      ]);
    });

    it("reads a bounded sample: a few entities per partition, and at most maxEntities", async () => {
      const rows = ["a", "b", "c"].flatMap((pk) =>
        Array.from({ length: 30 }, (_, i) => ({ partitionKey: pk, rowKey: String(i).padStart(3, "0") })),
      );
      const { table, report } = await advise(rows, { maxPerPartition: 10 });
      expect(report.read).toEqual({ entities: 30, partitions: 3, partialPartitions: 3, complete: true });
      const progress: number[] = [];
      const capped = await adviseTable(ref().store, table.tableName, {
        maxEntities: 45,
        onProgress: (p) => progress.push(p.entities),
      });
      expect(capped.read).toEqual({ entities: 45, partitions: 2, partialPartitions: 1, complete: false });
      expect(progress.at(-1)).toBe(45);
    });
  });
}
