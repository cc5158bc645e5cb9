/**
 * Names that are members of Object.prototype (`constructor`, `toString`, `__proto__`, …) are
 * ordinary names wherever a user supplies one: store URL schemes, model fields, key fields,
 * patch changes, type properties. A plain-object lookup once found them by inheritance.
 */
import { afterAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../src/index.js";
import { defineModel, field } from "../src/patterns/index.js";
import { caught } from "./conformance/helpers.js";
import { PROTOTYPE_NAMES } from "./support/prototype-names.js";

describe("names of Object.prototype members", () => {
  const stores: Store[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  it("are unknown store URL schemes", async () => {
    for (const name of PROTOTYPE_NAMES) {
      expect(await caught(() => openStore(`${name.toLowerCase()}:x`)), name).toMatchObject({
        code: "InvalidStoreUrl",
      });
    }
  });

  it("are fields like any other: optional and absent, required and missing, patched, keyed", async () => {
    const store = await openStore("memory:");
    stores.push(store);
    for (const name of PROTOTYPE_NAMES.filter((n) => n !== "__proto__")) {
      const Thing = defineModel({
        table: "Things",
        entityType: "Thing",
        fields: { id: field.string(), [name]: field.string().optional() } as {
          id: ReturnType<typeof field.string>;
        },
        partitionKey: (k) => k.literal("things"),
        rowKey: (k) => k.field("id"),
      });
      const repo = Thing.on(store);
      await store.createTable("Things");
      // Absent optional field: the stored entity lacks it, and reading must not find an inherited one.
      await repo.create({ id: name });
      const record = (await repo.get({ id: name })) as Record<string, unknown>;
      expect(Object.hasOwn(record, name), name).toBe(false);
      // A patch naming a field the model lacks is refused, even when Object.prototype has it.
      const Plain = defineModel({
        table: "Things",
        fields: { id: field.string(), n: field.int32().optional() },
        partitionKey: (k) => k.literal("plain"),
        rowKey: (k) => k.field("id"),
      });
      expect(
        await caught(() => Plain.on(store).patch({ id: "x" }, { [name]: "v" } as never)),
        name,
      ).toMatchObject({ code: "InvalidInput" });
      // A key naming a field the model lacks is refused at definition time.
      expect(() =>
        defineModel({
          table: "Things",
          fields: { id: field.string() },
          partitionKey: (k) => k.literal("p"),
          rowKey: (k) => k.field(name as "id"),
        }),
      ).toThrow(/not a field/);
      await store.deleteTable("Things");
    }
  });

  it("a required key field named like a prototype member must be given", () => {
    const Model = defineModel({
      table: "Keyed",
      fields: { valueOf: field.string(), hasOwnProperty: field.string() },
      partitionKey: (k) => k.field("valueOf"),
      rowKey: (k) => k.field("hasOwnProperty"),
    });
    expect(() => Model.keys({} as never)).toThrow(/required/);
    expect(Model.keys({ valueOf: "a", hasOwnProperty: "b" })).toMatchObject({
      partitionKey: "a",
      rowKey: "b",
    });
  });
});
