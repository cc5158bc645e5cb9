import { AsyncResource, createHook } from "node:async_hooks";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { odata, openStore, type Store, type Table } from "../../../src/index.js";
import { observeStatements } from "../../../src/store/backends/embedded/connection.js";

/**
 * What one call costs the embedded engine, counted rather than timed (speed itself is measured by
 * bench/store.bench.ts): the SQLite statements it executes, seen through the connection's test hook,
 * and the promises it creates. A change that adds a statement, or another await layer, to an
 * insert, a point read, a page or a transaction fails here.
 */

const executed: string[] = [];

/** Ids of the promises made by the measured call (and by those promises' reactions). */
const ours = new Set<number>();
const promiseCounter = createHook({
  init(id, type, trigger) {
    if (type === "PROMISE" && ours.has(trigger)) ours.add(id);
  },
});

/**
 * The statements `op` executes (each as its SQL's first words) and the promises it and what it
 * awaits create: other work of the process (the test runner's) is not counted.
 */
async function cost(op: () => Promise<unknown>): Promise<{ statements: string[]; promises: number }> {
  const scope = new AsyncResource("tablekit-cost");
  ours.clear();
  ours.add(scope.asyncId());
  executed.length = 0;
  promiseCounter.enable();
  try {
    await scope.runInAsyncScope(op);
  } finally {
    promiseCounter.disable();
  }
  return { statements: executed.map(verb), promises: ours.size - 1 };
}

/** `INSERT`, `SELECT`, `BEGIN IMMEDIATE`, … : what a statement does, without its table or values. */
function verb(sql: string): string {
  return (
    /^(BEGIN IMMEDIATE|BEGIN|COMMIT|ROLLBACK|INSERT|SELECT|UPDATE|DELETE)\b/.exec(sql.trim())?.[1] ?? sql
  );
}

const entity = (pk: string, i: number) => ({
  partitionKey: pk,
  rowKey: String(i).padStart(6, "0"),
  name: `Customer ${i}`,
  age: i % 90,
  score: i + 0.5,
  active: i % 2 === 0,
});

describe.each(["file", "memory"] as const)("statements and promises per call (%s:)", (kind) => {
  let dir: string;
  let store: Store;
  let table: Table;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "tablekit-statements-"));
    observeStatements((sql) => executed.push(sql));
    try {
      store = await openStore(kind === "file" ? `file:${join(dir, "count.db")}` : "memory:");
    } finally {
      observeStatements(undefined);
    }
    table = store.table("Counted");
    await table.createTable();
    for (let i = 0; i < 2500; i += 100) {
      await table.submitTransaction(
        Array.from({ length: 100 }, (_, j) => ["create", entity("big", i + j)] as const),
      );
    }
    for (const pk of ["p1", "p2", "p3"]) {
      await table.submitTransaction([0, 1, 2].map((i) => ["create", entity(pk, i)] as const));
    }
    // The table's statements are prepared and its id looked up once, by the first calls.
    await table.createEntity(entity("warm", 0));
    await table.getEntity("warm", entity("warm", 0).rowKey);
  });

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("an insert is one INSERT", async () => {
    const { statements, promises } = await cost(() => table.createEntity(entity("single", 1)));
    expect(statements).toEqual(["INSERT"]);
    expect(promises).toBeLessThanOrEqual(4);
  });

  it("a point read is one SELECT", async () => {
    const { statements, promises } = await cost(() => table.getEntity("big", entity("big", 7).rowKey));
    expect(statements).toEqual(["SELECT"]);
    // The engine answers synchronously (getNow): one settled promise and its await, no async layer.
    expect(promises).toBeLessThanOrEqual(2);
  });

  it("a read of a missing entity is one SELECT", async () => {
    const { statements } = await cost(() => table.getEntity("big", "missing").catch(() => undefined));
    expect(statements).toEqual(["SELECT"]);
  });

  it("a delete without an ETag is one DELETE; with one, a transaction that reads it first", async () => {
    await table.createEntity(entity("del", 1));
    const created = await table.createEntity(entity("del", 2));
    expect((await cost(() => table.deleteEntity("del", entity("del", 1).rowKey))).statements).toEqual([
      "DELETE",
    ]);
    const conditional = await cost(() =>
      table.deleteEntity("del", entity("del", 2).rowKey, { etag: created.etag }),
    );
    expect(conditional.statements).toEqual(["BEGIN IMMEDIATE", "SELECT", "DELETE", "COMMIT"]);
  });

  it("an update or upsert reads and writes in one transaction", async () => {
    const { statements } = await cost(() => table.updateEntity({ ...entity("big", 3), age: 1 }, "Merge"));
    expect(statements).toEqual(["BEGIN IMMEDIATE", "SELECT", "UPDATE", "COMMIT"]);
    const upsert = await cost(() => table.upsertEntity(entity("fresh", 1), "Replace"));
    expect(upsert.statements).toEqual(["BEGIN IMMEDIATE", "SELECT", "INSERT", "COMMIT"]);
  });

  it("a 100-op transaction is its 100 writes between BEGIN IMMEDIATE and COMMIT", async () => {
    const { statements, promises } = await cost(() =>
      table.submitTransaction(Array.from({ length: 100 }, (_, i) => ["create", entity("tx", i)] as const)),
    );
    expect(statements).toEqual(["BEGIN IMMEDIATE", ...Array(100).fill("INSERT"), "COMMIT"]);
    expect(promises).toBeLessThanOrEqual(4);
  });

  it("the newest 10 of a partition is one SELECT, whatever the partition's size", async () => {
    const newest10 = () =>
      table
        .listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"big"}` } })
        .byPage({ maxPageSize: 10 })
        .next();
    const { statements, promises } = await cost(newest10);
    expect(statements).toEqual(["SELECT"]);
    expect(promises).toBeLessThanOrEqual(6);
  });

  it("a page of 1,000 of a partition is one SELECT; the whole partition one per page", async () => {
    const filter = odata`PartitionKey eq ${"big"}`;
    const page = await cost(() => table.listEntities({ queryOptions: { filter } }).byPage().next());
    expect(page.statements).toEqual(["SELECT"]);
    expect(page.promises).toBeLessThanOrEqual(6);
    const all = await cost(async () => {
      for await (const _ of table.listEntities({ queryOptions: { filter } }));
    });
    expect(all.statements).toEqual(["SELECT", "SELECT", "SELECT"]);
    // Iterating entity by entity: an async next() and its await per entity, and a page's few.
    expect(all.promises).toBeLessThanOrEqual(2 * 2500 + 3 * 10);
  });
});
