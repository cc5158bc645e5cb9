import { describe, expect } from "vitest";
import { type BlobContainer, DateTime } from "../../src/index.js";
import { LargeEntities, type LargeEntitiesOptions } from "../../src/patterns/index.js";
import { randomAlphanumeric } from "../conformance/factory.js";
import { collect, expectCode, expectEmpty, expectSameValue } from "../conformance/helpers.js";
import { itWithBlobs, runChild, SHARED } from "./blob-support.js";
import { dieAtStep, PARTITION, SCENARIOS, version, versionOf } from "./large-fixtures.js";
import { instrumented } from "./query-helpers.js";
import type { PatternsRef } from "./target.js";

const KEY = { partitionKey: "Sales", rowKey: "000223" } as const;
/** The seed's employee photo: larger than any property holds. */
const PHOTO = new Uint8Array(200_000).map((_, i) => i % 251);

class Crash extends Error {}

const scenarioList = () =>
  Object.entries(SCENARIOS) as [keyof typeof SCENARIOS, (typeof SCENARIOS)["create"]][];

/** Large entities (seed 001): large values in blobs, a manifest in the entity, crash-safe writes. */
export function largeSuite(target: PatternsRef): void {
  describe("large entities", () => {
    const setup = async (options: Partial<LargeEntitiesOptions> = {}) => {
      const store = target().store;
      const table = await target().freshTable();
      const container = await store.createContainer(`large-${randomAlphanumeric(12).toLowerCase()}`);
      return { table, container, large: new LargeEntities(store, table, { container, ...options }) };
    };
    const blobNames = async (container: BlobContainer) =>
      (await collect(container.listBlobsFlat())).map((b) => b.name);

    itWithBlobs(
      target,
      "keeps the seed's employee photo in a blob and a pointer in the entity; a read returns the whole with one point read and one download",
      async () => {
        const { table, container, large } = await setup();
        const typed = {
          Name: "Jones",
          Hired: DateTime.parse("2010-05-28T00:00:00.1234567Z"),
          Salary: 2n ** 40n,
          Small: new Uint8Array([1, 2, 3]),
          Note: "é\u{1F600}".repeat(10),
        };
        const written = await large.create({ ...KEY, ...typed, Photo: PHOTO });
        expect(written).toMatchObject({ uploaded: 1, deleted: 0 });
        const photoBlob = written.blobs.Photo!;
        expect(photoBlob).toMatch(new RegExp(`^${table.tableName}/Sales/000223/Photo\\.[0-9a-f]{20}$`));
        expect(await blobNames(container)).toEqual([photoBlob]);
        const stored = await table.getEntity(KEY.partitionKey, KEY.rowKey);
        expect(stored).not.toHaveProperty("Photo");
        expect(JSON.parse(stored.tkLargeBlobs as string)).toEqual({
          Photo: { blob: photoBlob, type: "Binary", bytes: PHOTO.byteLength, sha256: expect.any(String) },
        });
        expect(stored.etag).toBe(written.etag);

        const watched = instrumented(table);
        const reader = new LargeEntities(target().store, watched.table, { container });
        const record = await reader.get(KEY.partitionKey, KEY.rowKey);
        expect(watched.requests).toMatchObject({ pointReads: 1, queries: 0 });
        expect(record).not.toHaveProperty("tkLargeBlobs");
        expect(record.etag).toBe(written.etag);
        expectSameValue(record.Photo, PHOTO, "Photo");
        for (const [name, value] of Object.entries(typed)) expectSameValue(record[name], value, name);
        expect(large.plan({ ...KEY, ...typed, Photo: PHOTO })).toEqual({
          inline: Object.keys(typed),
          offloaded: ["Photo"],
        });
      },
    );

    itWithBlobs(
      target,
      "decides what goes to blobs from the backend's limits: past a property's size, then largest first until the entity fits",
      async () => {
        const { large } = await setup();
        const limits = target().capabilities.limits;
        // 13 Strings of 32,000 ASCII characters: 64,000 bytes each as UTF-16 (a property holds them),
        // 832,000 in all (an Azure entity holds them), 416,000 as UTF-8 (a DynamoDB item does not).
        const texts = Object.fromEntries(
          Array.from({ length: 13 }, (_, i) => [`T${i}`, `${i}`.padEnd(32_000, "x")]),
        );
        const plan = large.plan({ ...KEY, ...texts });
        const utf8 = 13 * 32_000;
        if (limits.maxItemBytes !== undefined && utf8 > limits.maxItemBytes) {
          expect(plan.offloaded.length).toBe(Math.ceil((utf8 - limits.maxItemBytes) / 32_000));
        } else expect(plan.offloaded).toEqual([]);
        const written = await large.create({ ...KEY, ...texts });
        expect(written.uploaded).toBe(plan.offloaded.length);
        expect(await large.get(KEY.partitionKey, KEY.rowKey)).toMatchObject(texts);
        // offloadAbove sends smaller values to blobs too; 64 KiB + 1 byte never fits a property.
        const eager = await setup({ offloadAbove: 1000 });
        expect(
          eager.large.plan({ ...KEY, a: "x".repeat(500), b: "x".repeat(501), c: new Uint8Array(1001) }),
        ).toEqual({
          inline: ["a"],
          offloaded: ["b", "c"],
        });
        expect(
          large.plan({
            ...KEY,
            at: new Uint8Array(limits.maxBinaryBytes),
            past: new Uint8Array(limits.maxBinaryBytes + 1),
          }),
        ).toEqual({ inline: ["at"], offloaded: ["past"] });
      },
    );

    itWithBlobs(
      target,
      "writes keep entity and blobs consistent: merges keep blobs, replacements delete the old ones, equal values reuse theirs",
      async () => {
        const { table, container, large } = await setup();
        const first = await large.create({ ...KEY, Name: "Jones", Photo: PHOTO, Cv: "c".repeat(40_000) });
        const before = first.blobs;
        // A merge of a small property touches no blob.
        const merged = await large.update({ ...KEY, Name: "Smith" }, "Merge", { etag: first.etag });
        expect(merged).toMatchObject({ uploaded: 0, deleted: 0, blobs: before });
        // A replace with the same photo and a new CV: one upload, one delete.
        const replaced = await large.update({ ...KEY, Name: "Smith", Photo: PHOTO, Cv: "d".repeat(40_000) });
        expect(replaced).toMatchObject({ uploaded: 1, deleted: 1 });
        expect(replaced.blobs.Photo).toBe(before.Photo);
        expect(replaced.blobs.Cv).not.toBe(before.Cv);
        expect((await blobNames(container)).sort()).toEqual([replaced.blobs.Photo, replaced.blobs.Cv].sort());
        // A stale ETag fails, and leaves no blob behind.
        await expectCode(
          large.update({ ...KEY, Photo: new Uint8Array(100_000) }, "Merge", { etag: first.etag }),
          "UpdateConditionNotSatisfied",
        );
        expect((await blobNames(container)).sort()).toEqual([replaced.blobs.Photo, replaced.blobs.Cv].sort());
        // A merge that makes the CV small brings it back into the entity.
        const small = await large.update({ ...KEY, Cv: "short" }, "Merge");
        expect(small).toMatchObject({ uploaded: 0, deleted: 1, blobs: { Photo: before.Photo } });
        expect(await large.get(KEY.partitionKey, KEY.rowKey)).toMatchObject({ Name: "Smith", Cv: "short" });
        expect((await table.getEntity(KEY.partitionKey, KEY.rowKey)).Cv).toBe("short");
        // Upsert creates, then replaces; delete removes the entity and every blob.
        await large.upsert({ partitionKey: "Sales", rowKey: "000224", Photo: PHOTO });
        const upserted = await large.upsert({ partitionKey: "Sales", rowKey: "000224", Name: "Lee" });
        expect(upserted).toMatchObject({ uploaded: 0, deleted: 1, blobs: {} });
        await expectCode(
          large.delete(KEY.partitionKey, KEY.rowKey, { etag: first.etag }),
          "UpdateConditionNotSatisfied",
        );
        await large.delete(KEY.partitionKey, KEY.rowKey);
        await large.delete("Sales", "000224");
        await expectEmpty(table);
        expect(await blobNames(container)).toEqual([]);
        await expectCode(large.get(KEY.partitionKey, KEY.rowKey), "ResourceNotFound");
        await expectCode(large.update({ ...KEY, Photo: PHOTO }), "ResourceNotFound");
        await expectCode(large.delete(KEY.partitionKey, KEY.rowKey), "ResourceNotFound");
        expect(await blobNames(container)).toEqual([]);
        await large.create({ ...KEY, Photo: PHOTO });
        await expectCode(large.create({ ...KEY, Photo: new Uint8Array(100_001) }), "EntityAlreadyExists");
        expect(await blobNames(container)).toHaveLength(1);
      },
    );

    itWithBlobs(
      target,
      "names blobs after any valid keys, reversibly, and refuses keys whose blob-name segment passes 200 bytes",
      async () => {
        const { container, large } = await setup();
        const keys = ["", ".", "..", "a.b.", "~", "a b", "x@y+z%", "é\u{1F600}", "'quoted'"];
        for (const rowKey of keys) await large.create({ partitionKey: rowKey, rowKey, Photo: PHOTO });
        for (const rowKey of keys)
          expectSameValue((await large.get(rowKey, rowKey)).Photo, PHOTO, `Photo of ${rowKey}`);
        expect(await large.cleanup({ graceMs: 0 })).toMatchObject({
          scanned: keys.length,
          referenced: keys.length,
          orphans: 0,
        });
        const atLimit = "k".repeat(200);
        await large.create({
          partitionKey: atLimit,
          rowKey: "~".repeat(66) /* 198 bytes escaped */,
          Photo: PHOTO,
        });
        const before = (await blobNames(container)).length;
        await expectCode(
          large.create({ partitionKey: "k".repeat(201), rowKey: "r", Photo: PHOTO }),
          "KeyValueTooLarge",
          {
            details: { key: "PartitionKey", size: 201, limit: 200 },
          },
        );
        await expectCode(
          large.create({ partitionKey: "p", rowKey: "~".repeat(67), Photo: PHOTO }),
          "KeyValueTooLarge",
        );
        expect(await blobNames(container)).toHaveLength(before);
      },
    );

    itWithBlobs(target, "refuses bad input before writing anything", async () => {
      const { table, container, large } = await setup();
      await expectCode(large.create({ ...KEY, tkLargeBlobs: "{}" }), "InvalidInput");
      await expectCode(
        large.create({ ...KEY, Photo: PHOTO, Bad: `x${"\ud800"}`.repeat(40_000) }),
        "InvalidInput",
      );
      await expectCode(large.create({ ...KEY, "1bad": 1 }), "PropertyNameInvalid");
      const tooMany = Object.fromEntries(Array.from({ length: 253 }, (_, i) => [`p${i}`, i]));
      await expectCode(large.create({ ...KEY, ...tooMany, Photo: PHOTO }), "TooManyProperties");
      await expectCode(large.create({ partitionKey: "a/b", rowKey: "r", Photo: PHOTO }), "OutOfRangeInput");
      await expectCode(large.update({ ...KEY, Photo: PHOTO }, "Bogus" as "Merge"), "InvalidInput");
      await expectEmpty(table);
      expect(await blobNames(container)).toEqual([]);
      const store = target().store;
      expect(() => new LargeEntities(store, table, { container, offloadAbove: -1 })).toThrow(
        expect.objectContaining({ code: "InvalidInput" }),
      );
      expect(() => new LargeEntities(store, table, { container, graceMs: 1.5 })).toThrow(
        expect.objectContaining({ code: "InvalidInput" }),
      );
    });

    itWithBlobs(
      target,
      "a writer killed after each step leaves the entity as before or after, never half, and cleanup finds every orphan",
      async () => {
        const { table, container, large } = await setup();
        const store = target().store;
        const killed: [keyof typeof SCENARIOS, number][] = [];
        for (const [name, scenario] of scenarioList()) {
          for (let k = 1; k <= scenario.steps; k++) {
            const rowKey = `${name}${k}`;
            await scenario.prepare(large, rowKey);
            const dying = new LargeEntities(store, table, {
              container,
              onStep: dieAtStep(k, () => {
                throw new Crash(`killed after step ${k}`);
              }),
            });
            await expect(scenario.run(dying, rowKey)).rejects.toBeInstanceOf(Crash);
            killed.push([name, k]);
          }
        }
        await checkAfterCrashes(large, killed);
      },
    );

    itWithBlobs(
      target,
      "writers SIGKILLed with their process after each step leave the entity as before or after, and cleanup finds every orphan",
      async () => {
        const { table, container, large } = await setup();
        const killed: [keyof typeof SCENARIOS, number][] = [];
        for (const [name, scenario] of scenarioList()) {
          for (let k = 1; k <= scenario.steps; k++) {
            await scenario.prepare(large, `${name}${k}`);
            killed.push([name, k]);
          }
        }
        // One process runs every writer, each halted after its step k, and SIGKILLs itself.
        const specs = killed.map(([name, k]) => `${name}:${name}${k}:${k}`);
        const args = [target().sharedUrl!, table.tableName, container.containerName, ...specs];
        expect(await runChild("large-worker.ts", args)).toBe("SIGKILL");
        await checkAfterCrashes(large, killed);
      },
      { timeout: 120_000, also: SHARED },
    );

    itWithBlobs(target, "a read racing replacements returns one whole version every time", async () => {
      const { container, large } = await setup();
      await large.create(version("race", "A"));
      const writers = (async () => {
        for (let i = 0; i < 6; i++) await large.update(version("race", i % 2 ? "A" : "B"), "Replace");
      })();
      const reads: string[] = [];
      let done = false;
      void writers.finally(() => {
        done = true;
      });
      while (!done) reads.push(versionOf(await large.get(PARTITION, "race")));
      await writers;
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.filter((v) => v === "torn")).toEqual([]);
      expect(await large.cleanup({ graceMs: 0 })).toMatchObject({ orphans: 0, referenced: 3 });
      expect(await blobNames(container)).toHaveLength(3);
    });

    itWithBlobs(
      target,
      "cleanup leaves young orphans (a write in progress) and names it does not own alone, and pages through the listing",
      async () => {
        const { table, container } = await setup();
        const store = target().store;
        for (let k = 1; k <= 3; k++) {
          const dying = new LargeEntities(store, table, {
            container,
            onStep: dieAtStep(k, () => {
              throw new Crash();
            }),
          });
          await expect(SCENARIOS.create.run(dying, `young${k}`)).rejects.toBeInstanceOf(Crash);
        }
        const foreign = `${table.tableName}/notes.txt`;
        await container.getBlockBlobClient(foreign).upload("x", 1);
        const large = new LargeEntities(store, table, { container });
        expect(await large.cleanup()).toEqual({
          scanned: 7,
          referenced: 0,
          young: 6,
          orphans: 0,
          foreign: 1,
        });
        const found: string[] = [];
        const dry = await large.cleanup({
          graceMs: 0,
          dryRun: true,
          pageSize: 2,
          onOrphan: (n) => found.push(n),
        });
        expect(dry).toEqual({ scanned: 7, referenced: 0, young: 0, orphans: 6, foreign: 1 });
        expect(found.sort()).toEqual((await blobNames(container)).filter((n) => n !== foreign).sort());
        expect(await large.cleanup({ graceMs: 0, pageSize: 2 })).toMatchObject({ orphans: 6 });
        expect(await blobNames(container)).toEqual([foreign]);
      },
    );

    itWithBlobs(
      target,
      "a write whose uploads outlast half the grace period fails instead of pointing at blobs cleanup may take",
      async () => {
        const { table, container } = await setup();
        const store = target().store;
        await new LargeEntities(store, table, { container }).create({ ...KEY, Photo: PHOTO });
        const slow = new LargeEntities(store, table, {
          container,
          graceMs: 20,
          onStep: (step) =>
            step.kind === "blobUploaded" ? new Promise((r) => setTimeout(r, 30)) : undefined,
        });
        await expectCode(slow.update({ ...KEY, Photo: new Uint8Array(100_000) }), "OperationTimedOut");
        expectSameValue((await slow.get(KEY.partitionKey, KEY.rowKey)).Photo, PHOTO, "Photo");
        expect(await blobNames(container)).toHaveLength(1);
      },
    );
  });
}

