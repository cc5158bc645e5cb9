import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TableKitError } from "../../src/index.js";
import { keyRangeParts, type PartEntity, parallelQuery, partitionParts } from "../../src/patterns/index.js";
import { caught, expectCode, listAll } from "../conformance/helpers.js";
import { instrumented, keyText, readAllPages, writeAll } from "./query-helpers.js";
import type { PatternsRef } from "./target.js";

/** Key characters: ASCII, and characters whose UTF-16 and UTF-8 orders differ (U+E000 against an astral). */
const keyChar = fc.constantFrom("a", "b", "k", "z", "A", "0", "9", "-", "_", "é", "中", "\uE000", "😀");
const keyArb = fc.array(keyChar, { minLength: 1, maxLength: 4 }).map((cs) => cs.join(""));
const asciiKey = fc.stringMatching(/^[a-z]{1,3}$/);

/** Partitions with unique keys, each with unique row keys (some partitions empty of rows of interest). */
const datasetArb = fc.uniqueArray(
  fc.record({ pk: keyArb, rows: fc.uniqueArray(keyArb, { maxLength: 12 }) }),
  { minLength: 1, maxLength: 5, selector: (p) => p.pk },
);

const paramsArb = fc.record({
  order: fc.constantFrom("key" as const, "arrival" as const),
  pageSize: fc.integer({ min: 1, max: 25 }),
  concurrency: fc.integer({ min: 1, max: 6 }),
  resumeEvery: fc.constantFrom(1, 3, 1000),
  ranges: fc.boolean(),
  boundaries: fc.uniqueArray(asciiKey, { maxLength: 3 }),
});

/** Each partition's keys, in the order they appear: arrival order must keep every part's own order. */
function byPartition(keys: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const k of keys) {
    const pk = k.slice(0, k.indexOf("/"));
    out.set(pk, [...(out.get(pk) ?? []), k]);
  }
  return out;
}

