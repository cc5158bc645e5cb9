/**
 * Who reaches the explorer, over plain HTTP: the token (query once, cookie after, constant-time),
 * loopback Host names only, forms that carry the token, read-only stores, and the mount under
 * `tablekit serve`.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sameToken } from "../../src/cli/explorer/explorer-auth.js";
import {
  type RunningExplorer,
  startExplorer,
  writableByDefault,
} from "../../src/cli/explorer/start-explorer.js";
import { openStore, type Store } from "../../src/index.js";
import { startServer } from "../../src/server/index.js";

let store: Store;
let writable: RunningExplorer;
let readOnly: RunningExplorer;

beforeAll(async () => {
  store = await openStore("memory:");
  await store.createTable("Orders");
  await store.table("Orders").createEntity({ partitionKey: "c", rowKey: "1", Price: 5 });
  writable = await startExplorer({ store, writable: true });
  readOnly = await startExplorer({ store, writable: false });
});

afterAll(async () => {
  await writable?.stop();
  await readOnly?.stop();
  await store?.close();
});

const parts = (e: RunningExplorer) => {
  const url = new URL(e.url);
  return { origin: url.origin, token: url.searchParams.get("token")! };
};
const cookieOf = (token: string) => ({ cookie: `tablekit_explorer=${token}` });
const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const,
});

/** A multipart body carrying the token and one file, and its content type. */
function multipart(token: string, filename: string, content: string): [string, string] {
  const boundary = "tablekit-test-boundary";
  const body = [
    `--${boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n${token}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n`,
    `Content-Type: application/octet-stream\r\n\r\n${content}\r\n--${boundary}--\r\n`,
  ].join("");
  return [body, `multipart/form-data; boundary=${boundary}`];
}

/** Everything a write could change: tables and their entities, the queue's messages, the container's blobs. */
async function snapshot(): Promise<unknown> {
  const tables: Record<string, unknown[]> = {};
  for await (const t of store.listTables()) {
    tables[t.name] = [];
    for await (const e of store.table(t.name).listEntities()) tables[t.name]!.push(e);
  }
  const messages = (await store.queue("jobs").peekMessages({ numberOfMessages: 32 })).peekedMessageItems.map(
    (m) => m.messageText,
  );
  const blobs: string[] = [];
  for await (const b of store.container("logs").listBlobsFlat()) blobs.push(b.name);
  return { tables, messages, blobs };
}

