/**
 * @azure/storage-blob, the official client, against tablekit serve: blob index tags (Set/Get Blob
 * Tags, x-ms-tags on uploads, x-ms-if-tags, Find Blobs by Tags on the account and a container with
 * paging, tags in listings) and access tiers (Set Blob Tier, the tier headers, Archive), plus the
 * service's 400s for what the protocol carries wrongly, sent raw.
 */
import {
  BlobSASPermissions,
  BlobServiceClient,
  generateBlobSASQueryParameters,
  StorageSharedKeyCredential,
} from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";

let server: RunningServer;
let service: BlobServiceClient;

beforeAll(async () => {
  server = await startServer({ port: 0, services: ["blob"] });
  service = BlobServiceClient.fromConnectionString(server.connectionString);
});
afterAll(() => server?.stop());

async function failure(work: Promise<unknown>): Promise<{ status: number; code: string | undefined }> {
  try {
    await work;
  } catch (err) {
    const e = err as { statusCode: number; code?: string };
    return { status: e.statusCode, code: e.code };
  }
  throw new Error("expected a failure");
}

describe("blob index tags through @azure/storage-blob", () => {
  it("setTags, getTags, x-ms-tags on upload and commit, tag count in properties, tags in listings", async () => {
    const container = service.getContainerClient("tags-basic");
    await container.create();
    const blob = container.getBlockBlobClient("one");
    const written = await blob.upload("hello", 5, { tags: { project: "alpha", "with space": "a+b" } });
    expect((await blob.getTags()).tags).toEqual({ project: "alpha", "with space": "a+b" });
    const props = await blob.getProperties();
    expect(props.tagCount).toBe(2);
    await blob.setTags({ stage: "final" });
    expect((await blob.getProperties()).etag).toBe(written.etag);
    expect((await blob.getTags()).tags).toEqual({ stage: "final" });
    const staged = container.getBlockBlobClient("two");
    await staged.stageBlock("YQ==", "a", 1);
    await staged.commitBlockList(["YQ=="], { tags: { from: "commit" } });
    expect((await staged.getTags()).tags).toEqual({ from: "commit" });
    const listed: [string, unknown][] = [];
    for await (const b of container.listBlobsFlat({ includeTags: true })) listed.push([b.name, b.tags]);
    expect(listed).toEqual([
      ["one", { stage: "final" }],
      ["two", { from: "commit" }],
    ]);
  });

  it("refuses tags past the limits with the service's codes, writing nothing", async () => {
    const container = service.getContainerClient("tags-limits");
    await container.create();
    const blob = container.getBlockBlobClient("b");
    await blob.upload("x", 1, { tags: { keep: "me" } });
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, "v"]));
    expect(await failure(blob.setTags(eleven))).toEqual({ status: 400, code: "TagsTooLarge" });
    expect(await failure(blob.setTags({ ["k".repeat(129)]: "v" }))).toEqual({
      status: 400,
      code: "InvalidTag",
    });
    expect(await failure(blob.setTags({ k: "v".repeat(257) }))).toEqual({ status: 400, code: "InvalidTag" });
    expect(await failure(blob.setTags({ "k#": "v" }))).toEqual({ status: 400, code: "InvalidTag" });
    expect(await failure(container.getBlockBlobClient("c").upload("x", 1, { tags: eleven }))).toEqual({
      status: 400,
      code: "TagsTooLarge",
    });
    expect((await blob.getTags()).tags).toEqual({ keep: "me" });
    expect(await container.getBlobClient("c").exists()).toBe(false);
    // x-ms-tags carries at most 2 KiB (encoded); the same tags go through Set Blob Tags.
    const big = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`${i}${"k".repeat(109)}`, "v".repeat(110)]),
    );
    expect(await failure(container.getBlockBlobClient("d").upload("x", 1, { tags: big }))).toEqual({
      status: 400,
      code: "TagsTooLarge",
    });
    await blob.setTags(big);
    expect((await blob.getProperties()).tagCount).toBe(10);
  });

  it("x-ms-if-tags guards reads and writes: 412 ConditionNotMet", async () => {
    const container = service.getContainerClient("tags-cond");
    await container.create();
    const blob = container.getBlockBlobClient("b");
    await blob.upload("x", 1, { tags: { stage: "draft" } });
    const unmet = { tagConditions: `"stage" = 'final'` };
    expect(await failure(blob.download(0, undefined, { conditions: unmet }))).toEqual({
      status: 412,
      code: "ConditionNotMet",
    });
    expect(await failure(blob.setTags({ a: "b" }, { conditions: unmet }))).toEqual({
      status: 412,
      code: "ConditionNotMet",
    });
    expect(await failure(blob.upload("y", 1, { conditions: unmet }))).toEqual({
      status: 412,
      code: "ConditionNotMet",
    });
    expect(await failure(blob.delete({ conditions: unmet }))).toEqual({
      status: 412,
      code: "ConditionNotMet",
    });
    expect(await failure(blob.getTags({ conditions: { tagConditions: `"stage" = ` } }))).toEqual({
      status: 400,
      code: "InvalidHeaderValue",
    });
    await blob.delete({ conditions: { tagConditions: `"stage" = 'draft' OR "x" = 'y'` } });
    expect(await blob.exists()).toBe(false);
  });

  it("findBlobsByTags on the account and on a container, with pages", async () => {
    const one = service.getContainerClient("find-one");
    const two = service.getContainerClient("find-two");
    await one.create();
    await two.create();
    for (let i = 0; i < 5; i++) {
      await one.getBlockBlobClient(`b${i}`).upload("x", 1, { tags: { kind: "report", year: `${2020 + i}` } });
    }
    await two.getBlockBlobClient("c").upload("x", 1, { tags: { kind: "report", year: "2024" } });
    const found: string[] = [];
    for await (const b of service.findBlobsByTags(`"kind" = 'report' AND "year" >= '2023'`)) {
      found.push(`${b.containerName}/${b.name}`);
      expect(b.tags).toEqual({ kind: "report", year: b.tags!.year });
    }
    expect(found).toEqual(["find-one/b3", "find-one/b4", "find-two/c"]);
    const inTwo: string[] = [];
    for await (const b of two.findBlobsByTags(`"kind" = 'report'`)) inTwo.push(b.name);
    expect(inTwo).toEqual(["c"]);
    const scoped: string[] = [];
    for await (const b of service.findBlobsByTags(`@container = 'find-one' AND "year" < '2022'`))
      scoped.push(b.name);
    expect(scoped).toEqual(["b0", "b1"]);
    const pages: number[] = [];
    for await (const page of service.findBlobsByTags(`"kind" = 'report'`).byPage({ maxPageSize: 4 })) {
      pages.push(page.blobs.length);
    }
    expect(pages).toEqual([4, 2]);
    const bad = await fetch(
      `${server.endpoints.blob!.url}/?comp=blobs&where=${encodeURIComponent(`"a" = 'b' OR "c" = 'd'`)}`,
      {
        headers: await sharedKeyHeaders(`/?comp=blobs&where=${encodeURIComponent(`"a" = 'b' OR "c" = 'd'`)}`),
      },
    );
    expect(bad.status).toBe(400);
    expect(bad.headers.get("x-ms-error-code")).toBe("InvalidQueryParameterValue");
  });

  it("a SAS with t reads and writes tags; without t it may not", async () => {
    const container = service.getContainerClient("tags-sas");
    await container.create();
    const blob = container.getBlockBlobClient("b");
    await blob.upload("x", 1, { tags: { a: "1" } });
    const credential = new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY);
    const sas = (permissions: string) =>
      generateBlobSASQueryParameters(
        {
          containerName: "tags-sas",
          blobName: "b",
          permissions: BlobSASPermissions.parse(permissions),
          expiresOn: new Date(Date.now() + 3_600_000),
        },
        credential,
      ).toString();
    const withT = new BlobServiceClient(`${server.endpoints.blob!.url}?${sas("rt")}`)
      .getContainerClient("tags-sas")
      .getBlockBlobClient("b");
    expect((await withT.getTags()).tags).toEqual({ a: "1" });
    await withT.setTags({ a: "2" });
    const withoutT = new BlobServiceClient(`${server.endpoints.blob!.url}?${sas("rw")}`)
      .getContainerClient("tags-sas")
      .getBlockBlobClient("b");
    expect((await failure(withoutT.getTags())).status).toBe(403);
    expect((await blob.getTags()).tags).toEqual({ a: "2" });
  });
});

