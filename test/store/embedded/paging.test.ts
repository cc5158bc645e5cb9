import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FilterNode } from "../../../src/filter/ast.js";
import { openStore } from "../../../src/index.js";
import type { BackendQuery, TableBackend } from "../../../src/store/tables/table-backend.js";
import { expectCode } from "../../support/expect-code.js";
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

/** Every page of a query, as its entities' keys. */
async function pagesOf(table: TableBackend, query: Partial<BackendQuery>): Promise<string[][]> {
  const pages: string[][] = [];
  let continuation: string | undefined;
  do {
    const page = await table.query(
      { maxPageSize: 1000, filterProperties: [], timeBudgetMs: 5000, ...query, continuation },
      {},
    );
    pages.push(page.entities.map(keyOf));
    continuation = page.continuation;
  } while (continuation);
  return pages;
}

const partitionsOf = (page: string[]) => new Set(page.map((k) => k.split("/")[0])).size;

describe.each(["fill", "partition"] as const)("embedded paging (pages: %s)", (pagesOption) => {
  let store: TestStore;
  let table: TableBackend;
  let all: string[];

  beforeAll(async () => {
    store = await openMemory("", { pages: pagesOption });
    await store.createTable("Paged", {});
    table = store.table("Paged");
    all = await seed(table);
  });
  afterAll(() => store.close());

  it("declares where its pages end", () => {
    expect(store.capabilities.pageEndsAtPartitionBoundary).toBe(pagesOption === "partition");
  });

  it("pages cover everything once, in order; they end at partitions only when asked", async () => {
    const pages = await pagesOf(table, {});
    expect(pages.flat()).toEqual(all);
    if (pagesOption === "partition") {
      for (const page of pages) expect(partitionsOf(page)).toBeLessThanOrEqual(1);
      expect(pages.map((p) => p.length)).toEqual(Array(10).fill(300));
    } else {
      // Filled up to the page size across the 10 partitions of 300, as the service usually pages.
      expect(pages.map((p) => p.length)).toEqual([1000, 1000, 1000]);
      expect(partitionsOf(pages[0]!)).toBe(4);
    }
  });

  it("a filtered page fills across partitions too, unless asked not to", async () => {
    const pages = await pagesOf(table, { filter: hitEq(1), maxPageSize: 20 });
    const expected = (await queryAll(table, { filter: hitEq(1) })).entities.map(keyOf);
    expect(pages.flat()).toEqual(expected);
    if (pagesOption === "partition")
      for (const page of pages) expect(partitionsOf(page)).toBeLessThanOrEqual(1);
    else expect(pages.map((p) => p.length)).toEqual([20, expected.length - 20]);
  });

  it("maxPageSize caps every page", async () => {
    for (const size of [1, 7, 299, 300, 301]) {
      const { entities, pages } = await queryAll(table, { maxPageSize: size });
      expect(entities.map(keyOf)).toEqual(all);
      expect(pages).toBeGreaterThanOrEqual(
        pagesOption === "partition" ? Math.ceil(300 / size) * 10 : Math.ceil(3000 / size),
      );
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

  it.each([
    ["fill", "fill", 450],
    ["partition", "partition", 300],
    ["fill", "partition", 450],
    ["partition", "fill", 300],
  ] as const)(
    "survive closing and reopening the store (pages: %s, then %s)",
    async (before, after, firstPage) => {
      const path = `${dir}/resume-${before}-${after}.db`;
      let store = await openFile(path, { pages: before });
      await store.createTable("Resume", {});
      let table = store.table("Resume");
      const keys = await seed(table);
      const first = await table.query({ maxPageSize: 450, filterProperties: [], timeBudgetMs: 5000 }, {});
      expect(first.entities).toHaveLength(firstPage);
      await store.close();

      // A continuation names the next key: it resumes exactly in a new process, in either mode.
      store = await openFile(path, { pages: after });
      table = store.table("Resume");
      const rest = await queryAll(table, { continuation: first.continuation!, maxPageSize: 450 });
      expect([...first.entities, ...rest.entities].map(keyOf)).toEqual(keys);
      await store.close();
    },
  );
});

describe("the pages option", () => {
  it("is fill by default; pages: partition, as an option or URL parameter, ends pages at partitions", async () => {
    const opened = [
      [await openStore("memory:"), false],
      [await openStore("memory:", { pages: "fill" }), false],
      [await openStore("memory:", { pages: "partition" }), true],
      [await openStore("memory:?pages=partition"), true],
      [await openStore("memory:?pages=fill"), false],
      [await openStore("memory:?pages=partition&throttle=azure"), true],
      [await openStore("memory:?throttle=azure&pages=partition"), true],
      // The URL wins over the option, as throttle's does.
      [await openStore("memory:?pages=partition", { pages: "fill" }), true],
    ] as const;
    for (const [store, strict] of opened) {
      expect(store.capabilities.pageEndsAtPartitionBoundary).toBe(strict);
      const table = store.table("Pages");
      await table.createTable();
      await table.submitTransaction([["create", { partitionKey: "a", rowKey: "1" }]]);
      await table.submitTransaction([["create", { partitionKey: "b", rowKey: "1" }]]);
      const first = await table.listEntities().byPage({ maxPageSize: 5 }).next();
      expect(first.value.map(keyOf)).toEqual(strict ? ["a/1"] : ["a/1", "b/1"]);
      await store.close();
    }
  });

  it("refuses any other value, and any other URL parameter beside it", async () => {
    await expectCode(openStore("memory:?pages=partitions"), "InvalidStoreUrl");
    await expectCode(openStore("memory:?pages="), "InvalidStoreUrl");
    await expectCode(openStore("memory:?pages=fill&page=partition"), "InvalidStoreUrl");
    await expectCode(openStore("memory:?pages=fill&throttle=gcp"), "InvalidStoreUrl");
    await expectCode(openStore("memory:", { pages: "strict" as never }), "InvalidInput");
    // Only the embedded engine takes it.
    await expectCode(
      openStore("azure:UseDevelopmentStorage=true", { pages: "partition" } as never),
      "InvalidInput",
    );
  });
});