describe("explorer access", () => {
  it("answers only with the token: the URL's query once, then its cookie", async () => {
    const { origin, token } = parts(writable);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await fetch(`${origin}/`)).status).toBe(401);
    expect((await fetch(`${origin}/t/Orders`, { headers: cookieOf(`${token.slice(0, -1)}x`) })).status).toBe(
      401,
    );
    expect((await fetch(`${origin}/?token=${token}x`, { redirect: "manual" })).status).toBe(401);
    const first = await fetch(`${origin}/t/Orders?pk=c&token=${token}`, { redirect: "manual" });
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/t/Orders?pk=c");
    expect(first.headers.get("set-cookie")).toBe(
      `tablekit_explorer=${token}; Path=/; HttpOnly; SameSite=Strict`,
    );
    const page = await fetch(`${origin}/t/Orders`, { headers: cookieOf(token) });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(sameToken("abc", "abc")).toBe(true);
    expect(sameToken("abd", "abc")).toBe(false);
    expect(sameToken("ab", "abc")).toBe(false);
    expect(sameToken(undefined, "abc")).toBe(false);
  });

  it("refuses Host names other than loopback (DNS rebinding), and forms without the token", async () => {
    const { origin, token } = parts(writable);
    const port = Number(new URL(origin).port);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      http
        .get(
          {
            host: "127.0.0.1",
            port,
            path: "/",
            headers: { host: `evil.example:${port}`, ...cookieOf(token) },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode);
          },
        )
        .on("error", reject);
    });
    expect(status).toBe(403);
    const post = (fields: Record<string, string>) =>
      fetch(`${origin}/t/Orders/e`, {
        ...form(fields),
        headers: { ...form({}).headers, ...cookieOf(token) },
      });
    const noCsrf = await post({ action: "delete", pk: "c", rk: "1" });
    expect(noCsrf.status).toBe(403);
    expect((await store.table("Orders").getEntity("c", "1")).Price).toBe(5);
    const wrongType = await post({
      csrf: token,
      action: "save",
      pk: "c",
      rk: "1",
      name: "Price",
      type: "Int32",
      value: "five",
    });
    expect(wrongType.status).toBe(400);
    expect(await wrongType.text()).toContain("InvalidValueType");
  });

  it("refuses writes when read-only, which cloud stores are by default", async () => {
    const { origin, token } = parts(readOnly);
    const res = await fetch(`${origin}/t/Orders/e`, {
      ...form({ csrf: token, action: "delete", pk: "c", rk: "1" }),
      headers: { ...form({}).headers, ...cookieOf(token) },
    });
    expect(res.status).toBe(403);
    expect((await store.table("Orders").getEntity("c", "1")).Price).toBe(5);
    const page = await (await fetch(`${origin}/t/Orders/e?pk=c&rk=1`, { headers: cookieOf(token) })).text();
    expect(page).toContain("read-only");
    expect(page).not.toContain('data-test="edit-form"');
    expect(
      ["file:./a.db", "memory:", "azure:UseDevelopmentStorage=true", "dynamodb:http://127.0.0.1:8000"].map(
        writableByDefault,
      ),
    ).toEqual([true, true, false, false]);
  });

  it("read-only refuses every write route, with a valid token and a well-formed form, and writes nothing", async () => {
    const { origin, token } = parts(readOnly);
    await store.queue("jobs").createIfNotExists();
    await store.queue("jobs").sendMessage("kept");
    await store.container("logs").createIfNotExists();
    const before = await snapshot();
    const post = (path: string, body: string, type: string) =>
      fetch(`${origin}${path}`, {
        method: "POST",
        headers: { "content-type": type, ...cookieOf(token) },
        body,
        redirect: "manual",
      });
    const urlencoded = "application/x-www-form-urlencoded";
    const fields = (f: Record<string, string>) => new URLSearchParams({ csrf: token, ...f }).toString();
    const attempts: [string, Response][] = [
      ["create table", await post("/tables", fields({ name: "Forced" }), urlencoded)],
      ["delete table", await post("/t/Orders/delete", fields({ confirm: "Orders" }), urlencoded)],
      [
        "save",
        await post(
          "/t/Orders/e",
          fields({ action: "save", pk: "c", rk: "1", name: "Price", type: "Int32", value: "1" }),
          urlencoded,
        ),
      ],
      ["create", await post("/t/Orders/e", fields({ action: "create", pk: "c", rk: "2" }), urlencoded)],
      ["delete", await post("/t/Orders/e", fields({ action: "delete", pk: "c", rk: "1" }), urlencoded)],
      ["send", await post("/q/jobs/send", fields({ text: "forced" }), urlencoded)],
      ["clear", await post("/q/jobs/clear", fields({}), urlencoded)],
      [
        "import",
        await post("/t/Orders/import", ...multipart(token, "a.ndjson", '{"PartitionKey":"c","RowKey":"9"}')),
      ],
      ["upload", await post("/b/logs/upload", ...multipart(token, "forced.txt", "forced"))],
      // The same routes spelt otherwise: an encoded letter, a doubled slash, a query.
      [
        "encoded",
        await post(
          "/t/Orders/%69mport",
          ...multipart(token, "a.ndjson", '{"PartitionKey":"c","RowKey":"8"}'),
        ),
      ],
      ["doubled slash", await post("//tables", fields({ name: "Forced2" }), urlencoded)],
      ["query", await post("/q/jobs/clear?method=GET", fields({}), urlencoded)],
    ];
    for (const [what, res] of attempts) {
      expect([what, res.status, await res.text()]).toEqual([
        what,
        403,
        "This explorer is read-only (start it with --write).",
      ]);
    }
    // No write hides behind another method: GET on a write path writes nothing either.
    for (const path of [
      "/t/Orders/new?pk=c",
      "/q/jobs/send?text=forced",
      "/q/jobs/clear",
      "/b/logs/upload?name=x",
    ]) {
      const res = await fetch(`${origin}${path}`, { headers: cookieOf(token), redirect: "manual" });
      expect([path, res.status]).toEqual([path, path.startsWith("/t/") ? 403 : 405]);
    }
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const res = await fetch(`${origin}/t/Orders/e`, {
        method,
        headers: cookieOf(token),
        redirect: "manual",
      });
      expect(res.status).toBe(405);
    }
    expect(await snapshot()).toEqual(before);
    const page = await (await fetch(`${origin}/t/Orders`, { headers: cookieOf(token) })).text();
    for (const form of ["import", "delete-table", "new-entity"])
      expect(page).not.toContain(`data-test="${form}"`);
  });

  it("refuses an upload one byte over the limit, writing nothing, and takes one at the limit", async () => {
    const limited = await startExplorer({ store, writable: true, maxUploadBytes: 1000 });
    try {
      const { origin, token } = parts(limited);
      await store.createTable("Limited");
      const line = '{"PartitionKey":"p","RowKey":"1"}';
      const send = async (extra: number) => {
        const [probe] = multipart(token, "a.ndjson", line);
        const padding = " ".repeat(1000 - Buffer.byteLength(probe) + extra);
        const [body, type] = multipart(token, "a.ndjson", line + padding);
        expect(Buffer.byteLength(body)).toBe(1000 + extra);
        return fetch(`${origin}/t/Limited/import`, {
          method: "POST",
          headers: { "content-type": type, ...cookieOf(token) },
          body,
          redirect: "manual",
        });
      };
      const over = await send(1);
      expect(over.status).toBe(413);
      expect(await over.text()).toContain("RequestBodyTooLarge");
      const keys = async () => {
        const found: string[] = [];
        for await (const e of store.table("Limited").listEntities()) found.push(e.rowKey ?? "");
        return found;
      };
      expect(await keys()).toEqual([]);
      const at = await send(0);
      expect(at.status).toBe(303);
      expect(await keys()).toEqual(["1"]);
    } finally {
      await limited.stop();
    }
  });

  it("is mounted under /_explorer by the server, beside the Table protocol", async () => {
    const { createExplorer: make } = await import("../../src/cli/explorer/explorer-app.js");
    let token = "";
    const server = await startServer({
      port: 0,
      mounts: (served) => {
        const explorer = make({ store: served, base: "/_explorer", writable: true, loopbackOnly: true });
        token = explorer.token;
        return [explorer];
      },
    });
    try {
      await server.store.createTable("Served");
      const origin = `http://127.0.0.1:${server.port}`;
      const first = await fetch(`${origin}/_explorer/?token=${token}`, { redirect: "manual" });
      expect(first.headers.get("set-cookie")).toContain("Path=/_explorer;");
      const tables = await (await fetch(`${origin}/_explorer/`, { headers: cookieOf(token) })).text();
      expect(tables).toContain('href="/_explorer/t/Served"');
      expect((await fetch(`${origin}/_explorer/`)).status).toBe(401);
    } finally {
      await server.stop();
    }
  });
});
