import { describe, expect, it } from "vitest";
import { openStore } from "../../../src/index.js";

// The 50,000-append limit, at the limit and one past it: 50,000 round trips, so only here, on the
// embedded engine in memory (Azure's own limit is the service's; Azurite enforces the same number).
describe("embedded append blobs", () => {
  it("take exactly 50,000 blocks; the next append is BlockCountExceedsLimit and changes nothing", async () => {
    const store = await openStore("memory:");
    const log = (await store.createContainer("limits")).getAppendBlobClient("log");
    await log.create();
    const block = Buffer.from("x");
    for (let i = 0; i < 50_000; i++) await log.appendBlock(block, 1);
    const full = await log.getProperties();
    expect(full).toMatchObject({ contentLength: 50_000, blobCommittedBlockCount: 50_000 });
    await expect(log.appendBlock(block, 1)).rejects.toMatchObject({
      code: "BlockCountExceedsLimit",
      status: 409,
    });
    expect(await log.getProperties()).toMatchObject({ contentLength: 50_000, etag: full.etag });
    await store.close();
  });
});
