import { describe, expect, it } from "vitest";
import { DateTime, type Table } from "../../src/index.js";
import { TRANSACTION_FRAME_BYTES } from "../../src/model/index.js";
import { WideEntities } from "../../src/patterns/index.js";
import { caught, expectCode, expectEmpty, listAll } from "../conformance/helpers.js";
import { instrumented } from "./query-helpers.js";
import type { PatternsRef } from "./target.js";

const KEY = { partitionKey: "000123", rowKey: "MessageStats" } as const;

/** `n` Int32 properties d000…: the seed's messages sent on each of 365 days. */
const days = (n: number, value = (i: number) => i) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`d${String(i).padStart(5, "0")}`, value(i)]));

/**
 * A record of String properties whose parts total exactly `total` bytes (even: strings count 2
 * bytes a character) by the service's formula. Strings rather than Binary: Azure's 4 MiB is the
 * batch request's payload, where Binary grows by a third (base64).
 */
function recordOfSize(wide: WideEntities, total: number): Record<string, unknown> & typeof KEY {
  const texts: number[] = [];
  const record = () => ({
    ...KEY,
    ...Object.fromEntries(texts.map((n, i) => [`s${String(i).padStart(3, "0")}`, "x".repeat(n)])),
  });
  for (let attempt = 0; attempt < 300; attempt++) {
    // What the layout checks: the parts' request bytes (ASCII: one a character) and the framing.
    const size = wide.plan(record()).reduce((n, p) => n + p.bytes, TRANSACTION_FRAME_BYTES);
    if (size === total) return record();
    const last = texts.length - 1;
    const room = last < 0 ? 0 : 30_000 - texts[last]!;
    const delta = total - size;
    if (delta > 0 && room <= 0) texts.push(Math.min(delta - 50, 30_000));
    else texts[last] = texts[last]! + Math.min(delta, room);
  }
  throw new Error(`no record of exactly ${total} bytes`);
}

/** The stored entities of one record, by RowKey. */
const rowKeysOf = async (table: Table) => (await listAll(table)).map((e) => e.rowKey);

