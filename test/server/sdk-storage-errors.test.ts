/**
 * The Queue and Blob services' errors as the official clients read them: `application/xml`,
 * `x-ms-error-code`, `<Error><Code>…</Code><Message>text\nRequestId:…\nTime:…</Message></Error>`,
 * the service's own wording where it has one, and no body for HEAD. @azure/storage-queue 12.32
 * leaves `err.message` at "Unexpected status code: N" for every server (its error parsing reads only
 * JSON bodies); the service's message is in `err.details.message`, as the real service's would be.
 */
import { BlobServiceClient } from "@azure/storage-blob";
import { QueueServiceClient } from "@azure/storage-queue";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.js";

let server: RunningServer;
let queues: QueueServiceClient;
let blobs: BlobServiceClient;

beforeAll(async () => {
  server = await startServer({ port: 0, services: ["queue", "blob"] });
  queues = QueueServiceClient.fromConnectionString(server.connectionString);
  blobs = BlobServiceClient.fromConnectionString(server.connectionString);
});
afterAll(() => server?.stop());

interface SdkError {
  statusCode: number;
  code: string;
  message: string;
  details: { errorCode?: string; message?: string };
  response: { headers: { get(name: string): string | undefined }; bodyAsText?: string };
}

async function caught(work: Promise<unknown>): Promise<SdkError> {
  try {
    await work;
  } catch (err) {
    return err as SdkError;
  }
  throw new Error("expected a failure");
}

/** The service's message: the text, then the request id and the time, on their own lines. */
function serviceMessage(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    `^${escaped}\\nRequestId:[0-9a-f-]{36}\\nTime:\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z$`,
  );
}

function expectXmlError(err: SdkError, status: number, code: string): void {
  expect(err.statusCode).toBe(status);
  expect(err.code).toBe(code);
  expect(err.details.errorCode).toBe(code);
  expect(err.response.headers.get("x-ms-error-code")).toBe(code);
  expect(err.response.headers.get("content-type")).toBe("application/xml");
}

describe("Queue service errors through @azure/storage-queue", () => {
  it("carry the code in the header and the body, and the service's message with its request id", async () => {
    const err = await caught(queues.getQueueClient("missing").getProperties());
    expectXmlError(err, 404, "QueueNotFound");
    expect(err.details.message).toMatch(serviceMessage("The specified queue does not exist."));
    expect(err.details.message).toContain(`RequestId:${err.response.headers.get("x-ms-request-id")}`);
    expect(err.response.bodyAsText).toMatch(
      /^<\?xml version="1\.0" encoding="utf-8"\?><Error><Code>QueueNotFound<\/Code><Message>/,
    );
  });

  it("word invalid names, out-of-range parameters and oversized messages as the service does", async () => {
    const upper = await caught(queues.getQueueClient("Upper").create());
    expectXmlError(upper, 400, "InvalidResourceName");
    expect(upper.details.message).toMatch(/^The specified resource name contains invalid characters\. /);
    for (const name of ["ab", "a".repeat(64)]) {
      const length = await caught(queues.getQueueClient(name).create());
      expectXmlError(length, 400, "OutOfRangeInput");
      expect(length.details.message).toMatch(
        serviceMessage("The specified resource name length is not within the permissible limits."),
      );
    }
    const queue = queues.getQueueClient("wording");
    await queue.create();
    const range = await caught(queue.receiveMessages({ numberOfMessages: 33 }));
    expectXmlError(range, 400, "OutOfRangeQueryParameterValue");
    expect(range.details.message).toMatch(
      /^One of the query parameters specified in the request URI is outside the permissible range\./,
    );
    const large = await caught(queue.sendMessage("x".repeat(64 * 1024 + 1)));
    expectXmlError(large, 413, "RequestBodyTooLarge");
    expect(large.details.message).toMatch(
      /^The request body is too large and exceeds the maximum permissible limit\./,
    );
    const sent = await queue.sendMessage("x");
    const tooLargeUpdate = await caught(
      queue.updateMessage(sent.messageId, sent.popReceipt, "y".repeat(64 * 1024 + 1), 0),
    );
    expectXmlError(tooLargeUpdate, 413, "RequestBodyTooLarge");
    expect((await queue.peekMessages()).peekedMessageItems.map((m) => m.messageText)).toEqual(["x"]);
    await queue.delete();
  });
});

describe("Blob service errors through @azure/storage-blob", () => {
  it("give err.message the service's message, and HEAD answers no body", async () => {
    const container = blobs.getContainerClient("missing");
    const download = await caught(container.getBlobClient("b").download());
    expectXmlError(download, 404, "ContainerNotFound");
    expect(download.message).toMatch(serviceMessage("The specified container does not exist."));

    const head = await caught(container.getBlobClient("b").getProperties());
    // No body to read the code from: the client takes it from x-ms-error-code, as from the service.
    expect(head.statusCode).toBe(404);
    expect(head.details.errorCode).toBe("ContainerNotFound");
    expect(head.response.headers.get("x-ms-error-code")).toBe("ContainerNotFound");
    expect(head.response.bodyAsText ?? "").toBe("");

    const name = await caught(blobs.getContainerClient("Upper").create());
    expectXmlError(name, 400, "InvalidResourceName");
    expect(name.message).toMatch(/^The specified resource name contains invalid characters\. /);
  });
});
