import { describe, expect, it } from "vitest";
import { openStore } from "../../src/index.js";
import { BlobLog } from "../../src/patterns/index.js";
import { collect } from "../conformance/helpers.js";

// The 50,000-append limit of an append blob, reached by log writers: 50,000 round trips, so only
// here, on the embedded engine in memory (Azurite enforces the same number; the rollover code path
// is the size cap's, which the log suite runs on every backend).
describe("blob log writers at the 50,000-append limit", () => {
  it("move to the next blob: the writer whose append filled it at once, another when its append is refused", async () => {
    const store = await openStore("memory:");
    const container = await store.createContainer("logs");
    const log = new BlobLog(store, { container, source: "queue" });
    const at = new Date("2014-07-31T18:00:00Z");
    const first = container.getAppendBlobClient("queue/2014/07/31/1800/000001.log");
    await first.create();
    const filler = Buffer.from(`${JSON.stringify({ time: at.toISOString(), filler: true })}\n`);
    for (let i = 0; i < 49_998; i++) await first.appendBlock(filler, filler.byteLength);

    const [a, b] = [log.writer(), log.writer()];
    a.write({ n: 1 }, { at });
    await a.flush(); // block 49,999
    b.write({ n: 2 }, { at });
    await b.flush(); // block 50,000: b knows the blob is full
    expect(b.stats.rollovers).toBe(1);
    a.write({ n: 3 }, { at });
    await a.flush(); // refused with BlockCountExceedsLimit; 000002 does not exist yet: a creates it
    expect(a.stats).toMatchObject({ rollovers: 1, blobWrites: 4, creates: 1 });
    b.write({ n: 4 }, { at });
    await b.close();
    await a.close();
    expect(b.stats).toMatchObject({ blobWrites: 2, creates: 0 });

    expect(await first.getProperties()).toMatchObject({ blobCommittedBlockCount: 50_000 });
    const blobs = (await collect(container.listBlobsFlat())).map((x) => x.name);
    expect(blobs).toEqual(["queue/2014/07/31/1800/000001.log", "queue/2014/07/31/1800/000002.log"]);
    const read = await collect(log.read({ from: at, to: new Date(at.getTime() + 3_600_000) }));
    expect(read.filter((e) => !e.fields.filler).map((e) => [e.fields.n, e.blob.slice(-10)])).toEqual([
      [1, "000001.log"],
      [2, "000001.log"],
      [3, "000002.log"],
      [4, "000002.log"],
    ]);
    await store.close();
  }, 60_000);
});