/** The entities of the crash scenarios, each killed after step k. */
type Killed = readonly (readonly [keyof typeof SCENARIOS, number])[];

/** Every entity reads as before or after (never torn); cleanup finds exactly the orphans, and only them. */
async function checkAfterCrashes(large: LargeEntities, killed: Killed): Promise<void> {
  let expectedOrphans = 0;
  for (const [name, k] of killed) {
    const read = await large.get(PARTITION, `${name}${k}`).then(versionOf, (err: { code?: string }) => {
      if (err.code === "ResourceNotFound") return "absent" as const;
      throw err;
    });
    expect(read, `${name} killed after step ${k}`).toBe(SCENARIOS[name].readAfter(k));
    expectedOrphans += SCENARIOS[name].orphansAfter(k);
  }
  const orphans: string[] = [];
  const report = await large.cleanup({ graceMs: 0, onOrphan: (n) => orphans.push(n) });
  expect(report.orphans).toBe(expectedOrphans);
  const left = (await collect(large.container.listBlobsFlat())).map((b) => b.name);
  expect(left).toHaveLength(report.referenced);
  expect(orphans.filter((n) => left.includes(n))).toEqual([]);
  expect(await large.cleanup({ graceMs: 0 })).toMatchObject({ orphans: 0, referenced: report.referenced });
}
