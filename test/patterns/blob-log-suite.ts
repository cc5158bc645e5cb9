import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect } from "vitest";
import type { BlobContainer } from "../../src/index.js";
import { BlobLog, type BlobLogEntry, type BlobLogOptions } from "../../src/patterns/index.js";
import { randomAlphanumeric } from "../conformance/factory.js";
import { collect, expectCode } from "../conformance/helpers.js";
import { itWithBlobs, runChild, SHARED } from "./blob-support.js";
import type { PatternsRef } from "./target.js";

const utc = (text: string) => new Date(`2014-07-31T${text}Z`);
const ALL = { from: utc("00:00:00"), to: utc("23:59:59") };

/** The container, with every download's blob name recorded. */
function watchDownloads(container: BlobContainer): { container: BlobContainer; downloaded: string[] } {
  const downloaded: string[] = [];
  const proxy = new Proxy(container, {
    get(c, prop) {
      if (prop === "getBlobClient") {
        return (name: string) => {
          downloaded.push(name);
          return c.getBlobClient(name);
        };
      }
      const value = Reflect.get(c, prop, c);
      return typeof value === "function" ? value.bind(c) : value;
    },
  });
  return { container: proxy, downloaded };
}

/** Polls until `check` holds (a background flush is asynchronous); fails after 20 s. */
async function eventually(check: () => Promise<boolean> | boolean): Promise<void> {
  for (let waited = 0; !(await check()); waited += 20) {
    if (waited > 20_000) throw new Error("the condition never held");
    await sleep(20);
  }
}

const fieldsOf = (entries: BlobLogEntry[]) => entries.map((e) => e.fields);

