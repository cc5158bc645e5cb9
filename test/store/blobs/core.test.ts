import { describe, expect, it } from "vitest";
import { openStore } from "../../../src/index.js";

const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: { code?: string }) => e.code,
  );

describe("blob port core", () => {
  it("every handle of a closed store answers InvalidInput before any I/O", async () => {
    const store = await openStore("memory:");
    const container = await store.createContainer("closed-store");
    const blob = container.getBlockBlobClient("b");
    await blob.upload("x", 1);
    await store.close();
    expect(await codeOf(container.exists())).toBe("InvalidInput");
    expect(await codeOf(blob.download())).toBe("InvalidInput");
    expect(await codeOf(blob.upload("y", 1))).toBe("InvalidInput");
    expect(() => store.container("other")).toThrow(/closed/);
    expect(() => store.listContainers()).toThrow(/closed/);
  });

  it("a throttled embedded store keeps its blob port (the emulator throttles tables only)", async () => {
    const store = await openStore("memory:?throttle=azure");
    expect(store.blobCapabilities?.backend).toBe("embedded");
    await (await store.createContainer("throttled")).uploadBlockBlob("b", "v", 1);
    expect((await store.container("throttled").getBlobClient("b").downloadToBuffer()).toString()).toBe("v");
    await store.close();
  });

  it("memory:NAME stores of one process share their blobs, as they share tables", async () => {
    const a = await openStore("memory:shared-blobs");
    const b = await openStore("memory:shared-blobs");
    await (await a.createContainer("shared")).uploadBlockBlob("k", "v", 1);
    expect((await b.container("shared").getBlobClient("k").downloadToBuffer()).toString()).toBe("v");
    await a.close();
    await b.close();
  });
});
