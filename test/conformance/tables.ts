import { describe, expect, it } from "vitest";
import { collect, expectCode, listAll, submit, type TargetRef } from "./helpers.js";

/** Table names of the store, through the flat iterator. */
async function tableNames(target: TargetRef): Promise<string[]> {
  return (await collect(target().store.listTables())).map((t) => t.name);
}

/** Creating, listing and deleting tables; table names. */
export function tablesSuite(target: TargetRef): void {
  describe("tables", () => {
    it("creates a table, lists it with its original case, deletes it", async () => {
      const { store } = target();
      const name = `${target().freshTableName()}MiXeD`;
      await store.createTable(name);
      expect(await tableNames(target)).toContain(name);
      await store.table(name).createEntity({ partitionKey: "p", rowKey: "r" });
      await store.deleteTable(name);
      expect(await tableNames(target)).not.toContain(name);
    });

    it("Table.createTable and Table.deleteTable work on the handle", async () => {
      const { store } = target();
      const name = target().freshTableName();
      const t = store.table(name);
      await t.createTable();
      expect(await tableNames(target)).toContain(name);
      await t.deleteTable();
      expect(await tableNames(target)).not.toContain(name);
    });

    it("creating an existing table succeeds as in the SDK (any case of the name); failIfExists makes it TableAlreadyExists", async () => {
      const { store } = target();
      const name = target().freshTableName();
      await store.createTable(name);
      await store.table(name).createEntity({ partitionKey: "p", rowKey: "r" });
      await store.createTable(name);
      await store.createTable(name.toUpperCase());
      await store.table(name.toLowerCase()).createTable();
      await expectCode(store.createTable(name, { failIfExists: true }), "TableAlreadyExists");
      await expectCode(store.createTable(name.toUpperCase(), { failIfExists: true }), "TableAlreadyExists");
      await expectCode(
        store.table(name.toLowerCase()).createTable({ failIfExists: true }),
        "TableAlreadyExists",
      );
      // The existing table and its content are untouched.
      expect(await listAll(store.table(name))).toHaveLength(1);
      expect((await tableNames(target)).filter((n) => n.toLowerCase() === name.toLowerCase())).toEqual([
        name,
      ]);
    });

    it("table names are case-insensitive for entity operations", async () => {
      const { store } = target();
      const name = target().freshTableName();
      await store.createTable(name);
      await store.table(name.toUpperCase()).createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
      expect((await store.table(name.toLowerCase()).getEntity("p", "r")).v).toBe(1);
      await store.deleteTable(name.toUpperCase());
      expect(await tableNames(target)).not.toContain(name);
    });

    it("deleting a missing table succeeds as in the SDK; failIfMissing makes it TableNotFound", async () => {
      const { store } = target();
      const name = target().freshTableName();
      await store.deleteTable(name);
      await store.table(name).deleteTable();
      await expectCode(store.deleteTable(name, { failIfMissing: true }), "TableNotFound");
      await expectCode(store.table(name).deleteTable({ failIfMissing: true }), "TableNotFound");
      expect(await tableNames(target)).not.toContain(name);
    });

    it("after deleteTable, entity operations are TableNotFound; a recreated table is empty", async () => {
      const { store } = target();
      const name = target().freshTableName();
      await store.createTable(name);
      const t = store.table(name);
      await t.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
      await store.deleteTable(name);
      await expectCode(t.getEntity("p", "r"), "TableNotFound");
      await expectCode(t.createEntity({ partitionKey: "p", rowKey: "s" }), "TableNotFound");
      await expectCode(t.upsertEntity({ partitionKey: "p", rowKey: "s" }), "TableNotFound");
      await expectCode(t.updateEntity({ partitionKey: "p", rowKey: "r" }), "TableNotFound");
      await expectCode(t.deleteEntity("p", "r"), "TableNotFound");
      await expectCode(listAll(t), "TableNotFound");
      await expectCode(submit(t, [["delete", { partitionKey: "p", rowKey: "r" }]]), "TableNotFound");
      await store.createTable(name);
      expect(await listAll(t)).toEqual([]);
      await expectCode(t.getEntity("p", "r"), "ResourceNotFound");
    });

    it("invalid table names are InvalidResourceName, for every table operation", async () => {
      const { store } = target();
      const bad = ["ab", `t${"a".repeat(63)}`, "1abc", "a-b", "a_b", "a b", "tables", "Tables", "", "tåble"];
      for (const name of bad) {
        await expectCode(store.createTable(name), "InvalidResourceName");
        await expectCode(store.deleteTable(name), "InvalidResourceName");
        await expectCode(
          store.table(name).createEntity({ partitionKey: "p", rowKey: "r" }),
          "InvalidResourceName",
        );
        await expectCode(store.table(name).getEntity("p", "r"), "InvalidResourceName");
        await expectCode(listAll(store.table(name)), "InvalidResourceName");
      }
      const names = (await tableNames(target)).map((n) => n.toLowerCase());
      for (const name of bad) expect(names).not.toContain(name.toLowerCase());
    });

    it("names of 3 and 63 characters are valid", async () => {
      const { store } = target();
      for (const length of [3, 63]) {
        const name = target().freshTableName(length);
        expect(name).toHaveLength(length);
        await store.createTable(name);
        await store.table(name).createEntity({ partitionKey: "p", rowKey: "r" });
        expect(await tableNames(target)).toContain(name);
        await store.deleteTable(name);
      }
    });

    it("listTables pages cover every table once, in case-insensitive order", async () => {
      const { store } = target();
      const mine = ["aaa", "Bbb", "ccc", "Ddd", "eee"].map(
        (suffix) => `${target().freshTableName(12)}${suffix}`,
      );
      for (const name of mine) await store.createTable(name);
      const pages = await collect(store.listTables().byPage({ maxPageSize: 2 }));
      for (const page of pages) expect(page.length).toBeLessThanOrEqual(2);
      const all = pages.flat().map((t) => t.name);
      expect(new Set(all).size).toBe(all.length);
      for (const name of mine) expect(all).toContain(name);
      const lower = all.map((n) => n.toLowerCase());
      expect(lower).toEqual([...lower].sort());
      // Resuming from a token in a new call continues without gaps.
      const first = (await store.listTables().byPage({ maxPageSize: 2 }).next()).value!;
      if (first.continuationToken) {
        const rest = await collect(
          store.listTables().byPage({ maxPageSize: 2, continuationToken: first.continuationToken }),
        );
        const resumed = [...first, ...rest.flat()].map((t) => t.name);
        for (const name of mine) expect(resumed).toContain(name);
        expect(new Set(resumed).size).toBe(resumed.length);
      }
      for (const name of mine) await store.deleteTable(name);
    });

    it("listTables filters on TableName", async () => {
      const { store } = target();
      const prefix = target().freshTableName(20);
      const mine = [`${prefix}a`, `${prefix}b`, `${prefix}c`];
      for (const name of mine) await store.createTable(name);
      const found = await collect(
        store.listTables({
          queryOptions: { filter: `TableName ge '${prefix}b' and TableName lt '${prefix}d'` },
        }),
      );
      expect(found.map((t) => t.name)).toEqual([`${prefix}b`, `${prefix}c`]);
      for (const name of mine) await store.deleteTable(name);
    });

    it("listTables takes boolean constants: true lists every table, false none", async () => {
      const { store } = target();
      const name = target().freshTableName();
      await store.createTable(name);
      const names = async (filter: string) =>
        (await collect(store.listTables({ queryOptions: { filter } }))).map((t) => t.name);
      expect(await names("true")).toContain(name);
      expect(await names(`true and TableName eq '${name}'`)).toEqual([name]);
      expect(await names("false")).toEqual([]);
      expect(await names(`false and TableName eq '${name}'`)).toEqual([]);
      await store.deleteTable(name);
    });

    it("listTables treats a blank filter as none, as listEntities does", async () => {
      const { store } = target();
      const name = target().freshTableName();
      await store.createTable(name);
      for (const filter of ["", "  ", "\t\n"]) {
        const names = (await collect(store.listTables({ queryOptions: { filter } }))).map((t) => t.name);
        expect(names, JSON.stringify(filter)).toContain(name);
      }
      await store.deleteTable(name);
    });

    it("a filter that is not a string is InvalidInput, for tables and entities", async () => {
      const { store } = target();
      const t = await target().freshTable();
      for (const filter of [5, null, {}, ["TableName eq 'x'"]]) {
        const queryOptions = { filter } as unknown as { filter: string };
        await expectCode(collect(store.listTables({ queryOptions })), "InvalidInput");
        await expectCode(collect(t.listEntities({ queryOptions })), "InvalidInput");
      }
    });

    it("a listTables token resumes only a listing with the same filter", async () => {
      const { store } = target();
      const prefix = target().freshTableName(20);
      const mine = [`${prefix}a`, `${prefix}b`, `${prefix}c`];
      for (const name of mine) await store.createTable(name);
      const filter = `TableName ge '${prefix}a' and TableName lt '${prefix}d'`;
      const first = (await store.listTables({ queryOptions: { filter } }).byPage({ maxPageSize: 1 }).next())
        .value!;
      const continuationToken = first.continuationToken!;
      expect(continuationToken).toBeDefined();
      const rest = await collect(
        store.listTables({ queryOptions: { filter } }).byPage({ continuationToken }),
      );
      expect([...first, ...rest.flat()].map((t) => t.name)).toEqual(mine);
      const other = store.listTables({ queryOptions: { filter: `TableName ge '${prefix}b'` } });
      await expectCode(collect(other.byPage({ continuationToken })), "InvalidContinuationToken");
      await expectCode(collect(store.listTables().byPage({ continuationToken })), "InvalidContinuationToken");
      for (const name of mine) await store.deleteTable(name);
    });
  });
}
