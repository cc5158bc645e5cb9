/**
 * Rules of the Blob service that a caller could try to get around through headers and query
 * parameters: Range and x-ms-range as the documentation reads them (an unreadable x-ms-range is
 * never the whole blob), response-header overrides only from a signed service SAS and only with
 * values a header can carry, and user-delegation fields refused on a token signed with the key.
 */
import {
  AccountSASPermissions,
  AccountSASResourceTypes,
  AccountSASServices,
  BlobSASPermissions,
  generateAccountSASQueryParameters,
  generateBlobSASQueryParameters,
  StorageSharedKeyCredential,
} from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";
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
    headers: { "x-ms-blob-type": "BlockBlob", "x-ms-blob-content-type": "text/plain" },
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
      const both: Record<string, string>[] = [
        { "x-ms-range": `bytes=${start}-` },
        { range: `bytes=${start}-${start}0` },
      ];
      for (const headers of both) {
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

const credential = new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY);
const hourFromNow = () => new Date(Date.now() + 3_600_000);

/** A blob service SAS for `rules/ten`, signed with the key, with the overrides given. */
function blobSas(
  overrides: { contentType?: string; contentDisposition?: string; cacheControl?: string } = {},
) {
  return generateBlobSASQueryParameters(
    {
      containerName: "rules",
      blobName: "ten",
      permissions: BlobSASPermissions.parse("r"),
      expiresOn: hourFromNow(),
      ...overrides,
    },
    credential,
  ).toString();
}

function accountSas() {
  return generateAccountSASQueryParameters(
    {
      services: AccountSASServices.parse("b").toString(),
      resourceTypes: AccountSASResourceTypes.parse("sco").toString(),
      permissions: AccountSASPermissions.parse("rl"),
      expiresOn: hourFromNow(),
    },
    credential,
  ).toString();
}

describe("response-header overrides (rsct, rscd, rscc, rsce, rscl)", () => {
  const read = (sas: string, extra = "") => call({ path: `rules/ten${extra}`, auth: { sas } });

  it("a signed service SAS overrides the stored headers", async () => {
    const r = await read(
      blobSas({
        contentType: "text/x-signed",
        contentDisposition: "attachment; filename=t.txt",
        cacheControl: "no-store",
      }),
    );
    expect([
      r.status,
      r.headers["content-type"],
      r.headers["content-disposition"],
      r.headers["cache-control"],
    ]).toEqual([200, "text/x-signed", "attachment; filename=t.txt", "no-store"]);
  });

  it("an account SAS signs no override: added to it they are ignored", async () => {
    const r = await read(accountSas(), "?rsct=text%2Fhtml&rscd=attachment&rscc=public&rsce=gzip&rscl=fr");
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("text/plain");
    for (const name of ["content-disposition", "cache-control", "content-encoding", "content-language"])
      expect(r.headers[name], name).toBeUndefined();
  });

  it("an override added to a service SAS that did not sign it breaks the signature", async () => {
    const r = await read(`${blobSas()}&rsct=text%2Fhtml`);
    expect([r.status, r.code]).toEqual([403, "AuthenticationFailed"]);
    // The account key needs no override and gets none.
    const keyed = await call({ path: "rules/ten?rsct=text%2Fhtml" });
    expect([keyed.status, keyed.headers["content-type"]]).toEqual([200, "text/plain"]);
  });

  it("a signed value a header cannot carry is 400 InvalidQueryParameterValue, never a 500", async () => {
    for (const contentType of [
      "text/plain\r\nx-evil: 1",
      "text/\n",
      "a\u0000b",
      "text/\u2603",
      "text/\u{1F600}",
      "a\u007fb",
    ]) {
      const r = await read(blobSas({ contentType }));
      expect([JSON.stringify(contentType), r.status, r.code]).toEqual([
        JSON.stringify(contentType),
        400,
        "InvalidQueryParameterValue",
      ]);
      expect(r.headers["x-evil"]).toBeUndefined();
    }
    // Latin-1 past ASCII too: Node's response cannot send it as sent (docs/server.md).
    const latin = await read(blobSas({ contentDisposition: "attachment; filename=caf\u00e9.txt" }));
    expect([latin.status, latin.code]).toEqual([400, "InvalidQueryParameterValue"]);
    // Printable ASCII, tab included, is served as signed.
    const ascii = await read(blobSas({ contentDisposition: 'attachment;\tfilename="a b.txt"' }));
    expect([ascii.status, ascii.headers["content-disposition"]]).toEqual([
      200,
      'attachment;\tfilename="a b.txt"',
    ]);
  });
});

describe("user delegation fields on a key-signed token", () => {
  const delegation = {
    skoid: "00000000-0000-0000-0000-000000000001",
    sktid: "00000000-0000-0000-0000-000000000002",
    skt: "2026-01-01T00:00:00Z",
    ske: "2030-01-01T00:00:00Z",
    sks: "b",
    skv: "2021-08-06",
  };

  it("a key-signed token carrying user-delegation fields is 403 AuthenticationFailed, each field alone too", async () => {
    const all = new URLSearchParams(delegation).toString();
    for (const sas of [blobSas(), accountSas()]) {
      expect((await call({ path: "rules/ten", auth: { sas } })).status).toBe(200);
      const r = await call({ path: "rules/ten", auth: { sas: `${sas}&${all}` } });
      expect([r.status, r.code]).toEqual([403, "AuthenticationFailed"]);
      for (const [name, value] of [
        ...Object.entries(delegation),
        ["saoid", "x"],
        ["suoid", "x"],
        ["scid", "x"],
      ]) {
        const one = await call({
          path: "rules/ten",
          auth: { sas: `${sas}&${name}=${encodeURIComponent(value!)}` },
        });
        expect([name, one.status, one.code]).toEqual([name, 403, "AuthenticationFailed"]);
      }
    }
  });

  it("Get User Delegation Key is refused to the account key and to a SAS: only a bearer token may ask", async () => {
    const body =
      '<?xml version="1.0" encoding="utf-8"?><KeyInfo><Start>2026-01-01T00:00:00Z</Start><Expiry>2026-01-02T00:00:00Z</Expiry></KeyInfo>';
    for (const auth of ["key", { sas: accountSas() }] as const) {
      const r = await call({ method: "POST", path: "?restype=service&comp=userdelegationkey", body, auth });
      expect([r.status, r.code]).toEqual([403, "AuthenticationFailed"]);
      expect(r.text).toContain(
        "<AuthenticationErrorDetail>Only authentication scheme Bearer is supported</AuthenticationErrorDetail>",
      );
    }
  });
});
