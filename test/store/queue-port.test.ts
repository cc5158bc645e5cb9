import { describe, expect, it } from "vitest";
import { openStore } from "../../src/index.js";
import { queueTargetOf } from "../../src/store/backends/azure/queue-connection.js";
import { loadQueueSdk } from "../../src/store/backends/azure/queue-sdk.js";
import { expectCode } from "../conformance/helpers.js";

const KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
const ACCOUNT = `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${KEY}`;
// Nothing listens on port 1: opening a store does no I/O, and these tests never call the service.
const TABLE_ONLY = `azure:${ACCOUNT};TableEndpoint=http://127.0.0.1:1/devstoreaccount1;`;
const WITH_QUEUE = `${TABLE_ONLY}QueueEndpoint=http://127.0.0.1:1/devstoreaccount1;`;

describe("which queue port a store gets", () => {
  it("the embedded store's own queues by default; the table-backed queue on request; none on request", async () => {
    const own = await openStore("memory:");
    expect(own.queueCapabilities).toMatchObject({ clock: "service", multiProcess: false, persistent: false });
    await own.close();
    const table = await openStore("memory:", { queues: "table" });
    expect(table.queueCapabilities).toMatchObject({ clock: "client" });
    await table.close();
    const none = await openStore("memory:", { queues: "none" });
    expect(none.queueCapabilities).toBeUndefined();
    expect(() => none.queue("jobs")).toThrow(expect.objectContaining({ code: "NotSupported" }));
    expect(() => none.listQueues()).toThrow(expect.objectContaining({ code: "NotSupported" }));
    await expectCode(none.createQueue("jobs"), "NotSupported");
    // The tables are still there.
    await none.createTable("Still");
    await none.close();
  });

  it("a throttled embedded store keeps its own queues (the emulator throttles tables only)", async () => {
    const throttled = await openStore("memory:?throttle=azure");
    expect(throttled.queueCapabilities).toMatchObject({ clock: "service" });
    const queue = await throttled.createQueue("jobs");
    await queue.sendMessage("x");
    expect((await queue.getProperties()).approximateMessagesCount).toBe(1);
    await throttled.close();
  });

  it("an unknown choice is InvalidInput", async () => {
    await expectCode(openStore("memory:", { queues: "sqs" as "none" }), "InvalidInput");
  });

  it("azure: Queue Storage when the settings name a queue endpoint, else the table-backed queue", async () => {
    const native = await openStore(WITH_QUEUE);
    expect(native.queueCapabilities).toMatchObject({ clock: "service", timeResolutionMs: 1000 });
    expect(native.queueCapabilities!.divergences.map((d) => d.id)).toContain("queue-list-paging");
    await native.close();
    const tableOnly = await openStore(TABLE_ONLY);
    expect(tableOnly.queueCapabilities).toMatchObject({ clock: "client" });
    await tableOnly.close();
    await expectCode(openStore(TABLE_ONLY, { queues: "native" }), "NotSupported");
  });

  it("finds the queue endpoint in the azure: settings without loading an SDK", () => {
    expect(queueTargetOf(`${ACCOUNT};QueueEndpoint=http://q/acct`, {})?.kind).toBe("connectionString");
    expect(queueTargetOf("UseDevelopmentStorage=true", {})?.kind).toBe("connectionString");
    expect(queueTargetOf(`${ACCOUNT};EndpointSuffix=core.windows.net`, {})?.kind).toBe("connectionString");
    expect(
      queueTargetOf(`${ACCOUNT};TableEndpoint=https://x.table.cosmos.azure.com:443/`, {}),
    ).toBeUndefined();
    expect(queueTargetOf("https://acct.table.core.windows.net", {})).toEqual({
      kind: "url",
      url: "https://acct.queue.core.windows.net/",
    });
    expect(queueTargetOf("http://127.0.0.1:10002/devstoreaccount1", {})).toBeUndefined();
    expect(
      queueTargetOf("http://127.0.0.1:10002/devstoreaccount1", {
        queueUrl: "http://127.0.0.1:10001/devstoreaccount1",
      }),
    ).toEqual({
      kind: "url",
      url: "http://127.0.0.1:10001/devstoreaccount1",
    });
  });

  it("a missing @azure/storage-queue is NotSupported, naming the package to install", async () => {
    const missing = Object.assign(new Error("Cannot find package '@azure/storage-queue'"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    await expect(loadQueueSdk(() => Promise.reject(missing))).rejects.toMatchObject({
      code: "NotSupported",
      message: expect.stringContaining("npm install @azure/storage-queue"),
    });
  });
});