describe("access tiers through @azure/storage-blob", () => {
  it("Set Blob Tier, the tier headers and listing elements, Archive refusing reads, rehydration", async () => {
    const container = service.getContainerClient("tiers");
    await container.create();
    const blob = container.getBlockBlobClient("b");
    await blob.upload("bytes", 5);
    let p = await blob.getProperties();
    expect([p.accessTier, p.accessTierInferred]).toEqual(["Hot", true]);
    expect((await blob.setAccessTier("Cool"))._response.status).toBe(200);
    p = await blob.getProperties();
    expect([p.accessTier, p.accessTierInferred]).toEqual(["Cool", false]);
    expect(p.accessTierChangedOn).toBeInstanceOf(Date);
    for await (const item of container.listBlobsFlat()) {
      // A listing says AccessTierInferred only when it is true.
      expect([item.properties.accessTier, item.properties.accessTierInferred]).toEqual(["Cool", undefined]);
      expect(item.properties.accessTierChangedOn).toBeInstanceOf(Date);
    }
    await blob.setAccessTier("Archive");
    expect(await failure(blob.download())).toEqual({ status: 409, code: "BlobArchived" });
    expect(await failure(blob.setMetadata({ a: "b" }))).toEqual({ status: 409, code: "BlobArchived" });
    expect((await blob.getProperties()).accessTier).toBe("Archive");
    expect((await blob.setAccessTier("Hot", { rehydratePriority: "High" }))._response.status).toBe(202);
    expect((await blob.downloadToBuffer()).toString()).toBe("bytes");
    await container.getBlockBlobClient("cold").upload("x", 1, { tier: "Cold" });
    expect((await container.getBlobClient("cold").getProperties()).accessTier).toBe("Cold");
    // The SDK refuses an unknown tier itself: sent raw, the server answers 400 InvalidBlobTier.
    const path = "/tiers/b?comp=tier";
    const frozen = await fetch(`${server.endpoints.blob!.url}${path}`, {
      method: "PUT",
      headers: await sharedKeyHeaders(path, "PUT", { "x-ms-access-tier": "Frozen" }),
    });
    expect([frozen.status, frozen.headers.get("x-ms-error-code")]).toEqual([400, "InvalidBlobTier"]);
    expect((await blob.getProperties()).accessTier).toBe("Hot");
    const append = container.getAppendBlobClient("ap");
    await append.create();
    expect(await failure(append.setAccessTier("Cool"))).toEqual({
      status: 400,
      code: "AccessTierNotSupportedForBlobType",
    });
  });
});

