import { describe, expect, it } from "vitest";
import { compareUtf8, compareUtf16, odata, type Table } from "../../src/index.js";
import {
  collect,
  expectCode,
  insertMany,
  itWhen,
  keysOf,
  listAll,
  type ReadEntity,
  shuffled,
  type TargetRef,
} from "./helpers.js";

type Page = ReadEntity[] & { continuationToken?: string };

const PARTITIONS = ["a", "b", "c"];
const ROWS = ["00", "01", "02", "10", "11", "A", "B", "a", "a0", "a1", "b", "z"];

/** 36 entities over three partitions, written in shuffled order; their keys in the expected order. */
async function seed(t: Table): Promise<string[]> {
  const keys = PARTITIONS.flatMap((pk) => ROWS.map((rk) => ({ partitionKey: pk, rowKey: rk, n: 1 })));
  for (const e of shuffled(keys)) await t.createEntity(e);
  return keys.map((k) => `${k.partitionKey}/${k.rowKey}`).sort();
}

function pagesOf(t: Table, settings: { maxPageSize?: number; continuationToken?: string }, filter?: string) {
  return collect(
    t
      .listEntities(filter === undefined ? {} : { queryOptions: { filter } })
      .byPage(settings) as AsyncIterable<Page>,
  );
}

const keyOf = (e: ReadEntity) => `${e.partitionKey}/${e.rowKey}`;

