/**
 * The Queue and Blob services' request dates, tried from the other side: the date checked against
 * the clock is the one the signature covers (x-ms-date when present and not empty, else Date), and
 * a date header sent twice is refused, for SharedKey and SharedKeyLite, a read (GET) and a DELETE.
 * A replay that adds a fresh date beside the signed old one, or sends the date twice, does nothing.
 * (Unlike the Table service's, these strings to sign hold both date headers, so the signature
 * refuses most of these on its own; the tests hold whichever rule a change might loosen.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { type StorageRequest, type StorageResponse, storageRequest } from "../support/raw-storage-client.js";

let queueUrl: string;
let blobUrl: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  const server = await startServer({ port: 0, services: ["queue", "blob"] });
  queueUrl = server.endpoints.queue!.url;
  blobUrl = server.endpoints.blob!.url;
  stop = server.stop;
});
afterAll(() => stop?.());

const message = "<QueueMessage><MessageText>seed</MessageText></QueueMessage>";
let serial = 0;

/** One operation on a fresh resource: the request, its success status, and whether it took effect. */
interface Target {
  readonly request: StorageRequest;
  readonly success: number;
  effect(response: StorageResponse): Promise<boolean>;
}
type Service = "queue" | "blob";
type Verb = "GET" | "DELETE";

async function target(
  service: Service,
  verb: Verb,
): Promise<Target & { send(r: StorageRequest): Promise<StorageResponse> }> {
  const name = `dates${++serial}`;
  if (service === "queue") {
    const send = (r: StorageRequest) => storageRequest(queueUrl, r);
    expect((await send({ method: "PUT", path: name })).status).toBe(201);
    expect((await send({ method: "POST", path: `${name}/messages`, body: message })).status).toBe(201);
    return verb === "GET"
      ? {
          send,
          request: { path: `${name}/messages?peekonly=true` },
          success: 200,
          effect: async (r) => r.status === 200 && r.text.includes("<MessageText>seed</MessageText>"),
        }
      : {
          send,
          request: { method: "DELETE", path: name },
          success: 204,
          effect: async () => (await send({ path: `${name}?comp=metadata` })).status === 404,
        };
  }
  const send = (r: StorageRequest) => storageRequest(blobUrl, r);
  expect((await send({ method: "PUT", path: `${name}?restype=container` })).status).toBe(201);
  const put = {
    method: "PUT",
    path: `${name}/doc`,
    headers: { "x-ms-blob-type": "BlockBlob" },
    body: "seed",
  };
  expect((await send(put)).status).toBe(201);
  return verb === "GET"
    ? { send, request: { path: `${name}/doc` }, success: 200, effect: async (r) => r.text === "seed" }
    : {
        send,
        request: { method: "DELETE", path: `${name}/doc` },
        success: 202,
        effect: async () => (await send({ path: `${name}/doc` })).status === 404,
      };
}

type Signing = Pick<StorageRequest, "auth" | "date" | "dateHeader" | "headers" | "unsignedHeaders">;

/** Runs the operation on a fresh resource, signed as told: its status and code, and whether it did anything. */
async function attempt(service: Service, verb: Verb, signing: Signing) {
  const t = await target(service, verb);
  const r = await t.send({ ...t.request, ...signing });
  return {
    status: r.status,
    ...(r.code ? { code: r.code } : {}),
    effect: await t.effect(r),
    success: t.success,
  };
}

const REFUSED = { status: 403, code: "AuthenticationFailed", effect: false };
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
const CASES = (["queue", "blob"] as const).flatMap((service) =>
  (["key", "lite"] as const).flatMap((auth) =>
    (["GET", "DELETE"] as const).map((verb) => ({ service, auth, verb })),
  ),
);

describe("tablekit serve, Queue and Blob services: the signed date is the date checked", () => {
  it.each(CASES)(
    "$service $verb $auth: fresh and signed works; 20 minutes old does nothing",
    async ({ service, auth, verb }) => {
      for (const dateHeader of ["x-ms-date", "date"] as const) {
        const fresh = await attempt(service, verb, { auth, dateHeader, date: new Date() });
        expect(fresh, dateHeader).toMatchObject({ status: fresh.success, effect: true });
        const { success: _, ...stale } = await attempt(service, verb, {
          auth,
          dateHeader,
          date: minutesAgo(20),
        });
        expect(stale, dateHeader).toEqual(REFUSED);
      }
    },
  );

  it.each(CASES)(
    "$service $verb $auth: a fresh date added beside the signed old one does nothing",
    async ({ service, auth, verb }) => {
      const now = new Date().toUTCString();
      const replays: Signing[] = [
        { dateHeader: "date", date: minutesAgo(20), unsignedHeaders: { "x-ms-date": now } },
        { dateHeader: "date", date: minutesAgo(20), unsignedHeaders: { "X-MS-DATE": now } },
        { dateHeader: "x-ms-date", date: minutesAgo(20), unsignedHeaders: { date: now } },
      ];
      for (const signing of replays) {
        const { success: _, ...replay } = await attempt(service, verb, { auth, ...signing });
        expect(replay, JSON.stringify(signing.unsignedHeaders)).toEqual(REFUSED);
      }
    },
  );

  it.each(CASES)(
    "$service $verb $auth: a date header sent twice does nothing, whichever copy was signed",
    async ({ service, auth, verb }) => {
      const old = minutesAgo(20);
      const fresh = new Date();
      for (const dateHeader of ["x-ms-date", "date"] as const) {
        for (const [signed, values] of [
          [old, [old, fresh]],
          [old, [fresh, old]],
          [fresh, [fresh, old]],
          [fresh, [fresh, fresh]],
        ] as const) {
          const { success: _, ...twice } = await attempt(service, verb, {
            auth,
            dateHeader,
            date: signed,
            unsignedHeaders: { [dateHeader]: values.map((d) => d.toUTCString()) },
          });
          expect(twice, `${dateHeader} ${values.map((d) => d.toISOString()).join(" | ")}`).toEqual(REFUSED);
        }
      }
    },
  );

  it.each(CASES)(
    "$service $verb $auth: an empty x-ms-date (signed) leaves the signed Date in charge",
    async ({ service, auth, verb }) => {
      const signedEmpty = { dateHeader: "date", headers: { "x-ms-date": "" } } as const;
      const { success: _, ...stale } = await attempt(service, verb, {
        auth,
        ...signedEmpty,
        date: minutesAgo(20),
      });
      expect(stale).toEqual(REFUSED);
      const fresh = await attempt(service, verb, { auth, ...signedEmpty, date: new Date() });
      expect(fresh).toMatchObject({ status: fresh.success, effect: true });
    },
  );
});
