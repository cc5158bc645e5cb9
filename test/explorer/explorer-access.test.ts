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
