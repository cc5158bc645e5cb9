import { describe, expect, it } from "vitest";
import { isTableKitError, type Table } from "../../src/index.js";
import {
  customProperties,
  ETAG_PATTERN,
  expectCode,
  expectEmpty,
  type ReadEntity,
  submit,
  type TargetRef,
  TIMESTAMP_PATTERN,
} from "./helpers.js";

const STALE_BUT_WELL_FORMED = `W/"datetime'2001-01-01T00%3A00%3A00.0000000Z'"`;

/** The timestamp an ETag carries, decoded (`2026-11-22T02:49:12.9327936Z`). */
function etagTime(etag: string): string {
  const m = ETAG_PATTERN.exec(etag);
  expect(m, `ETag ${etag} is not in the service format`).not.toBeNull();
  return decodeURIComponent(m![1]!);
}

async function read(t: Table, rk = "r"): Promise<ReadEntity> {
  return (await t.getEntity("p", rk)) as ReadEntity;
}

/** Optimistic concurrency: ETags in the service format, conditional writes, no lost update. */
export function etagConcurrencySuite(target: TargetRef): void {
  describe("ETags and optimistic concurrency", () => {
    it("returns a service-format ETag from every write, equal to the entity's ETag and Timestamp", async () => {
      const t = await target().freshTable();
      const writes = [
        () => t.createEntity({ partitionKey: "p", rowKey: "r", n: 0 }),
        () => t.updateEntity({ partitionKey: "p", rowKey: "r", n: 1 }, "Merge"),
        () => t.updateEntity({ partitionKey: "p", rowKey: "r", n: 2 }, "Replace"),
        () => t.upsertEntity({ partitionKey: "p", rowKey: "r", n: 3 }, "Merge"),
        () => t.upsertEntity({ partitionKey: "p", rowKey: "r", n: 4 }, "Replace"),
      ];
      const seen = new Set<string>();
      let previousTime = "";
      for (const write of writes) {
        const { etag } = await write();
        expect(etag).toMatch(ETAG_PATTERN);
        const e = await read(t);
        expect(e.etag).toBe(etag);
        expect(e.timestamp).toMatch(TIMESTAMP_PATTERN);
        expect(etagTime(etag)).toBe(e.timestamp);
        expect(seen.has(etag), "the ETag changes on every write").toBe(false);
        seen.add(etag);
        expect(e.timestamp! > previousTime, "timestamps increase").toBe(true);
        previousTime = e.timestamp!;
      }
      const { subResponses } = await submit(t, [["update", { partitionKey: "p", rowKey: "r", n: 5 }]]);
      expect(subResponses[0]!.etag).toMatch(ETAG_PATTERN);
      expect(seen.has(subResponses[0]!.etag!)).toBe(false);
      expect((await read(t)).etag).toBe(subResponses[0]!.etag);
    });

    it("the write response's timestamp is the entity's Timestamp", async () => {
      const t = await target().freshTable();
      const created = await t.createEntity({ partitionKey: "p", rowKey: "r" });
      expect(created.timestamp).toMatch(TIMESTAMP_PATTERN);
      expect((await read(t)).timestamp).toBe(created.timestamp);
      expect(etagTime(created.etag)).toBe(created.timestamp);
    });

    it("update with the current ETag succeeds; with a stale one fails with 412 and writes nothing", async () => {
      const t = await target().freshTable();
      const first = await t.createEntity({ partitionKey: "p", rowKey: "r", n: 1 });
      const second = await t.updateEntity({ partitionKey: "p", rowKey: "r", n: 2 }, "Merge", {
        etag: first.etag,
      });
      for (const mode of ["Merge", "Replace"] as const) {
        await expectCode(
          t.updateEntity({ partitionKey: "p", rowKey: "r", n: 99, extra: 1 }, mode, { etag: first.etag }),
          "UpdateConditionNotSatisfied",
        );
        await expectCode(
          t.updateEntity({ partitionKey: "p", rowKey: "r", n: 99 }, mode, { etag: STALE_BUT_WELL_FORMED }),
          "UpdateConditionNotSatisfied",
        );
      }
      const e = await read(t);
      expect(e.etag).toBe(second.etag);
      expect(customProperties(e)).toEqual({ n: 2 });
      const third = await t.updateEntity({ partitionKey: "p", rowKey: "r", n: 3 }, "Replace", {
        etag: second.etag,
      });
      expect(third.etag).not.toBe(second.etag);
      expect((await read(t)).n).toBe(3);
    });

    it("delete with a stale ETag fails with 412 and keeps the entity; with the current one deletes", async () => {
      const t = await target().freshTable();
      const first = await t.createEntity({ partitionKey: "p", rowKey: "r", n: 1 });
      const second = await t.updateEntity({ partitionKey: "p", rowKey: "r", n: 2 });
      await expectCode(t.deleteEntity("p", "r", { etag: first.etag }), "UpdateConditionNotSatisfied");
      expect((await read(t)).etag).toBe(second.etag);
      await t.deleteEntity("p", "r", { etag: second.etag });
      await expectCode(t.getEntity("p", "r"), "ResourceNotFound");
    });

    it("a conditional update or delete of a missing entity is ResourceNotFound", async () => {
      const t = await target().freshTable();
      await expectCode(
        t.updateEntity({ partitionKey: "p", rowKey: "r" }, "Merge", { etag: STALE_BUT_WELL_FORMED }),
        "ResourceNotFound",
      );
      await expectCode(t.deleteEntity("p", "r", { etag: STALE_BUT_WELL_FORMED }), "ResourceNotFound");
      await expectEmpty(t);
    });

    it("`*` matches any version, for update and delete", async () => {
      const t = await target().freshTable();
      await t.createEntity({ partitionKey: "p", rowKey: "r", n: 1 });
      await t.updateEntity({ partitionKey: "p", rowKey: "r", n: 2 });
      await t.updateEntity({ partitionKey: "p", rowKey: "r", n: 3 }, "Merge", { etag: "*" });
      await t.updateEntity({ partitionKey: "p", rowKey: "r", n: 4 }, "Replace", { etag: "*" });
      expect((await read(t)).n).toBe(4);
      await t.deleteEntity("p", "r", { etag: "*" });
      await expectEmpty(t);
    });

    it("a malformed ETag is InvalidInput and writes nothing", async () => {
      const t = await target().freshTable();
      const { etag } = await t.createEntity({ partitionKey: "p", rowKey: "r", n: 1 });
      for (const bad of [
        "not-an-etag",
        "W/abc",
        "datetime'2001-01-01T00%3A00%3A00.0000000Z'",
        '"unterminated',
        // Strong (unprefixed) ETags: the Table service makes only weak ones and refuses these with 400.
        '"wrong"',
        `"datetime'2001-01-01T00%3A00%3A00.0000000Z'"`,
        '"',
      ]) {
        await expectCode(
          t.updateEntity({ partitionKey: "p", rowKey: "r", n: 2 }, "Merge", { etag: bad }),
          "InvalidInput",
        );
        await expectCode(
          t.updateEntity({ partitionKey: "p", rowKey: "r", n: 2 }, "Replace", { etag: bad }),
          "InvalidInput",
        );
        await expectCode(t.deleteEntity("p", "r", { etag: bad }), "InvalidInput");
        await expectCode(
          submit(t, [["update", { partitionKey: "p", rowKey: "r", n: 2 }, "Merge", { etag: bad }]]),
          "InvalidInput",
          { index: 0 },
        );
      }
      const e = await read(t);
      expect(e.etag).toBe(etag);
      expect(e.n).toBe(1);
    });

    it("the weak prefix in either case: w/ names the same version, a weak ETag naming none is 412", async () => {
      const t = await target().freshTable();
      const { etag } = await t.createEntity({ partitionKey: "p", rowKey: "r", n: 1 });
      for (const stale of ['W/"wrong"', 'w/"wrong"', STALE_BUT_WELL_FORMED.replace("W/", "w/")]) {
        await expectCode(
          t.updateEntity({ partitionKey: "p", rowKey: "r", n: 2 }, "Replace", { etag: stale }),
          "UpdateConditionNotSatisfied",
        );
        await expectCode(t.deleteEntity("p", "r", { etag: stale }), "UpdateConditionNotSatisfied");
      }
      expect((await read(t)).etag).toBe(etag);
      await t.updateEntity({ partitionKey: "p", rowKey: "r", n: 3 }, "Merge", {
        etag: etag.replace("W/", "w/"),
      });
      expect((await read(t)).n).toBe(3);
    });

    it("timestamps have seven fractional digits and increase across writes", async () => {
      const t = await target().freshTable();
      const stamps: string[] = [];
      for (let i = 0; i < 20; i++) {
        const { timestamp } = await t.upsertEntity({ partitionKey: "p", rowKey: "r", i }, "Replace");
        expect(timestamp).toMatch(TIMESTAMP_PATTERN);
        stamps.push(timestamp);
      }
      for (let i = 1; i < stamps.length; i++) expect(stamps[i]! > stamps[i - 1]!).toBe(true);
    });

    it("concurrent read-increment-write loops with retry on 412 lose no update", async () => {
      const t = await target().freshTable();
      await t.createEntity({ partitionKey: "p", rowKey: "counter", n: 0 });
      const writers = 8;
      const incrementsEach = 10;
      let conflicts = 0;
      const increment = async () => {
        for (let attempt = 0; attempt < 1000; attempt++) {
          const e = await read(t, "counter");
          try {
            await t.updateEntity({ partitionKey: "p", rowKey: "counter", n: (e.n as number) + 1 }, "Merge", {
              etag: e.etag,
            });
            return;
          } catch (err) {
            if (!isTableKitError(err, "UpdateConditionNotSatisfied")) throw err;
            conflicts++;
          }
        }
        throw new Error("no progress after 1000 attempts");
      };
      await Promise.all(
        Array.from({ length: writers }, async () => {
          for (let i = 0; i < incrementsEach; i++) await increment();
        }),
      );
      expect((await read(t, "counter")).n).toBe(writers * incrementsEach);
      // The writers did race (otherwise this test proves nothing about conditional writes).
      expect(conflicts).toBeGreaterThan(0);
    });
  });
}