/** Query order, filters on keys, select, page sizes, partition boundaries and continuation tokens. */
export function queriesAndPagingSuite(target: TargetRef): void {
  describe("queries and paging", () => {
    it("returns entities in PartitionKey, then RowKey order", async () => {
      const t = await target().freshTable();
      const expected = await seed(t);
      expect(await keysOf(t)).toEqual(expected);
    });

    it("orders keys between U+E000..U+FFFF and astral characters as capabilities.keyOrder says", async () => {
      const t = await target().freshTable();
      const keys = ["\ue000", "\uffff", "😀", "\ud7ff", "z", "\u{10000}", "\u{10ffff}", "é"];
      for (const k of keys) {
        await t.createEntity({ partitionKey: k, rowKey: "r" });
        await t.createEntity({ partitionKey: "same", rowKey: k });
      }
      const compare = target().capabilities.keyOrder === "utf16" ? compareUtf16 : compareUtf8;
      const sorted = [...keys].sort(compare);
      // The two orders really differ here, so this test tells them apart.
      expect([...keys].sort(compareUtf16)).not.toEqual([...keys].sort(compareUtf8));
      const found = await listAll(t);
      expect(
        found.filter((e) => e.rowKey === "r" && e.partitionKey !== "same").map((e) => e.partitionKey),
      ).toEqual(sorted.filter((k) => k !== "same"));
      expect((await listAll(t, "PartitionKey eq 'same'")).map((e) => e.rowKey)).toEqual(sorted);
    });

    it("returns nothing from an empty table, flat and by page", async () => {
      const t = await target().freshTable();
      expect(await listAll(t)).toEqual([]);
      const pages = await pagesOf(t, { maxPageSize: 5 });
      expect(pages.flat()).toEqual([]);
      expect(pages.at(-1)?.continuationToken).toBeUndefined();
    });

    it("byPage({ maxPageSize }) gives pages of at most that size, covering everything once", async () => {
      const t = await target().freshTable();
      const expected = await seed(t);
      for (const size of [1, 5, 7, target().capabilities.limits.maxPageSize]) {
        const pages = await pagesOf(t, { maxPageSize: size });
        for (const page of pages) expect(page.length).toBeLessThanOrEqual(size);
        expect(pages.flat().map(keyOf)).toEqual(expected);
        expect(pages.at(-1)!.continuationToken).toBeUndefined();
      }
    });

    it("maxPageSize above limits.maxPageSize, zero or fractional is InvalidInput", async () => {
      const t = await target().freshTable();
      await t.createEntity({ partitionKey: "p", rowKey: "r" });
      const max = target().capabilities.limits.maxPageSize;
      expect((await pagesOf(t, { maxPageSize: max })).flat()).toHaveLength(1);
      await expectCode(pagesOf(t, { maxPageSize: max + 1 }), "InvalidInput");
      await expectCode(pagesOf(t, { maxPageSize: 0 }), "InvalidInput");
      await expectCode(pagesOf(t, { maxPageSize: 2.5 }), "InvalidInput");
    });

    itWhen(
      target,
      (c) => c.pageEndsAtPartitionBoundary,
      "pages may span partitions on this backend",
      "no page holds two partitions (pageEndsAtPartitionBoundary)",
      async () => {
        const t = await target().freshTable();
        const expected = await seed(t);
        const pages = await pagesOf(t, { maxPageSize: target().capabilities.limits.maxPageSize });
        for (const page of pages)
          expect(new Set(page.map((e) => e.partitionKey)).size).toBeLessThanOrEqual(1);
        expect(pages.flat().map(keyOf)).toEqual(expected);
      },
    );

    it("a continuation token resumes exactly, also in a new listEntities call", async () => {
      const t = await target().freshTable();
      const expected = await seed(t);
      for (const size of [1, 4, 5, 11]) {
        const seen: string[] = [];
        let token: string | undefined;
        let calls = 0;
        do {
          // Every page comes from a brand-new query, resumed from the previous page's token.
          const iterator = t
            .listEntities()
            .byPage({ maxPageSize: size, ...(token ? { continuationToken: token } : {}) });
          const next = await iterator.next();
          expect(next.done).toBe(false);
          const page = next.value as Page;
          expect(page.length).toBeLessThanOrEqual(size);
          seen.push(...page.map(keyOf));
          token = page.continuationToken;
          expect(++calls).toBeLessThan(200);
        } while (token !== undefined);
        expect(seen).toEqual(expected);
      }
    });

    it("a continuation token resumes a filtered query without duplicates or gaps", async () => {
      const t = await target().freshTable();
      await seed(t);
      const filter = "RowKey ge 'a' or PartitionKey eq 'b'";
      const expected = await keysOf(t, filter);
      expect(expected.length).toBeGreaterThan(3);
      const first = (await t.listEntities({ queryOptions: { filter } }).byPage({ maxPageSize: 3 }).next())
        .value as Page;
      const rest = await pagesOf(t, { maxPageSize: 2, continuationToken: first.continuationToken! }, filter);
      expect([...first, ...rest.flat()].map(keyOf)).toEqual(expected);
    });

    it("a malformed continuation token is InvalidContinuationToken", async () => {
      const t = await target().freshTable();
      await t.createEntity({ partitionKey: "p", rowKey: "r" });
      for (const bad of ["garbage", "", "!!!", "tk2.###", "tk2.", "tk2.AAAA", "tk1.WyJwIiwiciJd"]) {
        await expectCode(pagesOf(t, { maxPageSize: 5, continuationToken: bad }), "InvalidContinuationToken");
      }
    });

    it("a token resumes only its own query: another table, another filter or an altered token is refused", async () => {
      const t = await target().freshTable();
      const other = await target().freshTable();
      await seed(t);
      await seed(other);
      const filter = "PartitionKey ne 'b'";
      const first = await t.listEntities({ queryOptions: { filter } }).byPage({ maxPageSize: 2 }).next();
      const token = (first.value as Page).continuationToken!;
      expect(token).toMatch(/^tk2\./);
      const resume = (table: Table, f: string | undefined, continuationToken: string) =>
        pagesOf(table, { maxPageSize: 50, continuationToken }, f);
      // Its own query resumes, in a new call, under another table-name case, with another select.
      const rest = (await resume(t, filter, token)).flat().map(keyOf);
      expect(rest).toEqual((await keysOf(t, filter)).slice(2));
      const upper = target().store.table(t.tableName.toUpperCase());
      expect((await resume(upper, filter, token)).flat().map(keyOf)).toEqual(rest);
      const selected = t.listEntities({ queryOptions: { filter, select: ["PartitionKey", "RowKey"] } });
      expect((await collect(selected.byPage({ continuationToken: token }))).flat().map(keyOf)).toEqual(rest);
      // Anything else is refused before it is read.
      await expectCode(resume(other, filter, token), "InvalidContinuationToken");
      await expectCode(resume(t, "PartitionKey ne 'c'", token), "InvalidContinuationToken");
      await expectCode(resume(t, `${filter} `, token), "InvalidContinuationToken");
      await expectCode(resume(t, undefined, token), "InvalidContinuationToken");
      await expectCode(
        collect(target().store.listTables().byPage({ continuationToken: token })),
        "InvalidContinuationToken",
      );
      const bytes = Buffer.from(token.slice(4), "base64url");
      for (const at of [0, 7, 8, bytes.length - 1]) {
        const altered = Buffer.from(bytes);
        altered[at]! ^= 1;
        await expectCode(
          resume(t, filter, `tk2.${altered.toString("base64url")}`),
          "InvalidContinuationToken",
        );
      }
      await expectCode(resume(t, filter, token.slice(0, -2)), "InvalidContinuationToken");
    });

    it("a blank filter is no filter, for tokens too", async () => {
      const t = await target().freshTable();
      const expected = await seed(t);
      expect((await pagesOf(t, {}, "  ")).flat().map(keyOf)).toEqual(expected);
      const first = (await t.listEntities().byPage({ maxPageSize: 5 }).next()).value as Page;
      const rest = await pagesOf(t, { continuationToken: first.continuationToken! }, " \t ");
      expect([...first, ...rest.flat()].map(keyOf)).toEqual(expected);
    });

    it("the flat iterator yields every entity across many pages", async () => {
      const t = await target().freshTable();
      const max = target().capabilities.limits.maxPageSize;
      const count = max + Math.ceil(max / 10);
      const entities = Array.from({ length: count }, (_, i) => ({
        partitionKey: "p",
        rowKey: String(i).padStart(6, "0"),
        i,
      }));
      await insertMany(t, entities, target().capabilities.limits.maxTransactionOperations);
      const all = await listAll(t);
      expect(all).toHaveLength(count);
      expect(all.map((e) => e.i)).toEqual(entities.map((e) => e.i));
      const pages = await pagesOf(t, {});
      for (const page of pages) expect(page.length).toBeLessThanOrEqual(max);
      expect(pages.length).toBeGreaterThanOrEqual(2);
    });

    it("filters on PartitionKey and RowKey: eq, ranges, prefix ranges, ne, and or of ranges", async () => {
      const t = await target().freshTable();
      await seed(t);
      const rows = (pk: string, pred: (rk: string) => boolean) =>
        [...ROWS]
          .sort()
          .filter(pred)
          .map((rk) => `${pk}/${rk}`);
      expect(await keysOf(t, "PartitionKey eq 'b'")).toEqual(rows("b", () => true));
      expect(await keysOf(t, "PartitionKey eq 'b' and RowKey eq 'a0'")).toEqual(["b/a0"]);
      expect(await keysOf(t, "PartitionKey eq 'nope'")).toEqual([]);
      expect(await keysOf(t, "PartitionKey ge 'b'")).toEqual([
        ...rows("b", () => true),
        ...rows("c", () => true),
      ]);
      expect(await keysOf(t, "PartitionKey gt 'a' and PartitionKey lt 'c'")).toEqual(rows("b", () => true));
      // A prefix query: every RowKey starting with "a".
      expect(await keysOf(t, "PartitionKey eq 'c' and RowKey ge 'a' and RowKey lt 'b'")).toEqual(
        rows("c", (rk) => rk.startsWith("a")),
      );
      expect(await keysOf(t, "RowKey ge '1' and RowKey lt '2'")).toEqual(
        PARTITIONS.flatMap((pk) => rows(pk, (rk) => rk.startsWith("1"))),
      );
      expect(await keysOf(t, "RowKey gt 'a' and RowKey le 'b'")).toEqual(
        PARTITIONS.flatMap((pk) => rows(pk, (rk) => rk > "a" && rk <= "b")),
      );
      expect(
        await keysOf(
          t,
          "(PartitionKey eq 'a' and RowKey lt '02') or (PartitionKey eq 'c' and RowKey ge 'b') or (PartitionKey eq 'a' and RowKey eq 'z')",
        ),
      ).toEqual(["a/00", "a/01", "a/z", "c/b", "c/z"]);
      expect(await keysOf(t, "PartitionKey ne 'b'")).toEqual([
        ...rows("a", () => true),
        ...rows("c", () => true),
      ]);
      expect(await keysOf(t, "PartitionKey eq 'a' and RowKey ne 'a'")).toEqual(rows("a", (rk) => rk !== "a"));
      expect(await keysOf(t, "RowKey eq 'B' or RowKey eq '00'")).toEqual(
        PARTITIONS.flatMap((pk) => rows(pk, (rk) => rk === "B" || rk === "00")),
      );
      // Reversed operands mean the same thing.
      expect(await keysOf(t, "'b' eq PartitionKey and '02' ge RowKey")).toEqual(["b/00", "b/01", "b/02"]);
      expect(await keysOf(t, odata`PartitionKey eq ${"a"} and RowKey gt ${"a0"}`)).toEqual(
        rows("a", (rk) => rk > "a0"),
      );
    });

    it("select in queries returns only the selected properties (plus etag and timestamp)", async () => {
      const t = await target().freshTable();
      await t.createEntity({ partitionKey: "p", rowKey: "1", a: 1, b: "x", c: true });
      await t.createEntity({ partitionKey: "p", rowKey: "2", a: 2, b: "y" });
      const found = await listAll(t, undefined, ["a", "b"]);
      expect(found).toHaveLength(2);
      for (const e of found) {
        expect(
          Object.keys(e)
            .filter((k) => k !== "etag" && k !== "timestamp")
            .sort(),
        ).toEqual(["a", "b"]);
        expect(typeof e.etag).toBe("string");
      }
      expect(found.map((e) => [e.a, e.b])).toEqual([
        [1, "x"],
        [2, "y"],
      ]);
      const withKeys = await listAll(t, "a eq 2", ["PartitionKey", "RowKey", "c"]);
      expect(withKeys).toHaveLength(1);
      expect(withKeys[0]!.partitionKey).toBe("p");
      expect(withKeys[0]!.rowKey).toBe("2");
      expect(withKeys[0]!.c).toBeNull();
      expect("a" in withKeys[0]!).toBe(false);
    });

    it("a page may be empty and still carry a token: paging never stops early or repeats", async () => {
      const t = await target().freshTable();
      // Matches are sparse among many non-matching rows, the case where a backend may end a page
      // (by time or by partition) before finding any match.
      const entities = Array.from({ length: 300 }, (_, i) => ({
        partitionKey: `p${String(i % 30).padStart(2, "0")}`,
        rowKey: String(i).padStart(4, "0"),
        hit: i % 97 === 0,
      }));
      await insertMany(t, entities, target().capabilities.limits.maxTransactionOperations);
      const pages = await pagesOf(t, { maxPageSize: 2 }, "hit eq true");
      const expected = entities
        .filter((e) => e.hit)
        .map((e) => `${e.partitionKey}/${e.rowKey}`)
        .sort();
      expect(pages.flat().map(keyOf)).toEqual(expected);
    });
  });
}
