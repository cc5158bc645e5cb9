/**
 * The authorization matrix of tablekit serve's Blob service: every container SAS permission set ×
 * every blob and container operation, blob SAS, account SAS permissions, services and resource
 * types, start and expiry, tampered tokens, and a replayed Shared Key request. Outcomes come from
 * an oracle written from the service's SAS documentation (`c` writes only a blob that does not
 * exist yet); every refusal is checked to have changed nothing.
 */
import {
  AccountSASPermissions,
  AccountSASResourceTypes,
  AccountSASServices,
  BlobSASPermissions,
  ContainerSASPermissions,
  generateAccountSASQueryParameters,
  generateBlobSASQueryParameters,
  StorageSharedKeyCredential,
} from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";
import { type StorageRequest, storageRequest } from "../support/raw-storage-client.js";

const credential = new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY);
let endpoint: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  const server = await startServer({ port: 0, services: ["blob"] });
  endpoint = server.endpoints.blob!.url;
  stop = server.stop;
});
afterAll(() => stop?.());

const call = (request: StorageRequest) => storageRequest(endpoint, request);
const BLOCK = { "x-ms-blob-type": "BlockBlob" };
const BLOCK_ID = encodeURIComponent(Buffer.from("block-1").toString("base64"));
let serial = 0;

/** A fresh container holding a block blob `seed` and an append blob `log`, made with the key. */
async function freshContainer(): Promise<string> {
  const container = `matrix${++serial}`;
  expect((await call({ method: "PUT", path: `${container}?restype=container` })).status).toBe(201);
  expect(
    (await call({ method: "PUT", path: `${container}/seed`, headers: BLOCK, body: "seed" })).status,
  ).toBe(201);
  const log = { "x-ms-blob-type": "AppendBlob" };
  expect((await call({ method: "PUT", path: `${container}/log`, headers: log })).status).toBe(201);
  return container;
}

/** What the container holds, read with the key: every blob with its ETag, and `fresh`'s staged blocks. */
async function state(container: string): Promise<string> {
  const list = await call({ path: `${container}?restype=container&comp=list` });
  const blobs = [...list.text.matchAll(/<Name>([^<]*)<\/Name>[\s\S]*?<Etag>([^<]*)<\/Etag>/g)].map(
    (m) => `${m[1]}@${m[2]}`,
  );
  const staged = await call({ path: `${container}/fresh?comp=blocklist&blocklisttype=all` });
  const blocks = [...staged.text.matchAll(/<Name>([^<]*)<\/Name>/g)].map((m) => m[1]);
  return `${blobs.join(",")}|${staged.status}:${blocks.join(",")}`;
}

type Op =
  | "read"
  | "blockList"
  | "create"
  | "overwrite"
  | "stageNew"
  | "commitNew"
  | "metadata"
  | "append"
  | "delete"
  | "list"
  | "properties";
const OPS: readonly Op[] = [
  "read",
  "blockList",
  "create",
  "overwrite",
  "stageNew",
  "commitNew",
  "metadata",
  "append",
  "delete",
  "list",
  "properties",
];
const READS: ReadonlySet<Op> = new Set(["read", "blockList", "list", "properties"]);
const SUCCESS: Record<Op, number> = {
  read: 200,
  blockList: 200,
  create: 201,
  overwrite: 201,
  stageNew: 201,
  commitNew: 201,
  metadata: 200,
  append: 201,
  delete: 202,
  list: 200,
  properties: 200,
};
/** Any one of these permissions grants the operation (the SAS documentation; `c` only for a new blob). */
const NEEDS: Record<Op, string> = {
  read: "r",
  blockList: "r",
  create: "cw",
  overwrite: "w",
  stageNew: "cw",
  commitNew: "cw",
  metadata: "w",
  append: "aw",
  delete: "d",
  list: "l",
  properties: "r",
};
/** The blob an operation addresses (undefined: the container). */
const TARGET: Record<Op, string | undefined> = {
  read: "seed",
  blockList: "seed",
  create: "fresh",
  overwrite: "seed",
  stageNew: "fresh",
  commitNew: "fresh",
  metadata: "seed",
  append: "log",
  delete: "seed",
  list: undefined,
  properties: undefined,
};

