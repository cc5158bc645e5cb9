/**
 * Rules of the Blob service that a caller could try to get around through headers and query
 * parameters: Range and x-ms-range as the documentation reads them (an unreadable x-ms-range is
 * never the whole blob), response-header overrides only from a signed service SAS and only with
 * values a header can carry, and user-delegation fields refused on a token signed with the key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { type StorageRequest, storageRequest } from "../support/raw-storage-client.js";

let endpoint: string;
let stop: () => Promise<void>;
const BODY = "0123456789";

beforeAll(async () => {
  const server = await startServer({ port: 0, services: ["blob"] });
  endpoint = server.endpoints.blob!.url;
  stop = server.stop;
  expect((await call({ method: "PUT", path: "rules?restype=container" })).status).toBe(201);
  const put = await call({
    method: "PUT",
    path: "rules/ten",
    headers: { "x-ms-blob-type": "BlockBlob", "content-type": "text/plain" },
    body: BODY,
  });
  expect(put.status).toBe(201);
});
afterAll(() => stop?.());

const call = (request: StorageRequest) => storageRequest(endpoint, request);

describe("Get Blob ranges", () => {
  const get = (headers: Record<string, string>) => call({ path: "rules/ten", headers });

  it("serves bytes=a-b and bytes=a- from either header, x-ms-range winning", async () => {
    for (const [headers, text, range] of [
      [{ "x-ms-range": "bytes=2-4" }, "234", "bytes 2-4/10"],
      [{ range: "bytes=7-" }, "789", "bytes 7-9/10"],
      [{ "x-ms-range": "bytes=1-1", range: "bytes=5-6" }, "1", "bytes 1-1/10"],
      [{ "x-ms-range": "bytes=8-99999999999999999999999" }, "89", "bytes 8-9/10"],
    ] as const) {
      const r = await get(headers);
      expect([r.status, r.text, r.headers["content-range"]]).toEqual([206, text, range]);
    }
  });

  it("an x-ms-range ending before it starts is 416 InvalidRange, never the whole blob", async () => {
    for (const value of ["bytes=5-2", "bytes=1-0"]) {
      const r = await get({ "x-ms-range": value });
      expect([value, r.status, r.code]).toEqual([value, 416, "InvalidRange"]);
    }
    // Even beside a valid Range: x-ms-range is the one the service reads.
    const both = await get({ "x-ms-range": "bytes=5-2", range: "bytes=0-1" });
    expect([both.status, both.code]).toEqual([416, "InvalidRange"]);
  });

  it("an unreadable x-ms-range is 400 InvalidHeaderValue, never the whole blob", async () => {
    for (const value of [
      "garbage",
      "bytes=",
      "bytes=-5",
      "bytes=1-2,4-5",
      "bytes=a-b",
      "items=0-1",
      "bytes=0x1-2",
    ]) {
      const r = await get({ "x-ms-range": value });
      expect([value, r.status, r.code]).toEqual([value, 400, "InvalidHeaderValue"]);
      expect(r.text).not.toContain(BODY);
    }
  });

  it("a start past the end is 416 with the length, at 2^53 and far beyond as at 10", async () => {
    for (const start of [
      "10",
      "9007199254740991",
      "9007199254740992",
      "9007199254740993",
      "18446744073709551616",
    ]) {
      for (const headers of [{ "x-ms-range": `bytes=${start}-` }, { range: `bytes=${start}-${start}0` }]) {
        const r = await get(headers);
        expect([start, r.status, r.code, r.headers["content-range"]]).toEqual([
          start,
          416,
          "InvalidRange",
          "bytes */10",
        ]);
      }
    }
  });

  it("a standard Range the service cannot read is ignored, as HTTP asks: the whole blob, 200", async () => {
    for (const value of ["garbage", "bytes=5-2", "bytes=-5", "bytes=1-2,4-5"]) {
      const r = await get({ range: value });
      expect([value, r.status, r.text, r.headers["content-range"]]).toEqual([value, 200, BODY, undefined]);
    }
  });
});
