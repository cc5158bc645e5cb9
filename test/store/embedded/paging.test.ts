import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FilterNode } from "../../../src/filter/ast.js";
import type { TableBackend } from "../../../src/store/tables/table-backend.js";
import { keyOf, openFile, openMemory, queryAll, rowsRange, type TestStore, tempDir } from "./helpers.js";

const int = (n: number) => ({ type: "Int32" as const, value: n });
const hitEq = (n: number): FilterNode => ({
  kind: "compare",
  op: "eq",
  property: "hit",
  value: int(n),
  position: 0,
});

/** 10 partitions of 300 rows; `hit` is 1 on every 97th row, so matches are sparse. */
async function seed(table: TableBackend): Promise<string[]> {
  const keys: string[] = [];
  const actions = [];
  for (let p = 0; p < 10; p++) {
    for (let r = 0; r < 300; r++) {
      const partitionKey = `p${p}`;
      const rowKey = String(r).padStart(4, "0");
      actions.push({
        kind: "create" as const,
        entity: {
          partitionKey,
          rowKey,
          properties: new Map([["hit", int((p * 300 + r) % 97 === 0 ? 1 : 0)]]),
        },
      });
      keys.push(`${partitionKey}/${rowKey}`);
    }
  }
  // One big transaction (the backend does not cap its size; the core does).
  await table.transact(actions, {});
  return keys;
}

describe("embedded paging", () => {
  let store: TestStore;
  let table: TableBackend;
  let all: string[];

  beforeAll(async () => {
    store = await openMemory();
    await store.createTable("Paged", {});
    table = store.table("Paged");
    all = await seed(table);
  });
  afterAll(() => store.close());

  it("a page never holds two partitions, and pages cover everything once, in order", async () => {
    const pages: string[][] = [];
    let continuation: string | undefined;
    do {
      const page = await table.query(
        { maxPageSize: 1000, filterProperties: [], timeBudgetMs: 5000, continuation },
        {},
      );
      pages.push(page.entities.map(keyOf));
      continuation = page.continuation;
    } while (continuation);
    for (const page of pages) expect(new Set(page.map((k) => k.split("/")[0])).size).toBeLessThanOrEqual(1);
    expect(pages.flat()).toEqual(all);
    expect(pages).toHaveLength(10);
  });

  it("maxPageSize caps every page", async () => {
    for (const size of [1, 7, 299, 300, 301]) {
      const { entities, pages } = await queryAll(table, { maxPageSize: size });
      expect(entities.map(keyOf)).toEqual(all);
      expect(pages).toBeGreaterThanOrEqual(Math.ceil(300 / size) * 10);
    }
  });

  it("with a time budget of 0 every page still makes progress, and the pages add up to the result", async () => {
    const expected = (await queryAll(table, { filter: hitEq(1) })).entities.map(keyOf);
    expect(expected.length).toBe(Math.ceil(3000 / 97));
    const { entities, pages } = await queryAll(table, {
      filter: hitEq(1),
      filterProperties: [],
      timeBudgetMs: 0,
      maxPageSize: 1,
    });
    expect(entities.map(keyOf)).toEqual(expected);
    // Sparse matches and no time: pages end after one chunk of rows, most of them empty.
    expect(pages).toBeGreaterThan(2 * expected.length);
    const unfiltered = await queryAll(table, { filterProperties: [], timeBudgetMs: 0, maxPageSize: 1000 });
    expect(unfiltered.entities.map(keyOf)).toEqual(all);
  });

  it("a page may be empty and carry a continuation; the last page carries none", async () => {
    const first = await table.query(
      { filter: hitEq(2), maxPageSize: 5, filterProperties: [], timeBudgetMs: 0 },
      {},
    );
    expect(first.entities).toEqual([]);
    expect(first.continuation).toBeDefined();
    const { entities } = await queryAll(table, { filter: hitEq(2), maxPageSize: 5 });
    expect(entities).toEqual([]);
    const last = await table.query(
      { filter: hitEq(2), maxPageSize: 5, filterProperties: [], timeBudgetMs: 5000 },
      {},
    );
    expect(last.continuation).toBeUndefined();
  });

  it("reads only the given ranges", async () => {
    const ranges = [
      rowsRange("p1", "0100", "0103"),
      rowsRange("p1", "0200", "0202"),
      rowsRange("p3", "0299"),
    ];
    const { entities } = await queryAll(table, { ranges, maxPageSize: 2 });
    expect(entities.map(keyOf)).toEqual(["p1/0100", "p1/0101", "p1/0102", "p1/0200", "p1/0201", "p3/0299"]);
    const partitions = await queryAll(table, {
      ranges: [{ kind: "partitions", pk: { lower: { value: "p8", inclusive: false } } }],
    });
    expect(partitions.entities.map(keyOf)).toEqual(all.filter((k) => k.startsWith("p9/")));
  });

  it("a malformed continuation is InvalidContinuationToken", async () => {
    for (const bad of ["", "garbage", "[1,2]", '["only one"]', "{}", '{"table":"x"}']) {
      await expect(
        table.query({ maxPageSize: 5, filterProperties: [], timeBudgetMs: 5000, continuation: bad }, {}),
      ).rejects.toMatchObject({
        code: "InvalidContinuationToken",
      });
    }
  });
});

describe("embedded continuations", () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it("survive closing and reopening the store", async () => {
    const path = `${dir}/resume.db`;
    let store = await openFile(path);
    await store.createTable("Resume", {});
    let table = store.table("Resume");
    const keys = await seed(table);
    const first = await table.query({ maxPageSize: 450, filterProperties: [], timeBudgetMs: 5000 }, {});
    expect(first.entities).toHaveLength(300);
    await store.close();

    store = await openFile(path);
    table = store.table("Resume");
    const rest = await queryAll(table, { continuation: first.continuation!, maxPageSize: 450 });
    expect([...first.entities, ...rest.entities].map(keyOf)).toEqual(keys);
    await store.close();
  });
});
