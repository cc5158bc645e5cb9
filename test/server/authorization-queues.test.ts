/**
 * The authorization matrix of tablekit serve's Queue service: every queue SAS permission set ×
 * every message operation, every account SAS permission, service and resource type, start and
 * expiry, tampered tokens, the account key, and a replayed Shared Key request. Each outcome is
 * compared with an oracle written from the service's SAS documentation, and every refusal is
 * checked to have done nothing.
 */
import {
  AccountSASPermissions,
  AccountSASResourceTypes,
  AccountSASServices,
  generateAccountSASQueryParameters,
  generateQueueSASQueryParameters,
  QueueSASPermissions,
  StorageSharedKeyCredential,
} from "@azure/storage-queue";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";
import { type StorageRequest, storageRequest, xmlValue } from "../support/raw-storage-client.js";

const credential = new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY);
let endpoint: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  const server = await startServer({ port: 0, services: ["queue"] });
  endpoint = server.endpoints.queue!.url;
  stop = server.stop;
});
afterAll(() => stop?.());

const call = (request: StorageRequest) => storageRequest(endpoint, request);
const message = (text: string) => `<QueueMessage><MessageText>${text}</MessageText></QueueMessage>`;
const hourFromNow = () => new Date(Date.now() + 3_600_000);
let serial = 0;

/** A fresh queue holding one message, made with the key; its id and pop receipt. */
async function freshQueue(): Promise<{ queue: string; id: string; receipt: string }> {
  const queue = `matrix${++serial}`;
  expect((await call({ method: "PUT", path: queue })).status).toBe(201);
  const sent = await call({ method: "POST", path: `${queue}/messages`, body: message("seed") });
  expect(sent.status).toBe(201);
  return { queue, id: xmlValue(sent.text, "MessageId")!, receipt: xmlValue(sent.text, "PopReceipt")! };
}

/** What the queue holds, read with the key: its message count, and the visible messages. */
async function state(queue: string): Promise<string> {
  const meta = await call({ path: `${queue}?comp=metadata` });
  const peek = await call({ path: `${queue}/messages?peekonly=true&numofmessages=32` });
  const texts = [...peek.text.matchAll(/<MessageText>([^<]*)<\/MessageText>/g)].map((m) => m[1]);
  return `${meta.headers["x-ms-approximate-messages-count"]}:${texts.join(",")}`;
}

type Op = "peek" | "getMetadata" | "send" | "receive" | "deleteMessage" | "update" | "clear";
const OPS: readonly Op[] = ["peek", "getMetadata", "send", "receive", "deleteMessage", "update", "clear"];
const READS: ReadonlySet<Op> = new Set(["peek", "getMetadata"]);
const SUCCESS: Record<Op, number> = {
  peek: 200,
  getMetadata: 200,
  send: 201,
  receive: 200,
  deleteMessage: 204,
  update: 204,
  clear: 204,
};
/** Queue SAS: r peek and read metadata, a add, u update, p get and delete; nothing grants Clear Messages. */
const QUEUE_SAS_NEEDS: Record<Op, string> = {
  peek: "r",
  getMetadata: "r",
  send: "a",
  receive: "p",
  deleteMessage: "p",
  update: "u",
  clear: "",
};
/** Account SAS: the resource type and the permission each operation needs (the account SAS table). */
const ACCOUNT_NEEDS: Record<Op, [string, string]> = {
  peek: ["o", "r"],
  getMetadata: ["c", "r"],
  send: ["o", "a"],
  receive: ["o", "p"],
  deleteMessage: ["o", "p"],
  update: ["o", "u"],
  clear: ["o", "d"],
};

function request(op: Op, q: { queue: string; id: string; receipt: string }): StorageRequest {
  const receipt = encodeURIComponent(q.receipt);
  switch (op) {
    case "peek":
      return { path: `${q.queue}/messages?peekonly=true` };
    case "getMetadata":
      return { path: `${q.queue}?comp=metadata` };
    case "send":
      return { method: "POST", path: `${q.queue}/messages`, body: message("added") };
    case "receive":
      return { path: `${q.queue}/messages` };
    case "deleteMessage":
      return { method: "DELETE", path: `${q.queue}/messages/${q.id}?popreceipt=${receipt}` };
    case "update":
      return {
        method: "PUT",
        path: `${q.queue}/messages/${q.id}?popreceipt=${receipt}&visibilitytimeout=0`,
        body: message("changed"),
      };
    case "clear":
      return { method: "DELETE", path: `${q.queue}/messages` };
  }
}

