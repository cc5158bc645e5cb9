import Database from "better-sqlite3";
import { afterAll, describe, expect, it, vi } from "vitest";
import { AZURE_LIMITS, DateTime } from "../../../src/model/index.js";
import { READ_LATER } from "../../../src/store/tables/table-backend.js";
import { entity, freshTable, openFile, openMemory, queryAll, tempDir } from "./helpers.js";

const ETAG = /^W\/"datetime'\d{4}-\d{2}-\d{2}T\d{2}%3A\d{2}%3A\d{2}\.\d{7}Z'"$/;
const props = async (table: Awaited<ReturnType<typeof freshTable>>, rk = "r") =>
  Object.fromEntries([...((await table.get("p", rk, {}))?.properties ?? [])].map(([k, v]) => [k, v.value]));

describe("embedded writes", () => {
  it("insert: ETag in the service's format, EntityAlreadyExists on the same keys", async () => {
    const table = await freshTable(await openMemory());
    const { etag, timestamp } = (await table.write(
      { kind: "create", entity: entity({ partitionKey: "p", rowKey: "r", n: 1 }) },
      {},
    ))!;
    expect(etag).toMatch(ETAG);
    expect(etag).toBe(`W/"datetime'${timestamp.toISOString().replaceAll(":", "%3A")}'"`);
    await expect(
      table.write({ kind: "create", entity: entity({ partitionKey: "p", rowKey: "r" }) }, {}),
    ).rejects.toMatchObject({
      code: "EntityAlreadyExists",
    });
    expect(await props(table)).toEqual({ n: 1 });
  });

  it("Merge overlays (a property changing type is replaced); Replace keeps only the new properties", async () => {
    const table = await freshTable(await openMemory());
    await table.write(
      { kind: "create", entity: entity({ partitionKey: "p", rowKey: "r", a: 1, b: "x" }) },
      {},
    );
    await table.write(
      {
        kind: "update",
        entity: entity({ partitionKey: "p", rowKey: "r", b: 2.5, c: true }),
        mode: "Merge",
        etag: "*",
      },
      {},
    );
    expect(await props(table)).toEqual({ a: 1, b: 2.5, c: true });
    expect((await table.get("p", "r", {}))!.properties.get("b")!.type).toBe("Double");
    await table.write(
      {
        kind: "update",
        entity: entity({ partitionKey: "p", rowKey: "r", d: "only" }),
        mode: "Replace",
        etag: "*",
      },
      {},
    );
    expect(await props(table)).toEqual({ d: "only" });
  });

  it("update and delete: ResourceNotFound when absent, UpdateConditionNotSatisfied on a stale ETag", async () => {
    const table = await freshTable(await openMemory());
    const missing = entity({ partitionKey: "p", rowKey: "r" });
    await expect(
      table.write({ kind: "update", entity: missing, mode: "Merge", etag: "*" }, {}),
    ).rejects.toMatchObject({ code: "ResourceNotFound" });
    await expect(
      table.write({ kind: "delete", partitionKey: "p", rowKey: "r", etag: "*" }, {}),
    ).rejects.toMatchObject({ code: "ResourceNotFound" });
    const first = (await table.write(
      { kind: "create", entity: entity({ partitionKey: "p", rowKey: "r", n: 1 }) },
      {},
    ))!;
    await expect(
      table.write({ kind: "delete", partitionKey: "p", rowKey: "x", etag: first.etag }, {}),
    ).rejects.toMatchObject({ code: "ResourceNotFound" });
    const second = (await table.write(
      {
        kind: "update",
        entity: entity({ partitionKey: "p", rowKey: "r", n: 2 }),
        mode: "Merge",
        etag: first.etag,
      },
      {},
    ))!;
    await expect(
      table.write(
        {
          kind: "update",
          entity: entity({ partitionKey: "p", rowKey: "r", n: 3 }),
          mode: "Merge",
          etag: first.etag,
        },
        {},
      ),
    ).rejects.toMatchObject({
      code: "UpdateConditionNotSatisfied",
    });
    await expect(
      table.write({ kind: "delete", partitionKey: "p", rowKey: "r", etag: first.etag }, {}),
    ).rejects.toMatchObject({
      code: "UpdateConditionNotSatisfied",
    });
    expect(await props(table)).toEqual({ n: 2 });
    await table.write({ kind: "delete", partitionKey: "p", rowKey: "r", etag: second.etag }, {});
    expect(await table.get("p", "r", {})).toBeUndefined();
  });

  it("upsert inserts, then merges or replaces without a condition", async () => {
    const table = await freshTable(await openMemory());
    await table.write(
      { kind: "upsert", entity: entity({ partitionKey: "p", rowKey: "r", a: 1 }), mode: "Merge" },
      {},
    );
    await table.write(
      { kind: "upsert", entity: entity({ partitionKey: "p", rowKey: "r", b: 2 }), mode: "Merge" },
      {},
    );
    expect(await props(table)).toEqual({ a: 1, b: 2 });
    await table.write(
      { kind: "upsert", entity: entity({ partitionKey: "p", rowKey: "r", c: 3 }), mode: "Replace" },
      {},
    );
    expect(await props(table)).toEqual({ c: 3 });
  });

  it("a merge may reach the property limit; one property more is TooManyProperties and writes nothing", async () => {
    const table = await freshTable(await openMemory());
    const named = (prefix: string, n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i]));
    await table.write(
      { kind: "create", entity: entity({ partitionKey: "p", rowKey: "r", ...named("a", 200) }) },
      {},
    );
    await table.write(
      {
        kind: "upsert",
        entity: entity({ partitionKey: "p", rowKey: "r", ...named("b", AZURE_LIMITS.maxProperties - 200) }),
        mode: "Merge",
      },
      {},
    );
    expect(Object.keys(await props(table))).toHaveLength(AZURE_LIMITS.maxProperties);
    await expect(
      table.write(
        {
          kind: "update",
          entity: entity({ partitionKey: "p", rowKey: "r", c: 1 }),
          mode: "Merge",
          etag: "*",
        },
        {},
      ),
    ).rejects.toMatchObject({
      code: "TooManyProperties",
    });
    expect(Object.keys(await props(table))).toHaveLength(AZURE_LIMITS.maxProperties);
    // Replacing a property (same name, new type) does not add one.
    await table.write(
      {
        kind: "update",
        entity: entity({ partitionKey: "p", rowKey: "r", a0: "now a string" }),
        mode: "Merge",
        etag: "*",
      },
      {},
    );
    expect((await props(table)).a0).toBe("now a string");
  });

  it("a merge may reach the entity size limit; one byte more is EntityTooLarge and writes nothing", async () => {
    const store = await openMemory("", { limits: { maxEntityBytes: 200 } });
    const table = await freshTable(store);
    // Size = 4 + 2·(1 + 1) + (8 + 2 + 4 + 2·50) + (8 + 2 + 4 + bytes) = 136 + bytes.
    await table.write(
      { kind: "create", entity: entity({ partitionKey: "p", rowKey: "r", a: "x".repeat(50) }) },
      {},
    );
    const binary = (n: number) => entity({ partitionKey: "p", rowKey: "r", b: new Uint8Array(n) });
    await expect(
      table.write({ kind: "upsert", entity: binary(65), mode: "Merge" }, {}),
    ).rejects.toMatchObject({ code: "EntityTooLarge" });
    expect(Object.keys(await props(table))).toEqual(["a"]);
    await table.write({ kind: "upsert", entity: binary(64), mode: "Merge" }, {});
    expect(Object.keys(await props(table))).toEqual(["a", "b"]);
  });

  it("an entity's Timestamp always moves forward, so its ETag never repeats", async () => {
    const table = await freshTable(await openMemory());
    const seen = new Set<string>();
    let last = (await table.write(
      { kind: "create", entity: entity({ partitionKey: "p", rowKey: "r", n: 0 }) },
      {},
    ))!.timestamp;
    for (let i = 1; i < 200; i++) {
      const { etag, timestamp } = (await table.write(
        {
          kind: "update",
          entity: entity({ partitionKey: "p", rowKey: "r", n: i }),
          mode: "Replace",
          etag: "*",
        },
        {},
      ))!;
      expect(timestamp.ticks).toBeGreaterThan(last.ticks);
      expect(seen.has(etag)).toBe(false);
      seen.add(etag);
      last = timestamp;
    }
  });

  it("even when another process's clock put the previous Timestamp in the future", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = await openFile(`${dir}/clock.db`);
      const table = await freshTable(store, "Clock");
      await table.write({ kind: "create", entity: entity({ partitionKey: "p", rowKey: "r" }) }, {});
      const future = DateTime.parse("9000-01-01T00:00:00Z");
      const raw = new Database(`${dir}/clock.db`);
      raw.prepare("UPDATE e_1 SET ts = ?, etag = 'x'").run(future.ticks);
      raw.close();
      const { timestamp } = (await table.write(
        { kind: "update", entity: entity({ partitionKey: "p", rowKey: "r" }), mode: "Merge", etag: "*" },
        {},
      ))!;
      expect(timestamp.ticks).toBe(future.ticks + 1n);
      await store.close();
    } finally {
      cleanup();
    }
  });

  it("a write waits for another connection's lock, abortably, and writes nothing when aborted", async () => {
    const { dir, cleanup } = tempDir();
    const path = `${dir}/locked.db`;
    const store = await openFile(path);
    const other = new Database(path);
    try {
      const table = await freshTable(store);
      other.exec("BEGIN IMMEDIATE");
      const controller = new AbortController();
      const waiting = table.write(
        { kind: "create", entity: entity({ partitionKey: "p", rowKey: "r" }) },
        {
          abortSignal: controller.signal,
        },
      );
      const settled = vi.fn();
      waiting.then(settled, settled);
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(settled).not.toHaveBeenCalled();
      controller.abort("why");
      await expect(waiting).rejects.toMatchObject({ code: "Aborted", cause: "why" });
      other.exec("ROLLBACK");
      expect(await table.get("p", "r", {})).toBeUndefined();
      // Once the lock is free, a waiting write goes through.
      other.exec("BEGIN IMMEDIATE");
      const later = table.write({ kind: "create", entity: entity({ partitionKey: "p", rowKey: "r" }) }, {});
      setTimeout(() => other.exec("COMMIT"), 30);
      await later;
      expect(await table.get("p", "r", {})).toBeDefined();
    } finally {
      other.close();
      await store.close();
      cleanup();
    }
  });
});

