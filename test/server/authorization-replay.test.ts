/**
 * The authorization matrix, replay: a Shared Key signature covers the request's date, and the
 * date checked against the clock must be that same signed date (x-ms-date when present, else
 * Date). A request captured once must not be replayable by adding a fresh, unsigned date header,
 * whatever the header's case, for either scheme and every verb; nothing it asks is done.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { rawRequest } from "../support/raw-table-client.js";

const TABLE = "Replay";
let endpoint: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  const server = await startServer({ port: 0 });
  endpoint = server.url;
  stop = server.stop;
  expect(
    (await rawRequest(endpoint, { method: "POST", path: "Tables", body: `{"TableName":"${TABLE}"}` })).status,
  ).toBe(201);
});
afterAll(() => stop?.());

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
const entity = (rk: string) => `${TABLE}(PartitionKey='p',RowKey='${rk}')`;
let serial = 0;

async function seed(rk: string): Promise<void> {
  const r = await rawRequest(endpoint, { method: "PUT", path: entity(rk), body: '{"v":1}' });
  expect(r.status).toBe(204);
}

async function exists(rk: string): Promise<boolean> {
  const r = await rawRequest(endpoint, { path: entity(rk) });
  return r.status === 200;
}

async function value(rk: string): Promise<unknown> {
  const r = await rawRequest(endpoint, { path: entity(rk) });
  return r.status === 200 ? (r.json() as { v?: unknown }).v : undefined;
}

type Verb = "GET" | "POST" | "PUT" | "MERGE" | "DELETE";
const VERBS: readonly Verb[] = ["GET", "POST", "PUT", "MERGE", "DELETE"];

/** One request of `verb` on a fresh entity, signed as told; then what it did. */
async function attempt(
  verb: Verb,
  auth: "lite" | "key",
  sign: { date: Date; dateHeader: "x-ms-date" | "date" },
  extra: Record<string, string | string[]> = {},
): Promise<{ status: number; code?: string; effect: boolean }> {
  const rk = `r${++serial}`;
  if (verb !== "POST") await seed(rk);
  const common = { auth, ...sign };
  const r = await (async () => {
    switch (verb) {
      case "GET":
        return rawRequest(endpoint, { ...common, path: entity(rk), headers: extra });
      case "POST":
        return rawRequest(endpoint, {
          ...common,
          method: "POST",
          path: TABLE,
          body: JSON.stringify({ PartitionKey: "p", RowKey: rk, v: 2 }),
          headers: { prefer: "return-no-content", ...extra },
        });
      case "PUT":
      case "MERGE":
        return rawRequest(endpoint, {
          ...common,
          method: verb,
          path: entity(rk),
          body: '{"v":2}',
          headers: { "if-match": "*", ...extra },
        });
      case "DELETE":
        return rawRequest(endpoint, {
          ...common,
          method: "DELETE",
          path: entity(rk),
          headers: { "if-match": "*", ...extra },
        });
    }
  })();
  const effect =
    verb === "GET"
      ? r.status === 200
      : verb === "POST"
        ? await exists(rk)
        : verb === "DELETE"
          ? !(await exists(rk))
          : (await value(rk)) === 2;
  return { status: r.status, ...(r.code ? { code: r.code } : {}), effect };
}

const REFUSED = { status: 403, code: "AuthenticationFailed", effect: false };

describe("tablekit serve: a Shared Key request cannot be replayed", () => {
  for (const auth of ["lite", "key"] as const) {
    describe(auth === "lite" ? "SharedKeyLite" : "SharedKey", () => {
      it("a request signed over its Date header alone is accepted while fresh, refused once 15 minutes old", async () => {
        for (const verb of VERBS) {
          expect(await attempt(verb, auth, { date: new Date(), dateHeader: "date" }), verb).toMatchObject({
            effect: true,
          });
          expect(await attempt(verb, auth, { date: minutesAgo(20), dateHeader: "date" }), verb).toEqual(
            REFUSED,
          );
        }
      });

      it("an old signed Date with a fresh unsigned x-ms-date (in any case) is refused, and does nothing", async () => {
        for (const verb of VERBS) {
          for (const name of ["x-ms-date", "X-MS-DATE", "X-Ms-Date"]) {
            const replay = await attempt(
              verb,
              auth,
              { date: minutesAgo(20), dateHeader: "date" },
              { [name]: new Date().toUTCString() },
            );
            expect(replay, `${verb} ${name}`).toEqual(REFUSED);
          }
        }
      });

      it("an old signed x-ms-date with a fresh Date is refused: x-ms-date is the request's date", async () => {
        for (const verb of VERBS) {
          const replay = await attempt(
            verb,
            auth,
            { date: minutesAgo(20), dateHeader: "x-ms-date" },
            { date: new Date().toUTCString() },
          );
          expect(replay, verb).toEqual(REFUSED);
        }
      });

      it("a fresh signed Date beside a fresh x-ms-date it did not sign is refused (only x-ms-date counts)", async () => {
        const signed = new Date(Date.now() - 5_000);
        const replay = await attempt(
          "GET",
          auth,
          { date: signed, dateHeader: "date" },
          { "x-ms-date": new Date().toUTCString() },
        );
        expect(replay).toEqual(REFUSED);
      });

      it("x-ms-date sent twice (the signed old one and a fresh one) is refused", async () => {
        const old = minutesAgo(20);
        for (const values of [
          [old.toUTCString(), new Date().toUTCString()],
          [new Date().toUTCString(), old.toUTCString()],
        ]) {
          const replay = await attempt(
            "DELETE",
            auth,
            { date: old, dateHeader: "x-ms-date" },
            { "x-ms-date": values },
          );
          expect(replay).toEqual(REFUSED);
        }
        // The same fresh signed value twice: which line was signed is still unknowable.
        const now = new Date();
        const twice = await attempt(
          "GET",
          auth,
          { date: now, dateHeader: "x-ms-date" },
          { "x-ms-date": [now.toUTCString(), now.toUTCString()] },
        );
        expect(twice).toEqual(REFUSED);
      });

      it("Date sent twice (the signed old one and a fresh one) is refused, in either order", async () => {
        const old = minutesAgo(20);
        for (const verb of ["GET", "DELETE"] as const) {
          for (const values of [
            [old.toUTCString(), new Date().toUTCString()],
            [new Date().toUTCString(), old.toUTCString()],
          ]) {
            const replay = await attempt(verb, auth, { date: old, dateHeader: "date" }, { date: values });
            expect(replay, `${verb} ${values.join(" | ")}`).toEqual(REFUSED);
          }
          // Twice the same fresh signed value: still not one date, still refused.
          const now = new Date();
          const twice = await attempt(
            verb,
            auth,
            { date: now, dateHeader: "date" },
            { date: [now.toUTCString(), now.toUTCString()] },
          );
          expect(twice, verb).toEqual(REFUSED);
        }
      });

      it("an empty x-ms-date leaves the signed Date in charge, which must still be fresh", async () => {
        for (const verb of ["GET", "DELETE"] as const) {
          for (const empty of ["", " "]) {
            expect(
              await attempt(verb, auth, { date: minutesAgo(20), dateHeader: "date" }, { "x-ms-date": empty }),
              verb,
            ).toEqual(REFUSED);
            expect(
              await attempt(verb, auth, { date: new Date(), dateHeader: "date" }, { "x-ms-date": empty }),
              verb,
            ).toMatchObject({ effect: true });
          }
        }
      });
    });
  }
});
