/** A checked entity is trusted only by tables with the rules it was checked against. */
import { describe, expect, it } from "vitest";
import { openStore } from "../../src/index.js";
import { expectCode } from "../support/expect-code.js";

describe("checked entities across stores", () => {
  it("a store with stricter rules checks another store's checked entity afresh, and writes nothing", async () => {
    const loose = await openStore("memory:");
    const strict = await openStore("memory:", { limits: { maxProperties: 2 } });
    try {
      await strict.createTable("Things");
      const checked = loose.table("Things").checkEntity({ partitionKey: "p", rowKey: "r", a: 1, b: 2, c: 3 });
      await expectCode(strict.table("Things").createEntity(checked), "TooManyProperties");
      await expectCode(strict.table("Things").submitTransaction([["upsert", checked]]), "TooManyProperties");
      const left = [];
      for await (const e of strict.table("Things").listEntities()) left.push(e);
      expect(left).toEqual([]);
      // The same entity passes the rules it was checked against, written unchanged.
      await loose.createTable("Things");
      await loose.table("Things").createEntity(checked);
      const read = await loose.table("Things").getEntity("p", "r");
      expect([read.a, read.b, read.c]).toEqual([1, 2, 3]);
    } finally {
      await loose.close();
      await strict.close();
    }
  });
});