function request(op: Op, c: string): StorageRequest {
  switch (op) {
    case "read":
      return { path: `${c}/seed` };
    case "blockList":
      return { path: `${c}/seed?comp=blocklist` };
    case "create":
      return { method: "PUT", path: `${c}/fresh`, headers: BLOCK, body: "new" };
    case "overwrite":
      return { method: "PUT", path: `${c}/seed`, headers: BLOCK, body: "other" };
    case "stageNew":
      return { method: "PUT", path: `${c}/fresh?comp=block&blockid=${BLOCK_ID}`, body: "part" };
    case "commitNew":
      return { method: "PUT", path: `${c}/fresh?comp=blocklist`, body: "<BlockList></BlockList>" };
    case "metadata":
      return { method: "PUT", path: `${c}/seed?comp=metadata`, headers: { "x-ms-meta-a": "b" } };
    case "append":
      return { method: "PUT", path: `${c}/log?comp=appendblock`, body: "line" };
    case "delete":
      return { method: "DELETE", path: `${c}/seed` };
    case "list":
      return { path: `${c}?restype=container&comp=list` };
    case "properties":
      return { path: `${c}?restype=container` };
  }
}

async function attempt(op: Op, sasFor: (container: string) => string) {
  const c = await freshContainer();
  const before = await state(c);
  const r = await call({ ...request(op, c), auth: { sas: sasFor(c) } });
  const changed = (await state(c)) !== before;
  return { status: r.status, ...(r.code ? { code: r.code } : {}), changed };
}

function expected(op: Op, allowed: boolean, refusal: string) {
  return allowed
    ? { status: SUCCESS[op], changed: !READS.has(op) }
    : { status: 403, code: refusal, changed: false };
}

const hourFromNow = () => new Date(Date.now() + 3_600_000);
const serviceSas = (
  containerName: string,
  permissions: string,
  blobName?: string,
  times: { startsOn?: Date; expiresOn?: Date } = {},
) =>
  generateBlobSASQueryParameters(
    {
      containerName,
      ...(blobName ? { blobName } : {}),
      permissions: blobName
        ? BlobSASPermissions.parse(permissions)
        : ContainerSASPermissions.parse(permissions),
      expiresOn: hourFromNow(),
      ...times,
    },
    credential,
  ).toString();
const accountSas = (services: string, types: string, permissions: string) =>
  generateAccountSASQueryParameters(
    {
      services: AccountSASServices.parse(services).toString(),
      resourceTypes: AccountSASResourceTypes.parse(types).toString(),
      permissions: AccountSASPermissions.parse(permissions),
      expiresOn: hourFromNow(),
    },
    credential,
  ).toString();
const subsets = (letters: string) =>
  Array.from({ length: 1 << letters.length }, (_, mask) =>
    [...letters].filter((_, i) => mask & (1 << i)).join(""),
  );
const show = (o: unknown) => JSON.stringify(o);