/** Runs `op` on a fresh queue with the token `sasFor` makes for it; status, code and whether it changed anything. */
async function attempt(op: Op, sasFor: (queue: string) => string) {
  const q = await freshQueue();
  const before = await state(q.queue);
  const r = await call({ ...request(op, q), auth: { sas: sasFor(q.queue) } });
  const changed = (await state(q.queue)) !== before;
  return { status: r.status, ...(r.code ? { code: r.code } : {}), changed };
}

function expected(op: Op, allowed: boolean, refusal: string) {
  return allowed
    ? { status: SUCCESS[op], changed: !READS.has(op) }
    : { status: 403, code: refusal, changed: false };
}

const queueSas = (queue: string, permissions: string, times: { startsOn?: Date; expiresOn?: Date } = {}) =>
  generateQueueSASQueryParameters(
    {
      queueName: queue,
      permissions: QueueSASPermissions.parse(permissions),
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

describe("tablekit serve, Queue service: the authorization matrix", () => {
  it("queue SAS: every permission set × every operation is the service's outcome, refusals change nothing", {
    timeout: 120_000,
  }, async () => {
    const mismatches: string[] = [];
    for (const permissions of subsets("raup")) {
      await Promise.all(
        OPS.map(async (op) => {
          const actual = await attempt(op, (queue) => queueSas(queue, permissions));
          const allowed = [...QUEUE_SAS_NEEDS[op]].some((p) => permissions.includes(p));
          const want =
            permissions === ""
              ? expected(op, false, "AuthenticationFailed")
              : expected(op, allowed, "AuthorizationPermissionMismatch");
          if (JSON.stringify(actual) !== JSON.stringify(want))
            mismatches.push(`sp=${permissions} ${op}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(want)}`);
        }),
      );
    }
    expect(mismatches).toEqual([]);
  });

  it("a queue SAS reaches only its own queue, and no queue-level or service-level operation", async () => {
    const other = await freshQueue();
    const r = await attempt("clear", (queue) => queueSas(queue, "raup"));
    expect(r).toEqual(expected("clear", false, "AuthorizationPermissionMismatch"));
    // The token of one queue used on another: the signature covers the queue's name.
    expect(await attempt("send", () => queueSas(other.queue, "raup"))).toEqual(
      expected("send", false, "AuthenticationFailed"),
    );
    const sas = queueSas(other.queue, "raup");
    for (const refused of [
      { method: "DELETE", path: other.queue },
      { method: "PUT", path: `${other.queue}?comp=metadata`, headers: { "x-ms-meta-a": "b" } },
      { method: "PUT", path: `${other.queue}?comp=acl`, body: "<SignedIdentifiers/>" },
      { path: "?comp=list" },
    ]) {
      const response = await call({ ...refused, auth: { sas } });
      expect(response.status, refused.path).toBe(403);
    }
    expect((await call({ path: `${other.queue}?comp=metadata` })).status).toBe(200);
  });

  it("a token without `p` cannot take over a message another consumer holds by guessing its receipt", async () => {
    const q = await freshQueue();
    // The owner (the account key) receives the seed message and holds it for an hour.
    const held = await call({ path: `${q.queue}/messages?visibilitytimeout=3600` });
    const heldId = xmlValue(held.text, "MessageId")!;
    const heldReceipt = xmlValue(held.text, "PopReceipt")!;
    const before = await state(q.queue);
    // The attacker may add and update (sp=au, no p): it sees the receipts of its own messages.
    const sas = queueSas(q.queue, "au");
    const own: string[] = [];
    for (let i = 0; i < 4; i++) {
      const sent = await call({
        method: "POST",
        path: `${q.queue}/messages?visibilitytimeout=3600`,
        body: message(`a${i}`),
        auth: { sas },
      });
      expect(sent.status).toBe(201);
      own.push(xmlValue(sent.text, "PopReceipt")!);
    }
    // Successive receipts share no structure: no common start, no counter to continue.
    const starts = new Set(own.map((r) => r.slice(0, 8)));
    expect(starts.size).toBe(own.length);
    for (const r of own) expect(Buffer.byteLength(r) * 6).toBeGreaterThanOrEqual(128);
    // Guesses from what it saw: its receipts with the last characters changed, each counter step
    // a prefix-plus-counter scheme would give, the receipt itself.
    const guesses = new Set<string>();
    for (const r of own) {
      guesses.add(r);
      for (const c of "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_")
        guesses.add(`${r.slice(0, -1)}${c}`);
      const digits = /^(.*?)([0-9a-z]+)$/.exec(r);
      if (digits)
        for (let step = -8; step <= 8; step++)
          guesses.add(`${digits[1]}${(Number.parseInt(digits[2]!, 36) + step).toString(36)}`);
    }
    guesses.delete(heldReceipt);
    const outcomes = new Set<string>();
    for (const guess of guesses) {
      const update = await call({
        method: "PUT",
        path: `${q.queue}/messages/${heldId}?popreceipt=${encodeURIComponent(guess)}&visibilitytimeout=0`,
        body: message("taken"),
        auth: { sas },
      });
      outcomes.add(`${update.status} ${update.code}`);
    }
    expect([...outcomes]).toEqual(["400 PopReceiptMismatch"]);
    // Delete needs `p`: refused before any receipt is looked at, even the right one.
    const deleted = await call({
      method: "DELETE",
      path: `${q.queue}/messages/${heldId}?popreceipt=${encodeURIComponent(heldReceipt)}`,
      auth: { sas },
    });
    expect([deleted.status, deleted.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
    // The held message is untouched: still hidden, and the owner's receipt still deletes it.
    const after = await call({ path: `${q.queue}/messages?peekonly=true&numofmessages=32` });
    expect(after.text).not.toContain("taken");
    expect(before.startsWith("1:")).toBe(true);
    expect(
      (
        await call({
          method: "DELETE",
          path: `${q.queue}/messages/${heldId}?popreceipt=${encodeURIComponent(heldReceipt)}`,
        })
      ).status,
    ).toBe(204);
  });

  it("account SAS: each permission alone × every operation", { timeout: 120_000 }, async () => {
    const mismatches: string[] = [];
    for (const letter of [..."rwdlacup"]) {
      await Promise.all(
        OPS.map(async (op) => {
          const actual = await attempt(op, () => accountSas("q", "sco", letter));
          const want = expected(op, ACCOUNT_NEEDS[op][1] === letter, "AuthorizationPermissionMismatch");
          if (JSON.stringify(actual) !== JSON.stringify(want))
            mismatches.push(`sp=${letter} ${op}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(want)}`);
        }),
      );
    }
    expect(mismatches).toEqual([]);
  });

  it("account SAS: services and resource types — a token without `q`, or without the operation's type, is refused", {
    timeout: 120_000,
  }, async () => {
    const mismatches: string[] = [];
    for (const services of ["q", "b", "t", "bt", "bqt"]) {
      for (const types of ["s", "c", "o", "sc", "co", "sco"]) {
        await Promise.all(
          OPS.map(async (op) => {
            const actual = await attempt(op, () => accountSas(services, types, "rwdlacup"));
            const want = !services.includes("q")
              ? expected(op, false, "AuthorizationServiceMismatch")
              : expected(op, types.includes(ACCOUNT_NEEDS[op][0]), "AuthorizationResourceTypeMismatch");
            if (JSON.stringify(actual) !== JSON.stringify(want))
              mismatches.push(
                `ss=${services} srt=${types} ${op}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(want)}`,
              );
          }),
        );
      }
    }
    expect(mismatches).toEqual([]);
    // Service-level operations need `s`: list queues, service properties.
    const list = await call({ path: "?comp=list", auth: { sas: accountSas("q", "co", "rwdlacup") } });
    expect([list.status, list.code]).toEqual([403, "AuthorizationResourceTypeMismatch"]);
    const listed = await call({ path: "?comp=list", auth: { sas: accountSas("q", "s", "l") } });
    expect(listed.status).toBe(200);
    // Creating a queue needs `c` type and c or w.
    const create = (sas: string) => call({ method: "PUT", path: `made${++serial}`, auth: { sas } });
    expect((await create(accountSas("q", "c", "c"))).status).toBe(201);
    expect((await create(accountSas("q", "c", "w"))).status).toBe(201);
    expect((await create(accountSas("q", "c", "rdlaup"))).code).toBe("AuthorizationPermissionMismatch");
    expect((await create(accountSas("q", "so", "cw"))).code).toBe("AuthorizationResourceTypeMismatch");
  });

  it("start and expiry: a token not yet valid or expired does nothing, and editing its times breaks its signature", async () => {
    const past = new Date(Date.now() - 60_000);
    const future = new Date(Date.now() + 600_000);
    expect(await attempt("send", (q) => queueSas(q, "a", { expiresOn: past }))).toEqual(
      expected("send", false, "AuthenticationFailed"),
    );
    expect(await attempt("send", (q) => queueSas(q, "a", { startsOn: future }))).toEqual(
      expected("send", false, "AuthenticationFailed"),
    );
    // Getting around it: the expired token with a later `se`, or its start removed, or `sp` widened.
    const later = encodeURIComponent(
      new Date(Date.now() + 7_200_000).toISOString().replace(/\.\d{3}Z$/, "Z"),
    );
    expect(
      await attempt("send", (q) => queueSas(q, "a", { expiresOn: past }).replace(/se=[^&]*/, `se=${later}`)),
    ).toEqual(expected("send", false, "AuthenticationFailed"));
    expect(
      await attempt("send", (q) => queueSas(q, "a", { startsOn: future }).replace(/&?st=[^&]*/, "")),
    ).toEqual(expected("send", false, "AuthenticationFailed"));
    expect(await attempt("receive", (q) => queueSas(q, "r").replace(/sp=r/, "sp=rp"))).toEqual(
      expected("receive", false, "AuthenticationFailed"),
    );
    expect(
      await attempt("send", () => accountSas("q", "sco", "a").replace(/se=[^&]*/, `se=${later}`)),
    ).toEqual(expected("send", false, "AuthenticationFailed"));
  });

  it("the account key: SharedKey and SharedKeyLite pass; a wrong key, another account's name or no signature does nothing", async () => {
    const q = await freshQueue();
    const send = { method: "POST", path: `${q.queue}/messages`, body: message("k") } as const;
    expect((await call({ ...send, auth: "key" })).status).toBe(201);
    expect((await call({ ...send, auth: "lite" })).status).toBe(201);
    const before = await state(q.queue);
    const wrongKey = Buffer.alloc(64, 7).toString("base64");
    for (const refused of [
      call({ ...send, key: wrongKey }),
      call({ ...send, auth: "lite", key: wrongKey }),
      call({ ...send, signer: "someoneelse" }),
      call({ ...send, auth: "none" }),
    ]) {
      const r = await refused;
      expect([r.status, r.code]).toEqual([403, "AuthenticationFailed"]);
    }
    expect(await state(q.queue)).toBe(before);
  });

  it("replay: an old signed Date with a fresh unsigned x-ms-date is refused for every verb, and does nothing", async () => {
    const old = new Date(Date.now() - 20 * 60_000);
    for (const op of OPS) {
      for (const scheme of ["key", "lite"] as const) {
        const q = await freshQueue();
        const fresh = await call({ ...request(op, q), auth: scheme, dateHeader: "date", date: new Date() });
        expect(fresh.status, `${op} fresh`).toBe(SUCCESS[op]);
        const q2 = await freshQueue();
        const before2 = await state(q2.queue);
        const replay = await call({
          ...request(op, q2),
          auth: scheme,
          dateHeader: "date",
          date: old,
          unsignedHeaders: { "X-Ms-Date": new Date().toUTCString() },
        });
        expect([replay.status, replay.code], `${op} ${scheme}`).toEqual([403, "AuthenticationFailed"]);
        expect(await state(q2.queue)).toBe(before2);
        const stale = await call({ ...request(op, q2), auth: scheme, dateHeader: "date", date: old });
        expect([stale.status, stale.code], `${op} ${scheme} stale`).toEqual([403, "AuthenticationFailed"]);
        expect(await state(q2.queue)).toBe(before2);
      }
    }
  });
});