/** SharedKey headers for a raw GET on the Blob service (the SDK would refuse to send a malformed query). */
async function sharedKeyHeaders(
  pathAndQuery: string,
  method = "GET",
  extra: Record<string, string> = {},
): Promise<Record<string, string>> {
  const { createHmac } = await import("node:crypto");
  const date = new Date().toUTCString();
  const url = new URL(`http://x${pathAndQuery}`);
  const params = [...url.searchParams.entries()]
    .map(([k, v]) => [k.toLowerCase(), v] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `\n${k}:${v}`)
    .join("");
  const canonicalized = `/${AZURITE_ACCOUNT}/${AZURITE_ACCOUNT}${url.pathname}${params}`;
  const headers: Record<string, string> = { ...extra, "x-ms-date": date, "x-ms-version": "2021-12-02" };
  const canonicalHeaders = Object.keys(headers)
    .sort()
    .map((k) => `${k}:${headers[k]}\n`)
    .join("");
  const stringToSign = `${method}\n\n\n\n\n\n\n\n\n\n\n\n${canonicalHeaders}${canonicalized}`;
  const signature = createHmac("sha256", Buffer.from(AZURITE_KEY, "base64"))
    .update(stringToSign)
    .digest("base64");
  return {
    ...headers,
    authorization: `SharedKey ${AZURITE_ACCOUNT}:${signature}`,
  };
}