describe("tablekit serve, Blob service: the authorization matrix", () => {
  it("container SAS: every permission set × every operation is the service's outcome, refusals change nothing", {
    timeout: 300_000,
  }, async () => {
    const mismatches: string[] = [];
    for (const permissions of subsets("racwdl")) {
      await Promise.all(
        OPS.map(async (op) => {
          const actual = await attempt(op, (c) => serviceSas(c, permissions));
          // A service SAS grants no container operation but listing: not Get Container Properties.
          const containerRead = op === "properties";
          const allowed = !containerRead && [...NEEDS[op]].some((p) => permissions.includes(p));
          const want = expected(
            op,
            allowed,
            permissions === ""
              ? "AuthenticationFailed"
              : containerRead
                ? "AuthorizationResourceTypeMismatch"
                : "AuthorizationPermissionMismatch",
          );
          if (show(actual) !== show(want))
            mismatches.push(`sp=${permissions} ${op}: ${show(actual)} ≠ ${show(want)}`);
        }),
      );
    }
    expect(mismatches).toEqual([]);
  });

  it("blob SAS: each permission on its own blob; never the container, never another blob", {
    timeout: 120_000,
  }, async () => {
    const mismatches: string[] = [];
    for (const letter of [..."racwdl"]) {
      await Promise.all(
        OPS.map(async (op) => {
          const target = TARGET[op];
          if (letter === "l") return; // A blob token has no list permission.
          const actual = await attempt(op, (c) => serviceSas(c, letter, target ?? "seed"));
          const want =
            target === undefined
              ? expected(op, false, "AuthenticationFailed") // its signature names the blob, not the container
              : expected(op, NEEDS[op].includes(letter), "AuthorizationPermissionMismatch");
          if (show(actual) !== show(want))
            mismatches.push(`sr=b sp=${letter} ${op}: ${show(actual)} ≠ ${show(want)}`);
        }),
      );
    }
    expect(mismatches).toEqual([]);
    // One blob's token on another blob of the same container: its signature names the blob.
    expect(await attempt("read", (c) => serviceSas(c, "racwd", "log"))).toEqual(
      expected("read", false, "AuthenticationFailed"),
    );
    // A container's token on another container.
    const other = await freshContainer();
    expect(await attempt("overwrite", () => serviceSas(other, "racwdl"))).toEqual(
      expected("overwrite", false, "AuthenticationFailed"),
    );
  });

  it("account SAS: each permission alone × every operation", { timeout: 120_000 }, async () => {
    const mismatches: string[] = [];
    for (const letter of [..."rwdlacup"]) {
      await Promise.all(
        OPS.map(async (op) => {
          const actual = await attempt(op, () => accountSas("b", "sco", letter));
          const want = expected(op, NEEDS[op].includes(letter), "AuthorizationPermissionMismatch");
          if (show(actual) !== show(want))
            mismatches.push(`sp=${letter} ${op}: ${show(actual)} ≠ ${show(want)}`);
        }),
      );
    }
    expect(mismatches).toEqual([]);
  });

  it("account SAS: services and resource types", { timeout: 120_000 }, async () => {
    const mismatches: string[] = [];
    for (const services of ["b", "q", "t", "qt", "bqt"]) {
      for (const types of ["s", "c", "o", "sc", "co", "sco"]) {
        await Promise.all(
          OPS.map(async (op) => {
            const actual = await attempt(op, () => accountSas(services, types, "racwdl"));
            const type = TARGET[op] === undefined ? "c" : "o";
            const want = !services.includes("b")
              ? expected(op, false, "AuthorizationServiceMismatch")
              : expected(op, types.includes(type), "AuthorizationResourceTypeMismatch");
            if (show(actual) !== show(want))
              mismatches.push(`ss=${services} srt=${types} ${op}: ${show(actual)} ≠ ${show(want)}`);
          }),
        );
      }
    }
    expect(mismatches).toEqual([]);
    const list = (sas: string) => call({ path: "?comp=list", auth: { sas } });
    expect((await list(accountSas("b", "s", "l"))).status).toBe(200);
    expect((await list(accountSas("b", "co", "l"))).code).toBe("AuthorizationResourceTypeMismatch");
    expect((await list(accountSas("b", "s", "racwd"))).code).toBe("AuthorizationPermissionMismatch");
  });

  it("start and expiry: a token not yet valid or expired does nothing; editing its fields breaks its signature", async () => {
    const past = new Date(Date.now() - 60_000);
    const future = new Date(Date.now() + 600_000);
    const refused = expected("overwrite", false, "AuthenticationFailed");
    expect(await attempt("overwrite", (c) => serviceSas(c, "w", undefined, { expiresOn: past }))).toEqual(
      refused,
    );
    expect(await attempt("overwrite", (c) => serviceSas(c, "w", undefined, { startsOn: future }))).toEqual(
      refused,
    );
    const later = encodeURIComponent(
      new Date(Date.now() + 7_200_000).toISOString().replace(/\.\d{3}Z$/, "Z"),
    );
    expect(
      await attempt("overwrite", (c) =>
        serviceSas(c, "w", undefined, { expiresOn: past }).replace(/se=[^&]*/, `se=${later}`),
      ),
    ).toEqual(refused);
    expect(
      await attempt("overwrite", (c) =>
        serviceSas(c, "w", undefined, { startsOn: future }).replace(/&?st=[^&]*/, ""),
      ),
    ).toEqual(refused);
    // Widening: c to cw, a blob token made a container token.
    expect(await attempt("overwrite", (c) => serviceSas(c, "c").replace(/sp=c/, "sp=cw"))).toEqual(refused);
    expect(
      await attempt("list", (c) =>
        serviceSas(c, "r", "seed").replace(/sr=b/, "sr=c").replace(/sp=r/, "sp=rl"),
      ),
    ).toEqual(expected("list", false, "AuthenticationFailed"));
  });

  it("the account key, and replay: an old signed Date with a fresh unsigned x-ms-date does nothing", async () => {
    const old = new Date(Date.now() - 20 * 60_000);
    const wrongKey = Buffer.alloc(64, 7).toString("base64");
    for (const op of OPS.filter((o) => !READS.has(o))) {
      for (const scheme of ["key", "lite"] as const) {
        const c = await freshContainer();
        const before = await state(c);
        for (const refused of [
          { dateHeader: "date", date: old, unsignedHeaders: { "X-Ms-Date": new Date().toUTCString() } },
          { dateHeader: "date", date: old },
          { key: wrongKey },
          { signer: "someoneelse" },
        ] as const) {
          const r = await call({ ...request(op, c), auth: scheme, ...refused });
          expect([r.status, r.code], `${op} ${scheme} ${show(refused)}`).toEqual([
            403,
            "AuthenticationFailed",
          ]);
        }
        expect(await state(c), op).toBe(before);
        const fresh = await call({ ...request(op, c), auth: scheme, dateHeader: "date", date: new Date() });
        expect(fresh.status, `${op} ${scheme}`).toBe(SUCCESS[op]);
      }
    }
  });
});
