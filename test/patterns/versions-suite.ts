import { describe, expect, it } from "vitest";
import { defineVersioned, field } from "../../src/patterns/index.js";
import { listAll } from "../conformance/helpers.js";
import { expectCode } from "../support/expect-code.js";
import type { PatternsRef } from "./target.js";

/** Seed 004's audits of equipment: `v0_Audit` is the latest, `v000001_Audit` … the history. */
const Audit = defineVersioned({
  table: "Audits",
  fields: { equipment: field.string(), auditor: field.string(), result: field.string() },
  partitionKey: (k) => k.field("equipment"),
  item: (k) => k.literal("Audit"),
});

/** Several parts versioned in one partition: the part id follows the version prefix. */
const PartAudit = defineVersioned({
  table: "Audits",
  fields: { equipment: field.string(), part: field.string(), result: field.string() },
  partitionKey: (k) => k.field("equipment"),
  item: (k) => k.field("part"),
});

/** Version history with a `v0_` latest copy (seed 004). */
export function versionsSuite(target: PatternsRef): void {
  describe("version history", () => {
    it("stores version N and replaces the v0_ copy together", async () => {
      const audits = Audit.on(await target().freshTable());
      const key = { equipment: "Equipment_1" };
      expect(await audits.latest(key)).toBeUndefined();
      const v1 = await audits.write({ ...key, auditor: "Ann", result: "pass" });
      await audits.write({ ...key, auditor: "Bob", result: "fail" });
      const v3 = await audits.write({ ...key, auditor: "Cid", result: "pass" }, { expectedVersion: 2 });
      expect([v1.version, v3.version]).toEqual([1, 3]);
      expect((await listAll(audits.table)).map((e) => e.rowKey)).toEqual([
        "v000001_Audit",
        "v000002_Audit",
        "v000003_Audit",
        "v0_Audit",
      ]);
      expect(await audits.latest(key)).toMatchObject({ auditor: "Cid", version: 3 });
      expect(await audits.version(key, 2)).toMatchObject({ auditor: "Bob", result: "fail", version: 2 });
      expect(await audits.version(key, 4)).toBeUndefined();
      expect((await audits.history(key).toArray()).map((v) => v.auditor)).toEqual(["Ann", "Bob", "Cid"]);
      await expectCode(audits.version(key, 0), "InvalidInput");
      await expectCode(audits.write({ ...key, auditor: "Dan", result: 1 as never }), "InvalidValueType");
    });

    it("a writer expecting a stale version fails and writes nothing", async () => {
      const audits = Audit.on(await target().freshTable());
      const key = { equipment: "E" };
      await audits.write({ ...key, auditor: "Ann", result: "pass" }, { expectedVersion: 0 });
      await expectCode(
        audits.write({ ...key, auditor: "Bob", result: "x" }, { expectedVersion: 0 }),
        "UpdateConditionNotSatisfied",
      );
      expect((await audits.history(key).toArray()).length).toBe(1);
    });

    it("two writers can never both create version N: concurrent writers lose no version", async () => {
      const audits = Audit.on(await target().freshTable());
      const key = { equipment: "E" };
      const writers = 8;
      const each = 4;
      const written = (
        await Promise.all(
          Array.from({ length: writers }, async (_, w) => {
            const mine: number[] = [];
            for (let i = 0; i < each; i++) {
              mine.push(
                (await audits.write({ ...key, auditor: `w${w}`, result: `${i}` }, { maxAttempts: 500 }))
                  .version,
              );
            }
            return mine;
          }),
        )
      ).flat();
      const total = writers * each;
      expect([...written].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      const history = await audits.history(key).toArray();
      expect(history.map((v) => v.version)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      expect(new Set(history.map((v) => `${v.auditor}/${v.result}`)).size).toBe(total); // every write kept
      const latest = await audits.latest(key);
      expect(latest).toMatchObject({
        version: total,
        auditor: history[total - 1]!.auditor,
        result: history[total - 1]!.result,
      });
      // The racing expectedVersion writers: exactly one wins version total + 1.
      const race = await Promise.allSettled(
        Array.from({ length: 4 }, (_, i) =>
          audits.write({ ...key, auditor: `r${i}`, result: "race" }, { expectedVersion: total }),
        ),
      );
      expect(race.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      for (const r of race) {
        if (r.status === "rejected") {
          expect(["EntityAlreadyExists", "UpdateConditionNotSatisfied"]).toContain(
            (r.reason as { code: string }).code,
          );
        }
      }
      expect((await audits.history(key).toArray()).length).toBe(total + 1);
    });

    it("versions several items of one partition apart", async () => {
      const parts = PartAudit.on(await target().freshTable());
      await parts.write({ equipment: "E", part: "pump", result: "ok" });
      await parts.write({ equipment: "E", part: "valve", result: "ok" });
      await parts.write({ equipment: "E", part: "pump", result: "worn" });
      expect((await parts.history({ equipment: "E", part: "pump" }).toArray()).map((v) => v.result)).toEqual([
        "ok",
        "worn",
      ]);
      expect(await parts.latest({ equipment: "E", part: "valve" })).toMatchObject({
        version: 1,
        result: "ok",
      });
      expect((await listAll(parts.table)).map((e) => e.rowKey)).toEqual([
        "v000001_pump",
        "v000001_valve",
        "v000002_pump",
        "v0_pump",
        "v0_valve",
      ]);
    });
  });
}
