import { describe, expect, it } from "vitest";
import { DateTime, type ErrorCode, type Table } from "../../src/index.js";
import { bytes, expectCode, expectEmpty, itWhen, listAll, submit, type TargetRef } from "./helpers.js";
import { documentedEntitySize, entityOfSize, itemOfSize } from "./sizes.js";

type Entity = { partitionKey: string; rowKey: string } & Record<string, unknown>;

/** Every way to write one entity; each must reject bad input the same way. */
const WRITES: [string, (t: Table, e: Entity) => Promise<unknown>][] = [
  ["createEntity", (t, e) => t.createEntity(e)],
  ["upsertEntity Merge", (t, e) => t.upsertEntity(e, "Merge")],
  ["upsertEntity Replace", (t, e) => t.upsertEntity(e, "Replace")],
  // Validation comes first: a bad update is rejected for its input, not for the missing entity.
  ["updateEntity Merge", (t, e) => t.updateEntity(e, "Merge")],
  ["updateEntity Replace", (t, e) => t.updateEntity(e, "Replace")],
  ["submitTransaction", (t, e) => submit(t, [["create", e]])],
];

/** Asserts every kind of write rejects `entity` with `code`, and that nothing was written. */
async function expectRejected(t: Table, entity: unknown, code: ErrorCode): Promise<void> {
  for (const [, write] of WRITES) await expectCode(write(t, entity as Entity), code);
  await expectEmpty(t);
}

/** Asserts every kind of insert accepts `entity` (cleaning up between writes). */
async function expectAccepted(t: Table, entity: Entity): Promise<void> {
  for (const [name, write] of WRITES.filter(([n]) => !n.startsWith("update"))) {
    await write(t, entity).catch((err) => {
      throw new Error(`${name} rejected an entity it must accept: ${(err as Error).message}`, { cause: err });
    });
    await t.deleteEntity(entity.partitionKey, entity.rowKey);
  }
}

/** An ASCII key of `size` bytes in the given encoding. */
function keyOfBytes(size: number, encoding: "utf16" | "utf8"): string {
  if (encoding === "utf16") {
    if (size % 2 !== 0) throw new Error("UTF-16 keys have an even size");
    return "k".repeat(size / 2);
  }
  return "k".repeat(size);
}

