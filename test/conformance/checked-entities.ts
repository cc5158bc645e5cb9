import { describe, expect, it } from "vitest";
import { DateTime, type Table } from "../../src/index.js";
import {
  customProperties,
  expectCode,
  expectEmpty,
  listAll,
  type ReadEntity,
  type TargetRef,
} from "./helpers.js";

/**
 * `Table.checkEntity` (an entity checked once, accepted by every write without a second check) and
 * `createEntity(…, { returnContent: true })` (the entity as stored, from the write itself).
 */
export function checkedEntitiesSuite(target: TargetRef): void {
  describe("checked entities and returned content", () => {
    let current: Table | undefined;
    const fresh = async () => {
      current = await target().freshTable();
      return current;
    };

    it("checkEntity answers a bad entity with the code a write answers, and writes nothing", async () => {
      const t = await fresh();
      const bad = { partitionKey: "p", rowKey: "r", "bad name": 1 };
      const fromWrite = await expectCode(t.createEntity(bad), "PropertyNameInvalid");
      let fromCheck: unknown;
      try {
        t.checkEntity(bad);
      } catch (err) {
        fromCheck = err;
      }
      expect((fromCheck as { code?: string }).code).toBe((fromWrite as { code?: string }).code);
      await expectCode(
        Promise.resolve().then(() => t.checkEntity({ partitionKey: "p", rowKey: "a/b" })),
        "OutOfRangeInput",
      );
      await expectEmpty(t);
    });

    it("a checked entity is written by create, upsert, update and transactions exactly as its plain form", async () => {
      const t = await fresh();
      const when = DateTime.parse("2026-11-25T10:00:00.1234567Z");
      const plain = {
        partitionKey: "p",
        rowKey: "1",
        name: "Ada",
        big: { value: "9007199254740993", type: "Int64" as const },
        when: { value: when.toISOString(), type: "DateTime" as const },
      };
      const checked = t.checkEntity(plain);
      await t.createEntity(checked);
      await t.createEntity({ ...plain, rowKey: "2" });
      const [one, two] = (await listAll(t)) as ReadEntity[];
      expect(customProperties(one!)).toEqual(customProperties(two!));

      await t.upsertEntity(t.checkEntity({ partitionKey: "p", rowKey: "1", name: "Grace" }), "Replace");
      expect(customProperties((await t.getEntity("p", "1")) as ReadEntity)).toEqual({ name: "Grace" });
      const { etag } = await t.getEntity("p", "1");
      await t.updateEntity(t.checkEntity({ partitionKey: "p", rowKey: "1", n: 2 }), "Merge", { etag });
      expect(customProperties((await t.getEntity("p", "1")) as ReadEntity)).toEqual({ name: "Grace", n: 2 });

      await t.submitTransaction([["create", t.checkEntity({ partitionKey: "p", rowKey: "3", k: true })]]);
      expect(customProperties((await t.getEntity("p", "3")) as ReadEntity)).toEqual({ k: true });
    });

    it("createEntity with returnContent returns the entity as stored: typed values, its ETag and Timestamp", async () => {
      const t = await fresh();
      const written = await t.createEntity(
        { partitionKey: "p", rowKey: "r", n: 5, d: { value: 1.5, type: "Double" }, s: "x" },
        { returnContent: true },
      );
      const read = await t.getEntity("p", "r");
      expect(written.entity).toEqual(read);
      expect(written.entity.etag).toBe(written.etag);
      expect(written.entity.timestamp).toBe(written.timestamp);
      const plain = await t.createEntity({ partitionKey: "p", rowKey: "s" });
      expect("entity" in plain).toBe(false);
    });
  });
}