/** Wide entities (seed 001): one record over several entities, one transaction, one range query. */
export function wideSuite(target: PatternsRef): void {
  describe("wide entities", () => {
    it("stores the seed's 365 daily counts as two entities under related RowKeys and reads them back with one range query", async () => {
      const table = await target().freshTable();
      const wide = new WideEntities(target().store, table);
      const typed = {
        big: 2n ** 40n,
        at: DateTime.parse("2010-05-28T00:00:00.1234567Z"),
        bytes: new Uint8Array([1, 2, 3]),
        ratio: 0.25,
        whole: { value: 2, type: "Double" as const },
        id: { value: "c9da6455-213d-42c9-9a79-3e9149a57833", type: "Guid" as const },
        flag: true,
        note: "O'Brien",
      };
      const written = await wide.create({ ...KEY, ...days(365), ...typed });
      expect(written.parts).toBe(2);
      // Neighbours in the same partition: an entity named like the record, and a record whose name starts with it.
      await table.createEntity({ partitionKey: KEY.partitionKey, rowKey: KEY.rowKey, other: 1 });
      await wide.create({ partitionKey: KEY.partitionKey, rowKey: `${KEY.rowKey}!00`, d00000: -1 });
      const watched = instrumented(table);
      const reader = new WideEntities(target().store, watched.table);
      const record = await reader.get(KEY.partitionKey, KEY.rowKey);
      expect(watched.requests.queries).toBe(1);
      expect(record).toMatchObject({ ...KEY, ...days(365), ...typed, etag: written.etag });
      expect(record).not.toHaveProperty("tkWideVersion");
      expect(record).not.toHaveProperty("tkWideParts");
      expect(Object.keys(record).filter((k) => /^d\d+$/.test(k))).toHaveLength(365);
      expect(record).not.toHaveProperty("other");
      expect(await rowKeysOf(table)).toEqual([
        "MessageStats",
        "MessageStats!00!",
        "MessageStats!01!",
        "MessageStats$2100!00!",
      ]);
      expect(wide.plan({ ...KEY, ...days(365) }).map((p) => p.properties.size)).toEqual([250, 115]);
      await expectCode(wide.create({ ...KEY, d00001: 5 }), "EntityAlreadyExists");
      await expectCode(wide.get(KEY.partitionKey, "nothing"), "ResourceNotFound");
    });

    it("splits by size at the backend's entity limit (1 MiB on Azure, 400 KB items on DynamoDB)", async () => {
      const table = await target().freshTable();
      const wide = new WideEntities(target().store, table);
      const limits = target().capabilities.limits;
      const perEntity = Math.min(limits.maxEntityBytes, limits.maxItemBytes ?? Number.POSITIVE_INFINITY);
      const blobs = Math.ceil((perEntity * 1.2) / 60_000);
      const record = {
        ...KEY,
        ...Object.fromEntries(
          Array.from({ length: blobs }, (_, i) => [`b${i}`, new Uint8Array(60_000).fill(i)]),
        ),
      };
      const { parts } = await wide.create(record);
      expect(parts).toBe(2);
      const back = await wide.get(KEY.partitionKey, KEY.rowKey);
      for (let i = 0; i < blobs; i++) {
        expect(Buffer.from(back[`b${i}`] as Uint8Array).equals(Buffer.alloc(60_000, i))).toBe(true);
      }
    });

    it("updates atomically under the record's ETag; a record that shrinks loses its extra parts in the same transaction", async () => {
      const table = await target().freshTable();
      const wide = new WideEntities(target().store, table);
      const first = await wide.create({ ...KEY, ...days(600) });
      expect(first.parts).toBe(3);
      // Merge one value of part 1: part 0 (the ETag) and part 1 are rewritten, part 2 is left alone.
      const merged = await wide.update({ ...KEY, d00300: -300 }, "Merge", { etag: first.etag });
      expect(merged).toMatchObject({ parts: 3, written: 2 });
      expect((await wide.get(KEY.partitionKey, KEY.rowKey)).d00300).toBe(-300);
      // A stale ETag changes nothing.
      await expectCode(
        wide.update({ ...KEY, ...days(10) }, "Replace", { etag: first.etag }),
        "UpdateConditionNotSatisfied",
      );
      const shrunk = await wide.update({ ...KEY, ...days(300, (i) => i * 2) }, "Replace", {
        etag: merged.etag,
      });
      expect(shrunk).toMatchObject({ parts: 2, written: 3 }); // parts 0 and 1 rewritten, part 2 deleted
      expect(await rowKeysOf(table)).toEqual(["MessageStats!00!", "MessageStats!01!"]);
      const after = await wide.get(KEY.partitionKey, KEY.rowKey);
      expect(after).toMatchObject({ ...days(300, (i) => i * 2), etag: shrunk.etag });
      expect(after).not.toHaveProperty("d00300");
      await expectCode(
        wide.delete(KEY.partitionKey, KEY.rowKey, { etag: first.etag }),
        "UpdateConditionNotSatisfied",
      );
      await wide.delete(KEY.partitionKey, KEY.rowKey, { etag: shrunk.etag });
      await expectEmpty(table);
      await expectCode(wide.update({ ...KEY, a: 1 }), "ResourceNotFound");
      expect((await wide.upsert({ ...KEY, a: 1 })).parts).toBe(1);
    });

    it("concurrent merges of one record lose nothing", async () => {
      const table = await target().freshTable();
      const wide = new WideEntities(target().store, table, { baseDelayMs: 1, maxDelayMs: 20 });
      await wide.create({ ...KEY, ...days(400) });
      await Promise.all(
        Array.from({ length: 6 }, (_, i) => wide.update({ ...KEY, [`extra${i}`]: i }, "Merge")),
      );
      const record = await wide.get(KEY.partitionKey, KEY.rowKey);
      for (let i = 0; i < 6; i++) expect(record[`extra${i}`]).toBe(i);
      expect(record.d00399).toBe(399);
    });

    it("checks the transaction limits before writing: the most entities and bytes one transaction takes, and one more", async () => {
      const table = await target().freshTable();
      const wide = new WideEntities(target().store, table);
      const limits = target().capabilities.limits;
      // Small properties: part 0 holds maxProperties - 2 (two meta properties), the others maxProperties - 1.
      const most =
        limits.maxProperties - 2 + (limits.maxTransactionOperations - 1) * (limits.maxProperties - 1);
      expect(wide.plan({ ...KEY, ...days(most) })).toHaveLength(limits.maxTransactionOperations);
      const tooMany = await caught(() => wide.create({ ...KEY, ...days(most + 1) }));
      expect(tooMany).toMatchObject({ code: "EntityTooLarge", details: { reason: "parts" } });
      await expectEmpty(table);
      expect((await wide.create({ ...KEY, ...days(most) })).parts).toBe(limits.maxTransactionOperations);
      expect(
        Object.keys(await wide.get(KEY.partitionKey, KEY.rowKey)).filter((k) => k.startsWith("d")),
      ).toHaveLength(most);

      const bytesTable = await target().freshTable();
      const bytes = new WideEntities(target().store, bytesTable);
      const exact = recordOfSize(bytes, limits.maxTransactionBytes);
      // A Boolean named "flag" adds ,"flag@odata.type":"Edm.Boolean" and ,"flag":true: 44 bytes, one past the limit.
      const over = { ...recordOfSize(bytes, limits.maxTransactionBytes - 43), flag: true };
      const overErr = await caught(() => bytes.create(over));
      expect(overErr).toMatchObject({
        code: "EntityTooLarge",
        details: { reason: "bytes", size: limits.maxTransactionBytes + 1 },
      });
      await expectEmpty(bytesTable);
      await bytes.create(exact);
      const back = await bytes.get(KEY.partitionKey, KEY.rowKey);
      expect(Object.keys(back).filter((k) => k.startsWith("s"))).toHaveLength(
        Object.keys(exact).filter((k) => k.startsWith("s")).length,
      );
      await expectCode(wide.create({ ...KEY, rowKey: "x", tkWideParts: "1" }), "InvalidInput");
      await expectCode(wide.create({ ...KEY, rowKey: "x", "bad name": 1 }), "PropertyNameInvalid");
    }, 60_000);
  });
}