/** Documented limits, each at the limit (accepted) and one past it (rejected, nothing written). */
export function limitsAndBadInputSuite(target: TargetRef): void {
  describe("limits and bad input", () => {
    const limits = () => target().capabilities.limits;

    it("forbidden key characters (/ \\ # ? U+0000..U+001F U+007F..U+009F) are OutOfRangeInput", async () => {
      const t = await target().freshTable();
      const forbidden = ["/", "\\", "#", "?"];
      for (let c = 0x00; c <= 0x1f; c++) forbidden.push(String.fromCharCode(c));
      for (let c = 0x7f; c <= 0x9f; c++) forbidden.push(String.fromCharCode(c));
      for (const ch of forbidden) {
        for (const key of [ch, `a${ch}`, `${ch}z`]) {
          await expectCode(t.createEntity({ partitionKey: key, rowKey: "r" }), "OutOfRangeInput");
          await expectCode(t.createEntity({ partitionKey: "p", rowKey: key }), "OutOfRangeInput");
        }
        await expectCode(t.upsertEntity({ partitionKey: "p", rowKey: `x${ch}` }), "OutOfRangeInput");
        await expectCode(submit(t, [["create", { partitionKey: "p", rowKey: `x${ch}` }]]), "OutOfRangeInput");
      }
      await expectEmpty(t);
      // Their neighbours are fine.
      for (const key of [" ", "~", "\u00a0", "\u00a1", "%", "'", '"', "*"]) {
        await t.createEntity({ partitionKey: "p", rowKey: key });
      }
      expect(await listAll(t)).toHaveLength(8);
    });

    it("keys at limits.maxKeyBytes (in limits.keyEncoding) are accepted; one byte more is KeyValueTooLarge", async () => {
      const t = await target().freshTable();
      const { maxKeyBytes, keyEncoding } = limits();
      const step = keyEncoding === "utf16" ? 2 : 1;
      const atLimit = keyOfBytes(maxKeyBytes, keyEncoding);
      const over = keyOfBytes(maxKeyBytes + step, keyEncoding);
      await expectRejected(t, { partitionKey: over, rowKey: "r" }, "KeyValueTooLarge");
      await expectRejected(t, { partitionKey: "p", rowKey: over }, "KeyValueTooLarge");
      // A multi-byte character counts by its encoded size: "é" is 2 bytes in both encodings.
      const wide = "é".repeat(maxKeyBytes / 2);
      await expectRejected(t, { partitionKey: "p", rowKey: `${wide}k` }, "KeyValueTooLarge");
      await expectAccepted(t, { partitionKey: atLimit, rowKey: "r" });
      await expectAccepted(t, { partitionKey: "p", rowKey: atLimit });
      await t.createEntity({ partitionKey: atLimit, rowKey: atLimit });
      await t.createEntity({ partitionKey: "p", rowKey: wide });
      expect((await t.getEntity(atLimit, atLimit)).rowKey).toBe(atLimit);
      expect((await t.getEntity("p", wide)).rowKey).toBe(wide);
    });

    it("limits.maxProperties custom properties are accepted; one more is TooManyProperties", async () => {
      const t = await target().freshTable();
      const max = limits().maxProperties;
      const withProps = (n: number): Entity => ({
        partitionKey: "p",
        rowKey: "r",
        ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`prop${i}`, i])),
      });
      await expectRejected(t, withProps(max + 1), "TooManyProperties");
      await expectAccepted(t, withProps(max));
      // Merging a property into a full entity crosses the limit too.
      await t.createEntity(withProps(max));
      await expectCode(
        t.updateEntity({ partitionKey: "p", rowKey: "r", extra: 1 }, "Merge"),
        "TooManyProperties",
      );
      const e = await t.getEntity("p", "r");
      expect("extra" in e).toBe(false);
      expect(Object.keys(e).filter((k) => k.startsWith("prop"))).toHaveLength(max);
    });

    it("a property name of limits.maxPropertyNameLength characters is accepted; one more is PropertyNameTooLong", async () => {
      const t = await target().freshTable();
      const max = limits().maxPropertyNameLength;
      await expectRejected(
        t,
        { partitionKey: "p", rowKey: "r", ["n".repeat(max + 1)]: 1 },
        "PropertyNameTooLong",
      );
      await expectAccepted(t, { partitionKey: "p", rowKey: "r", ["n".repeat(max)]: 1 });
    });

    it("invalid property names are PropertyNameInvalid", async () => {
      const t = await target().freshTable();
      for (const name of [
        "1abc",
        "a-b",
        "a b",
        "",
        "a.b",
        "a/b",
        "PartitionKey",
        "RowKey",
        "Timestamp",
        "odata.etag",
      ]) {
        await expectRejected(t, { partitionKey: "p", rowKey: "r", [name]: 1 }, "PropertyNameInvalid");
      }
      await expectAccepted(t, { partitionKey: "p", rowKey: "r", _under: 1, café: 2, abc123: 3, ABC: 4 });
    });

    it("a String of limits.maxStringBytes (UTF-16) is accepted; one more character is PropertyValueTooLarge", async () => {
      const t = await target().freshTable();
      const chars = limits().maxStringBytes / 2;
      await expectRejected(
        t,
        { partitionKey: "p", rowKey: "r", s: "x".repeat(chars + 1) },
        "PropertyValueTooLarge",
      );
      // Astral characters count as two UTF-16 code units.
      await expectRejected(
        t,
        { partitionKey: "p", rowKey: "r", s: `${"x".repeat(chars - 1)}😀` },
        "PropertyValueTooLarge",
      );
      await expectAccepted(t, { partitionKey: "p", rowKey: "r", s: "x".repeat(chars) });
      await expectAccepted(t, { partitionKey: "p", rowKey: "r", s: `${"x".repeat(chars - 2)}😀` });
    });

    it("a Binary of limits.maxBinaryBytes is accepted; one byte more is PropertyValueTooLarge", async () => {
      const t = await target().freshTable();
      const max = limits().maxBinaryBytes;
      await expectRejected(t, { partitionKey: "p", rowKey: "r", b: bytes(max + 1) }, "PropertyValueTooLarge");
      await expectAccepted(t, { partitionKey: "p", rowKey: "r", b: bytes(max) });
    });

    itWhen(
      target,
      (c) => c.limits.maxItemBytes === undefined,
      "limits.maxItemBytes is the binding entity-size limit on this backend",
      "an entity of limits.maxEntityBytes (service formula) is accepted; one byte more is EntityTooLarge",
      async () => {
        const t = await target().freshTable();
        const l = limits();
        const keys = { partitionKey: "p", rowKey: "r" };
        const exact = entityOfSize(keys, l.maxEntityBytes, l);
        const over = entityOfSize(keys, l.maxEntityBytes + 1, l);
        expect(documentedEntitySize(exact)).toBe(l.maxEntityBytes);
        await expectRejected(t, over, "EntityTooLarge");
        await expectAccepted(t, exact);
        // Keys count too: a longer RowKey tips an entity that was exactly at the limit.
        const { rowKey: _, ...props } = exact;
        await expectRejected(t, { ...props, rowKey: "rr" }, "EntityTooLarge");
      },
    );

    itWhen(
      target,
      (c) => c.limits.maxItemBytes !== undefined,
      "the backend declares no maxItemBytes",
      "an entity of limits.maxItemBytes (UTF-8 measure) is accepted; one byte more is EntityTooLarge",
      async () => {
        const t = await target().freshTable();
        const l = limits();
        const keys = { partitionKey: "p", rowKey: "r" };
        const exact = itemOfSize(keys, l.maxItemBytes!, l);
        await expectRejected(t, itemOfSize(keys, l.maxItemBytes! + 1, l), "EntityTooLarge");
        await expectAccepted(t, exact);
        // Multi-byte characters count by their UTF-8 size: one "é" more than fits tips it over.
        await expectRejected(t, { ...exact, rowKey: "é" }, "EntityTooLarge");
      },
    );

    it("a merge that makes the stored entity too large is EntityTooLarge and writes nothing", async () => {
      const t = await target().freshTable();
      const l = limits();
      const half = entityOfSize(
        { partitionKey: "p", rowKey: "r" },
        Math.floor(l.maxEntityBytes / 2) + 100,
        l,
      );
      const { etag } = await t.createEntity(half);
      // The same properties under other names: each write is valid alone, the merged entity is not.
      const other = Object.fromEntries(
        Object.entries(half).flatMap(([k, v]) => (/^p\d/.test(k) ? [[`q${k.slice(1)}`, v]] : [])),
      );
      await expectCode(
        t.updateEntity({ ...other, partitionKey: "p", rowKey: "r" }, "Merge"),
        "EntityTooLarge",
      );
      await expectCode(
        t.upsertEntity({ ...other, partitionKey: "p", rowKey: "r" }, "Merge"),
        "EntityTooLarge",
      );
      expect((await t.getEntity("p", "r")).etag).toBe(etag);
    });

    it("DateTime before limits.minDateTimeTicks (1601-01-01) is OutOfRangeInput; the minimum is accepted", async () => {
      const t = await target().freshTable();
      const min = limits().minDateTimeTicks;
      await expectRejected(
        t,
        { partitionKey: "p", rowKey: "r", d: DateTime.fromTicks(min - 1n) },
        "OutOfRangeInput",
      );
      await expectRejected(
        t,
        { partitionKey: "p", rowKey: "r", d: new Date("1600-06-01T00:00:00Z") },
        "OutOfRangeInput",
      );
      await expectRejected(
        t,
        { partitionKey: "p", rowKey: "r", d: { value: "1600-12-31T23:59:59.9999999Z", type: "DateTime" } },
        "OutOfRangeInput",
      );
      await expectAccepted(t, { partitionKey: "p", rowKey: "r", d: DateTime.fromTicks(min) });
      await expectAccepted(t, {
        partitionKey: "p",
        rowKey: "r",
        d: DateTime.fromTicks(limits().maxDateTimeTicks),
      });
    });

    it("values that do not fit their declared type are InvalidValueType", async () => {
      const t = await target().freshTable();
      const bad: unknown[] = [
        { value: 2_147_483_648, type: "Int32" },
        { value: -2_147_483_649, type: "Int32" },
        { value: 1.5, type: "Int32" },
        { value: "9223372036854775808", type: "Int64" },
        { value: "-9223372036854775809", type: "Int64" },
        2n ** 63n,
        -(2n ** 63n) - 1n,
        { value: "not-a-guid", type: "Guid" },
        { value: "3F2504E0-4F89-11D3-9A0C-0305E82C330", type: "Guid" },
        { value: "yes", type: "Boolean" },
        { value: "abc", type: "Double" },
        { value: "not a date", type: "DateTime" },
        { value: 1, type: "Decimal" },
      ];
      for (const v of bad) await expectRejected(t, { partitionKey: "p", rowKey: "r", v }, "InvalidValueType");
      await expectAccepted(t, {
        partitionKey: "p",
        rowKey: "r",
        v: { value: "-9223372036854775808", type: "Int64" },
      });
    });

    it("non-object entities, missing keys and non-string keys are InvalidInput", async () => {
      const t = await target().freshTable();
      for (const entity of [
        null,
        "entity",
        42,
        [],
        {},
        { partitionKey: "p" },
        { rowKey: "r" },
        { partitionKey: 1, rowKey: "r" },
        { partitionKey: "p", rowKey: 2 },
        { partitionKey: null, rowKey: "r" },
        { partitionKey: "p", rowKey: new Date(0) },
      ]) {
        await expectRejected(t, entity, "InvalidInput");
      }
      await expectCode(t.getEntity(1 as unknown as string, "r"), "InvalidInput");
      await expectCode(t.deleteEntity("p", undefined as unknown as string), "InvalidInput");
      await expectEmpty(t);
    });

    it("an invalid update mode is InvalidInput", async () => {
      const t = await target().freshTable();
      await t.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
      const mode = "Overwrite" as "Merge";
      await expectCode(t.updateEntity({ partitionKey: "p", rowKey: "r", v: 2 }, mode), "InvalidInput");
      await expectCode(t.upsertEntity({ partitionKey: "p", rowKey: "r", v: 2 }, mode), "InvalidInput");
      await expectCode(
        submit(t, [["update", { partitionKey: "p", rowKey: "r", v: 2 }, mode]]),
        "InvalidInput",
        {
          index: 0,
        },
      );
      expect((await t.getEntity("p", "r")).v).toBe(1);
    });
  });
}