describe("embedded entity group transactions", () => {
  it("return one result per action and apply all of them", async () => {
    const table = await freshTable(await openMemory());
    const old = (await table.write(
      { kind: "create", entity: entity({ partitionKey: "p", rowKey: "u", n: 1 }) },
      {},
    ))!;
    await table.write({ kind: "create", entity: entity({ partitionKey: "p", rowKey: "d" }) }, {});
    const results = await table.transact(
      [
        { kind: "create", entity: entity({ partitionKey: "p", rowKey: "c", n: 1 }) },
        {
          kind: "update",
          entity: entity({ partitionKey: "p", rowKey: "u", m: 2 }),
          mode: "Merge",
          etag: old.etag,
        },
        { kind: "upsert", entity: entity({ partitionKey: "p", rowKey: "x", n: 3 }), mode: "Replace" },
        { kind: "delete", partitionKey: "p", rowKey: "d", etag: "*" },
      ],
      {},
    );
    expect(results.map((r) => r?.etag.startsWith('W/"datetime'))).toEqual([true, true, true, undefined]);
    expect((await queryAll(table)).entities.map((e) => e.rowKey)).toEqual(["c", "u", "x"]);
    expect(await props(table, "u")).toEqual({ n: 1, m: 2 });
  });

  it("write nothing when one action fails, and report its index", async () => {
    const table = await freshTable(await openMemory());
    await table.write({ kind: "create", entity: entity({ partitionKey: "p", rowKey: "taken" }) }, {});
    await expect(
      table.transact(
        [
          { kind: "create", entity: entity({ partitionKey: "p", rowKey: "a" }) },
          { kind: "upsert", entity: entity({ partitionKey: "p", rowKey: "taken", n: 1 }), mode: "Merge" },
          { kind: "create", entity: entity({ partitionKey: "p", rowKey: "taken" }) },
        ],
        {},
      ),
    ).rejects.toMatchObject({ code: "EntityAlreadyExists", index: 2 });
    await expect(
      table.transact([{ kind: "delete", partitionKey: "p", rowKey: "nope", etag: "*" }], {}),
    ).rejects.toMatchObject({ code: "ResourceNotFound", index: 0 });
    expect((await queryAll(table)).entities.map((e) => e.rowKey)).toEqual(["taken"]);
    expect(await props(table, "taken")).toEqual({});
  });
});