/** Log data in blobs (seed 001's Storage Analytics): time-named NDJSON blobs, buffered writes, prefix reads. */
export function blobLogSuite(target: PatternsRef): void {
  describe("log data in blobs", () => {
    const setup = async (options: Partial<BlobLogOptions> = {}) => {
      const store = target().store;
      const container = await store.createContainer(`logs-${randomAlphanumeric(12).toLowerCase()}`);
      return { container, log: new BlobLog(store, { container, source: "queue", ...options }) };
    };
    const names = async (container: BlobContainer) =>
      (await collect(container.listBlobsFlat())).map((b) => b.name);

    const modes = (): ("append" | "block")[] => {
      const caps = target().store.blobCapabilities!;
      return caps.appendBlobs && caps.conditionalWrites ? ["append", "block"] : ["block"];
    };

    itWithBlobs(
      target,
      "writes the seed's queue log as NDJSON blobs named by time and reads 15:04-15:06 from those two folders only (append blobs where the backend has them, numbered block blobs everywhere)",
      async () => {
        for (const mode of modes()) await seedQueueLog(mode);
      },
    );

    const seedQueueLog = async (mode: "append" | "block") => {
      const { container, log } = await setup({ periodMinutes: 1, mode });
      const writer = log.writer();
      const start = utc("15:03:30").getTime();
      for (let i = 0; i < 30; i++) {
        writer.write({ level: i % 4 === 0 ? "error" : "info", n: i }, { at: new Date(start + i * 10_000) });
      }
      await writer.close();
      const file = log.mode === "append" ? "000001\\.log" : "000001-[0-9a-f]{10}\\.log";
      const stored = await names(container);
      expect(stored).toHaveLength(6); // 15:03:30 to 15:08:20
      for (const [i, name] of stored.entries()) {
        expect(name).toMatch(new RegExp(`^queue/2014/07/31/150${3 + i}/${file}$`));
      }
      const text = (await container.getBlobClient(stored[1]!).downloadToBuffer()).toString("utf8");
      expect(text.split("\n")[0]).toBe('{"time":"2014-07-31T15:04:00.000Z","level":"info","n":3}');
      expect(text.endsWith("\n")).toBe(true);
      if (log.mode === "block") {
        // Block blobs carry their first and last record times, as Storage Analytics does.
        const { metadata } = await container.getBlobClient(stored[1]!).getProperties();
        expect(metadata).toEqual({
          starttime: "2014-07-31T15:04:00.000Z",
          endtime: "2014-07-31T15:04:50.000Z",
        });
      }

      const range = { from: utc("15:04:00"), to: utc("15:06:00") };
      expect(log.prefixes(range.from, range.to)).toEqual([
        "queue/2014/07/31/1504/",
        "queue/2014/07/31/1505/",
      ]);
      const watched = watchDownloads(container);
      const reader = new BlobLog(target().store, {
        container: watched.container,
        source: "queue",
        periodMinutes: 1,
        mode,
      });
      const read = await collect(reader.read(range));
      expect(fieldsOf(read).map((f) => f.n)).toEqual(Array.from({ length: 12 }, (_, i) => i + 3));
      expect(read[0]).toEqual({ time: utc("15:04:00"), fields: { level: "info", n: 3 }, blob: stored[1] });
      expect(watched.downloaded).toEqual([stored[1], stored[2]]);
      expect(await collect(reader.blobs(range))).toEqual([stored[1], stored[2]]);
      // The seed's hourly folders: one blob per hour, a read of two minutes filters it.
      const hourly = await setup({ mode });
      const w = hourly.log.writer();
      for (let i = 0; i < 30; i++) w.write({ n: i }, { at: new Date(start + i * 10_000) });
      await w.close();
      expect((await names(hourly.container))[0]).toMatch(new RegExp(`^queue/2014/07/31/1500/${file}$`));
      expect((await collect(hourly.log.read(range))).map((e) => e.fields.n)).toEqual(
        fieldsOf(read).map((f) => f.n),
      );
    };

    itWithBlobs(
      target,
      "flushes by size and by time; what is still buffered is not on the store; close flushes the rest",
      async () => {
        const { log } = await setup();
        const stored = async () => (await collect(log.read(ALL))).length;
        const bySize = log.writer({ flushBytes: 1000, flushIntervalMs: 600_000 });
        for (let i = 0; i < 5; i++) bySize.write({ n: i }, { at: utc("18:00:00") });
        expect(bySize.bufferedBytes).toBeGreaterThan(0);
        expect(await stored()).toBe(0);
        expect(bySize.stats.blobWrites).toBe(0);
        let i = 5;
        while (bySize.stats.flushes === 0) bySize.write({ n: i++ }, { at: utc("18:00:00") });
        await eventually(async () => (await stored()) >= 1000 / 50);
        await bySize.close();
        expect(await stored()).toBe(i);
        expect(bySize.stats).toMatchObject({ records: i, flushedRecords: i, failures: 0 });
        const byTime = log.writer({ flushIntervalMs: 50 });
        for (let j = 0; j < 3; j++) byTime.write({ n: j }, { at: utc("19:00:00") });
        await eventually(async () => (await stored()) === i + 3);
        expect(byTime.stats.flushes).toBe(1);
        await byTime.close();
        expect(() => byTime.write({ n: 0 })).toThrow(expect.objectContaining({ code: "InvalidInput" }));
      },
    );

    itWithBlobs(target, "several writers of one source lose and duplicate nothing", async () => {
      const { container, log } = await setup();
      const writers = Array.from({ length: 4 }, () => log.writer({ flushBytes: 600 }));
      for (let n = 0; n < 150; n++) {
        for (const [id, w] of writers.entries()) {
          w.write({ id, n }, { at: utc("18:30:00") });
          if (n % 20 === 0) await w.flush();
        }
      }
      await Promise.all(writers.map((w) => w.close()));
      const read = fieldsOf(await collect(log.read(ALL)));
      expect(read).toHaveLength(600);
      expect(new Set(read.map((f) => `${f.id}/${f.n}`)).size).toBe(600);
      for (let id = 0; id < 4; id++) {
        expect(read.filter((f) => f.id === id).map((f) => f.n)).toEqual(
          Array.from({ length: 150 }, (_, n) => n),
        );
      }
      const stored = await names(container);
      if (log.mode === "append") expect(stored).toEqual(["queue/2014/07/31/1800/000001.log"]);
      else expect(new Set(stored.map((n) => n.split("-")[1])).size).toBe(4);
    });

    itWithBlobs(
      target,
      "two writer processes of one source lose and duplicate nothing; a killed writer loses only what it had not flushed",
      async () => {
        const { container, log } = await setup();
        const run = (source: string, plan: string) =>
          runChild("log-blob-worker.ts", [
            target().sharedUrl!,
            container.containerName,
            source,
            log.mode,
            plan,
          ]);
        expect(
          await Promise.all([
            run("queue", "write:a:300"),
            run("queue", "write:b:300"),
            run("crash", "crash:20:15:25"),
          ]),
        ).toEqual(["exited", "exited", "SIGKILL"]);
        const read = fieldsOf(await collect(log.read(ALL)));
        expect(new Set(read.map((f) => `${f.id}/${f.n}`)).size).toBe(600);
        expect(read).toHaveLength(600);
        const crashed = fieldsOf(
          await collect(new BlobLog(target().store, { container, source: "crash" }).read(ALL)),
        );
        expect(crashed.map((f) => f.phase)).toEqual([
          ...Array(20).fill("flushed"),
          ...Array(15).fill("timed"),
        ]);
        expect(crashed.map((f) => f.n)).toEqual(Array.from({ length: 35 }, (_, n) => n));
      },
      { timeout: 120_000, also: SHARED },
    );

    itWithBlobs(
      target,
      "moves to the next numbered blob at the size cap; a record as large as one write is accepted, one byte more is not",
      async () => {
        const { container, log } = await setup({ maxBlobBytes: 1000 });
        const writer = log.writer({ flushBytes: 300 });
        for (let n = 0; n < 50; n++) {
          writer.write({ n }, { at: utc("18:00:00") });
          if (n % 5 === 4) await writer.flush();
        }
        await writer.close();
        const blobs = await collect(container.listBlobsFlat());
        expect(blobs.length).toBeGreaterThanOrEqual(3);
        for (const b of blobs) expect(b.properties.contentLength).toBeLessThanOrEqual(1000);
        expect(blobs.map((b) => log.names.parse(b.name)?.number)).toEqual(blobs.map((_, i) => i + 1));
        if (log.mode === "append") expect(writer.stats.rollovers).toBe(blobs.length - 1);
        expect(fieldsOf(await collect(log.read(ALL))).map((f) => f.n)).toEqual(
          Array.from({ length: 50 }, (_, n) => n),
        );

        const big = log.writer();
        const line = (pad: number) => ({ pad: "x".repeat(pad) });
        const overhead = `${JSON.stringify({ time: utc("20:00:00").toISOString(), ...line(0) })}\n`.length;
        big.write(line(1000 - overhead), { at: utc("20:00:00") });
        expect(() => big.write(line(1001 - overhead), { at: utc("20:00:00") })).toThrow(
          expect.objectContaining({ code: "RequestBodyTooLarge" }),
        );
        await big.close();
        const at20 = await collect(log.read({ from: utc("20:00:00"), to: utc("21:00:00") }));
        expect(at20.map((e) => (e.fields.pad as string).length)).toEqual([1000 - overhead]);
      },
    );

    itWithBlobs(target, "a failed flush keeps its records, and the next flush writes them once", async () => {
      const { container, log } = await setup();
      const writer = log.writer({ flushIntervalMs: 600_000 });
      writer.write({ n: 0 }, { at: utc("18:00:00") });
      await writer.flush();
      await container.delete();
      for (let n = 1; n < 4; n++) writer.write({ n }, { at: utc("18:00:00") });
      await expectCode(writer.flush(), "ContainerNotFound");
      expect(writer.stats).toMatchObject({ failures: 1, flushedRecords: 1 });
      expect(writer.bufferedBytes).toBeGreaterThan(0);
      await eventually(async () => (await container.createIfNotExists()).succeeded);
      writer.write({ n: 4 }, { at: utc("18:00:00") });
      await writer.close();
      expect(fieldsOf(await collect(log.read(ALL))).map((f) => f.n)).toEqual([1, 2, 3, 4]);
    });

    itWithBlobs(target, "refuses bad input before writing anything", async () => {
      const { container, log } = await setup();
      const store = target().store;
      const writer = log.writer();
      const at = utc("18:00:00");
      for (const bad of [null, [1], "text", { time: "x" }, { toJSON: () => "x" }]) {
        expect(() => writer.write(bad as never, { at })).toThrow(
          expect.objectContaining({ code: "InvalidInput" }),
        );
      }
      expect(() => writer.write({ big: 1n }, { at })).toThrow(
        expect.objectContaining({ code: "InvalidInput" }),
      );
      expect(() => writer.write({}, { at: new Date(Number.NaN) })).toThrow(
        expect.objectContaining({ code: "InvalidInput" }),
      );
      expect(() => writer.write({}, { at: new Date("+010000-01-01T00:00:00Z") })).toThrow(
        expect.objectContaining({ code: "OutOfRangeInput" }),
      );
      expect(writer.bufferedBytes).toBe(0);
      await writer.close();
      expect(await names(container)).toEqual([]);
      const invalid = (options: Partial<BlobLogOptions>, code = "InvalidInput") =>
        expect(() => new BlobLog(store, { container, source: "queue", ...options })).toThrow(
          expect.objectContaining({ code }),
        );
      invalid({ source: "a/b" });
      invalid({ source: "" });
      invalid({ periodMinutes: 7 as 1 });
      invalid({ maxBlobBytes: 0 });
      invalid({ mode: "stream" as "block" });
      const caps = store.blobCapabilities!;
      if (caps.appendBlobs && caps.conditionalWrites)
        expect(new BlobLog(store, { container, source: "q", mode: "append" }).mode).toBe("append");
      else invalid({ mode: "append" }, "NotSupported");
      expect(() => log.writer({ flushBytes: 0 })).toThrow(expect.objectContaining({ code: "InvalidInput" }));
      await expect(collect(log.read({ from: new Date(Number.NaN), to: at }))).rejects.toMatchObject({
        code: "InvalidInput",
      });
    });
  });
}