/** Parallel queries across partitions (seed 001, "asynchronous and parallel operations"). */
export function parallelSuite(target: PatternsRef): void {
  describe("parallel queries", () => {
    it("return exactly one ordered scan's entities, for random data, page sizes and concurrency limits (seeded)", async () => {
      await fc.assert(
        fc.asyncProperty(
          datasetArb,
          fc.array(paramsArb, { minLength: 3, maxLength: 3 }),
          async (dataset, runs) => {
            const table = await target().freshTable();
            await writeAll(
              table,
              dataset.flatMap((p) => p.rows.map((rk, i) => ({ partitionKey: p.pk, rowKey: rk, i }))),
            );
            const scan = (await listAll(table)).map(keyText);
            for (const run of runs) {
              const watched = instrumented(table);
              const sorted = [...run.boundaries].sort();
              const parts = run.ranges
                ? keyRangeParts(watched.table, sorted)
                : partitionParts(watched.table, [...dataset.map((p) => p.pk)].reverse());
              const query = parallelQuery(target().store, parts, {
                order: run.order,
                concurrency: run.concurrency,
              });
              const got = (await readAllPages(query, run.pageSize, run.resumeEvery)).map(keyText);
              if (run.order === "key") expect(got).toEqual(scan);
              else {
                expect([...got].sort()).toEqual([...scan].sort());
                expect(byPartition(got)).toEqual(byPartition(scan));
              }
              expect(watched.requests.max).toBeLessThanOrEqual(run.concurrency);
            }
          },
        ),
        { seed: 20_141, numRuns: 8 },
      );
    }, 120_000);

    it("run parts concurrently up to the limit, and select/limit/first work on the merge", async () => {
      const table = await target().freshTable();
      const pks = ["p1", "p2", "p3", "p4", "p5", "p6"];
      await writeAll(
        table,
        pks.flatMap((pk) => [1, 2, 3].map((r) => ({ partitionKey: pk, rowKey: `r${r}`, n: r, extra: "x" }))),
      );
      // Every request is slow, so all that may start do: the limit is reached, never passed.
      const slow = instrumented(table, async (request) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return request();
      });
      const query = parallelQuery(target().store, partitionParts(slow.table, pks), { concurrency: 4 });
      expect((await query.toArray()).map(keyText)).toEqual((await listAll(table)).map(keyText));
      expect(slow.requests.max).toBe(4);
      const limited = parallelQuery(target().store, partitionParts(table, pks), { limit: 4, select: ["n"] });
      const items = await limited.toArray();
      expect(items.map(keyText)).toEqual(["p1/r1", "p1/r2", "p1/r3", "p2/r1"]);
      expect(items[0]).toMatchObject({ partitionKey: "p1", rowKey: "r1", n: 1 });
      expect(items[0]).not.toHaveProperty("extra");
      expect(
        keyText((await parallelQuery(target().store, partitionParts(table, [...pks].reverse())).first())!),
      ).toBe("p1/r1");
    });

    it("report a failing part by name with its code, and the token in the error resumes with nothing lost or repeated", async () => {
      const table = await target().freshTable();
      await writeAll(
        table,
        ["a", "b", "c"].flatMap((pk) => [1, 2, 3, 4, 5].map((r) => ({ partitionKey: pk, rowKey: `r${r}` }))),
      );
      let failures = 0;
      const flaky = instrumented(table, async (request, filter) => {
        // The second page of partition b fails once, as a throttled request would.
        if (filter?.includes("'b'") && ++failures === 2) {
          throw new TableKitError("ServerBusy", "The server is busy.");
        }
        return request();
      });
      const query = parallelQuery(target().store, partitionParts(flaky.table, ["a", "b", "c"]), {
        concurrency: 3,
      });
      const seen: PartEntity[] = [];
      const err = await caught(async () => {
        for await (const page of query.byPage({ maxPageSize: 2 })) seen.push(...page);
      });
      expect(err).toMatchObject({ code: "ServerBusy", status: 503, details: { part: "b" } });
      expect(String(err.message)).toMatch(/^b: /);
      const token = (err.details as { continuationToken: string }).continuationToken;
      const resumed: PartEntity[] = [];
      for await (const page of query.byPage({ maxPageSize: 2, continuationToken: token }))
        resumed.push(...page);
      expect([...seen, ...resumed].map(keyText)).toEqual((await listAll(table)).map(keyText));

      const missing = target().freshTableName();
      const parts = [...partitionParts(table, ["a"]), { name: "nowhere", table: missing }];
      const notFound = await caught(() => parallelQuery(target().store, parts).toArray());
      expect(notFound).toMatchObject({ code: "TableNotFound", details: { part: "nowhere" } });
    });

    it("stop on abort with a token that resumes; an aborted signal reads nothing", async () => {
      const table = await target().freshTable();
      await writeAll(
        table,
        ["a", "b"].flatMap((pk) => [1, 2, 3, 4].map((r) => ({ partitionKey: pk, rowKey: `r${r}` }))),
      );
      const controller = new AbortController();
      const slow = instrumented(table, async (request) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return request();
      });
      const query = parallelQuery(target().store, partitionParts(slow.table, ["a", "b"]), {
        abortSignal: controller.signal,
      });
      const seen: PartEntity[] = [];
      const err = await caught(async () => {
        for await (const page of query.byPage({ maxPageSize: 3 })) {
          seen.push(...page);
          controller.abort();
        }
      });
      expect(err).toMatchObject({ code: "Aborted" });
      const token = (err.details as { continuationToken: string }).continuationToken;
      const again = parallelQuery(target().store, partitionParts(table, ["a", "b"]));
      const resumed: PartEntity[] = [];
      for await (const page of again.byPage({ maxPageSize: 3, continuationToken: token }))
        resumed.push(...page);
      expect([...seen, ...resumed].map(keyText)).toEqual((await listAll(table)).map(keyText));
      const before = slow.requests.total;
      await expectCode(query.toArray(), "Aborted");
      expect(slow.requests.total).toBe(before);
    });

    it("refuse bad input before reading: parts, options, tokens and range boundaries", async () => {
      const table = await target().freshTable();
      const store = target().store;
      await expectCode(parallelQuery(store, []).toArray(), "InvalidInput");
      await expectCode(
        parallelQuery(store, [
          { name: "x", table },
          { name: "x", table },
        ]).toArray(),
        "InvalidInput",
      );
      await expectCode(
        parallelQuery(store, partitionParts(table, ["a"]), { concurrency: 0 }).toArray(),
        "InvalidInput",
      );
      await expectCode(
        parallelQuery(store, partitionParts(table, ["a"]), { order: "random" as never }).toArray(),
        "InvalidInput",
      );
      const query = parallelQuery(store, partitionParts(table, ["a", "b"]));
      await expectCode(query.byPage({ continuationToken: "tk1.abc" }).next(), "InvalidContinuationToken");
      const other = parallelQuery(store, partitionParts(table, ["a", "c"]));
      await table.createEntity({ partitionKey: "a", rowKey: "1" });
      await table.createEntity({ partitionKey: "a", rowKey: "2" });
      const first = await other.byPage({ maxPageSize: 1 }).next();
      const token = (first.value as { continuationToken?: string }).continuationToken!;
      expect(token).toBeDefined();
      await expectCode(query.byPage({ continuationToken: token }).next(), "InvalidContinuationToken");
      await expectCode(query.byPage({ maxPageSize: 0 }).next(), "InvalidInput");
      await expectCode(query.byPage({ maxPageSize: 1001 }).next(), "InvalidInput");
      expect((await query.byPage({ maxPageSize: 1000 }).next()).value).toHaveLength(2);
      expect(() => keyRangeParts(table, ["b", "a"])).toThrow(
        expect.objectContaining({ code: "InvalidInput" }),
      );
      expect(keyRangeParts(table, ["a", "b"])).toHaveLength(3);
      await expectCode(
        parallelQuery(store, [{ name: "bad", table, filter: "PartitionKey eq" }]).toArray(),
        "InvalidFilter",
      );
    });
  });
}