describe("embedded tables", () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it("names are case-insensitive, keep their case, and list in case-insensitive order", async () => {
    const store = await openMemory();
    for (const name of ["beta", "Alpha", "GAMMA"]) await store.createTable(name, {});
    await expect(store.createTable("ALPHA", {})).rejects.toMatchObject({ code: "TableAlreadyExists" });
    expect((await store.listTables({ maxPageSize: 10 }, {})).names).toEqual(["Alpha", "beta", "GAMMA"]);
    const first = await store.listTables({ maxPageSize: 2 }, {});
    expect(first.names).toEqual(["Alpha", "beta"]);
    const rest = await store.listTables({ maxPageSize: 2, continuation: first.continuation! }, {});
    expect(rest).toEqual({ names: ["GAMMA"] });
    const filtered = await store.listTables(
      {
        maxPageSize: 10,
        filter: {
          kind: "compare",
          op: "ge",
          property: "TableName",
          value: { type: "String", value: "a" },
          position: 0,
        },
      },
      {},
    );
    expect(filtered.names).toEqual(["beta"]);
    await store
      .table("alpha")
      .write({ kind: "create", entity: entity({ partitionKey: "p", rowKey: "r" }) }, {});
    expect(await store.table("ALPHA").get("p", "r", {})).toBeDefined();
  });

  it("operations on a missing table are TableNotFound; deleting a table deletes its entities", async () => {
    const store = await openMemory();
    const table = store.table("Missing");
    await expect(
      table.write({ kind: "create", entity: entity({ partitionKey: "p", rowKey: "r" }) }, {}),
    ).rejects.toMatchObject({
      code: "TableNotFound",
    });
    await expect(
      table.query({ maxPageSize: 1, filterProperties: [], timeBudgetMs: 10 }, {}),
    ).rejects.toMatchObject({
      code: "TableNotFound",
    });
    await expect(store.deleteTable("Missing", {})).rejects.toMatchObject({ code: "TableNotFound" });
    await store.createTable("Missing", {});
    await table.write({ kind: "create", entity: entity({ partitionKey: "p", rowKey: "r" }) }, {});
    await store.deleteTable("missing", {});
    await expect(table.get("p", "r", {})).rejects.toMatchObject({ code: "TableNotFound" });
    await store.createTable("Missing", {});
    expect(await table.get("p", "r", {})).toBeUndefined();
  });

  it("a table dropped and recreated by another connection is found again", async () => {
    const path = `${dir}/two.db`;
    const a = await openFile(path);
    const b = await openFile(path);
    await a.createTable("Shared", {});
    await a
      .table("Shared")
      .write({ kind: "create", entity: entity({ partitionKey: "p", rowKey: "old" }) }, {});
    expect(await a.table("Shared").get("p", "old", {})).toBeDefined();
    // The synchronous read answers from the prepared statements, and leaves what it cannot answer to get.
    const shared = a.table("Shared");
    expect(shared.getNow!("p", "old")).toMatchObject({ rowKey: "old" });
    await b.deleteTable("Shared", {});
    expect(shared.getNow!("p", "old")).toBe(READ_LATER);
    await expect(a.table("Shared").get("p", "old", {})).rejects.toMatchObject({ code: "TableNotFound" });
    await b.createTable("SHARED", {});
    await b
      .table("Shared")
      .write({ kind: "create", entity: entity({ partitionKey: "p", rowKey: "new" }) }, {});
    expect(shared.getNow!("p", "new")).toBe(READ_LATER);
    expect(await a.table("Shared").get("p", "old", {})).toBeUndefined();
    expect(await a.table("Shared").get("p", "new", {})).toBeDefined();
    expect(shared.getNow!("p", "new")).toMatchObject({ rowKey: "new" });
    expect(shared.getNow!("p", "old")).toBeUndefined();
    await a.close();
    await b.close();
  });

  it("memory stores are private unless named; a named one is shared in-process until the last close", async () => {
    const x = await openMemory("");
    const y = await openMemory("");
    await x.createTable("Only", {});
    expect((await y.listTables({ maxPageSize: 10 }, {})).names).toEqual([]);
    const n1 = await openMemory("shared");
    const n2 = await openMemory("shared");
    await n1.createTable("Both", {});
    expect((await n2.listTables({ maxPageSize: 10 }, {})).names).toEqual(["Both"]);
    expect(n1.capabilities).toMatchObject({ persistent: false, multiProcess: false, keyOrder: "utf16" });
    await n1.close();
    expect((await n2.listTables({ maxPageSize: 10 }, {})).names).toEqual(["Both"]);
    await n2.close();
    const n3 = await openMemory("shared");
    expect((await n3.listTables({ maxPageSize: 10 }, {})).names).toEqual([]);
    for (const s of [x, y, n3]) await s.close();
  });

  it("file stores declare persistence and multi-process use; limits can be overridden", async () => {
    const store = await openFile(`${dir}/caps.db`, { limits: { pageTimeBudgetMs: 7 } });
    expect(store.capabilities).toMatchObject({
      backend: "embedded",
      persistent: true,
      multiProcess: true,
      pageEndsAtPartitionBoundary: false,
      divergences: [],
    });
    expect(store.capabilities.limits).toEqual({ ...AZURE_LIMITS, pageTimeBudgetMs: 7 });
    await store.close();
  });
});
