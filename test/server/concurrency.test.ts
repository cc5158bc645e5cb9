/**
 * 50 concurrent clients mixing every operation against the `tablekit serve` binary, each checked
 * against a model of what it wrote: nothing lost, nothing extra; a shared counter incremented under
 * ETag retries by every client ends at the exact total; the server's RSS stays bounded.
 * TABLEKIT_SOAK_SECONDS sets the duration (default 4; the issue's full run is 60).
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { finished, startCli, tempDir } from "../cli/run-cli.js";
import { Random } from "../support/differential/random.js";
import { type RawResponse, rawRequest } from "../support/raw-table-client.js";

const SECONDS = Number(process.env.TABLEKIT_SOAK_SECONDS ?? 4);
const CLIENTS = 50;
const { dir, cleanup } = tempDir();
let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill("SIGKILL");
  cleanup();
});

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

type Model = Map<string, { v: number; etag: string }>;
const path = (pk: string, rk: string) => `Soak(PartitionKey='${pk}',RowKey='${rk}')`;

function expectStatus(r: RawResponse, status: number, what: string): void {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.code ?? ""} ${r.text.slice(0, 200)}`);
}

/** One client: random operations on its own partition, mirrored in `model`, plus counter increments. */
async function client(
  endpoint: string,
  id: number,
  until: number,
): Promise<{ model: Model; increments: number }> {
  const r = new Random(id + 1);
  const pk = `c${String(id).padStart(2, "0")}`;
  const model: Model = new Map();
  let increments = 0;
  let next = 0;
  while (Date.now() < until) {
    const keys = [...model.keys()];
    const pick = keys.length > 0 ? keys[r.int(keys.length)]! : undefined;
    const roll = r.int(100);
    if (roll < 20 || !pick) {
      const rk = `r${next++}`;
      const res = await rawRequest(endpoint, {
        method: "POST",
        path: "Soak",
        body: JSON.stringify({ PartitionKey: pk, RowKey: rk, v: 1 }),
        headers: { prefer: "return-no-content" },
      });
      expectStatus(res, 204, "insert");
      model.set(rk, { v: 1, etag: String(res.headers.etag) });
    } else if (roll < 35) {
      const current = model.get(pick)!;
      const res = await rawRequest(endpoint, {
        method: "PUT",
        path: path(pk, pick),
        body: JSON.stringify({ v: current.v + 1 }),
        headers: { "if-match": current.etag },
      });
      expectStatus(res, 204, "update");
      model.set(pick, { v: current.v + 1, etag: String(res.headers.etag) });
    } else if (roll < 45) {
      const res = await rawRequest(endpoint, {
        method: "MERGE",
        path: path(pk, pick),
        body: JSON.stringify({ v: 7 }),
      });
      expectStatus(res, 204, "upsert");
      model.set(pick, { v: 7, etag: String(res.headers.etag) });
    } else if (roll < 52) {
      const res = await rawRequest(endpoint, {
        method: "DELETE",
        path: path(pk, pick),
        headers: { "if-match": model.get(pick)!.etag },
      });
      expectStatus(res, 204, "delete");
      model.delete(pick);
    } else if (roll < 57) {
      const res = await rawRequest(endpoint, {
        method: "DELETE",
        path: path(pk, pick),
        headers: { "if-match": `W/"datetime'2000-01-01T00%3A00%3A00.0000000Z'"` },
      });
      expectStatus(res, 412, "stale delete");
    } else if (roll < 72) {
      const res = await rawRequest(endpoint, { path: path(pk, pick) });
      expectStatus(res, 200, "get");
      const body = res.json() as { v: number };
      if (body.v !== model.get(pick)!.v)
        throw new Error(`get ${pk}/${pick}: ${body.v} ≠ ${model.get(pick)!.v}`);
    } else if (roll < 80) {
      const res = await rawRequest(endpoint, {
        path: `Soak()?$filter=${encodeURIComponent(`PartitionKey eq '${pk}'`)}`,
      });
      expectStatus(res, 200, "query");
      const seen = (res.json() as { value: { RowKey: string; v: number }[] }).value;
      if (seen.length !== model.size || seen.some((e) => model.get(e.RowKey)?.v !== e.v))
        throw new Error(`query ${pk} differs from the model`);
    } else if (roll < 88) {
      const rks = [`r${next++}`, `r${next++}`, `r${next++}`];
      const parts = rks.map((rk) =>
        [
          "--cs",
          "Content-Type: application/http",
          "Content-Transfer-Encoding: binary",
          "",
          `POST http://127.0.0.1/devstoreaccount1/Soak HTTP/1.1`,
          "Content-Type: application/json",
          "Prefer: return-no-content",
          "",
          JSON.stringify({ PartitionKey: pk, RowKey: rk, v: 3 }),
        ].join("\r\n"),
      );
      const body = [
        "--b",
        "Content-Type: multipart/mixed; boundary=cs",
        "",
        ...parts,
        "--cs--",
        "--b--",
        "",
      ].join("\r\n");
      const res = await rawRequest(endpoint, {
        method: "POST",
        path: "$batch",
        body,
        headers: { "content-type": "multipart/mixed; boundary=b" },
      });
      expectStatus(res, 202, "batch");
      const etags = [...res.text.matchAll(/ETag: (.*)\r\n/g)].map((m) => m[1]!);
      if (etags.length !== 3) throw new Error(`batch: ${res.text.slice(0, 300)}`);
      for (const [i, rk] of rks.entries()) model.set(rk, { v: 3, etag: etags[i]! });
    } else {
      // The shared counter: read, increment, write If-Match; retry on 412.
      for (;;) {
        const read = await rawRequest(endpoint, { path: path("counter", "total") });
        expectStatus(read, 200, "counter read");
        const { n } = read.json() as { n: number };
        const res = await rawRequest(endpoint, {
          method: "PUT",
          path: path("counter", "total"),
          body: JSON.stringify({ n: n + 1 }),
          headers: { "if-match": String(read.headers.etag) },
        });
        if (res.status === 204) break;
        expectStatus(res, 412, "counter write");
      }
      increments++;
    }
  }
  return { model, increments };
}

describe("tablekit serve under 50 concurrent clients", () => {
  it(`mixes every operation for ${SECONDS} s: nothing lost, exact counter, bounded memory`, {
    timeout: 60_000 + SECONDS * 2_000,
  }, async () => {
    child = startCli(["serve", "--tablePort", "0", "--location", `${dir}/soak`], { cwd: dir });
    const done = finished(child);
    const endpoint = await new Promise<string>((resolve, reject) => {
      let out = "";
      child!.stdout!.on("data", (d: Buffer | string) => {
        out += d.toString();
        const match = /TableEndpoint=(\S+?);/.exec(out);
        if (match) resolve(match[1]!);
      });
      void done.then((r) => reject(new Error(`serve exited: ${r.stderr}`)));
    });
    expectStatus(
      await rawRequest(endpoint, {
        method: "POST",
        path: "Tables",
        body: JSON.stringify({ TableName: "Soak" }),
      }),
      201,
      "create table",
    );
    expectStatus(
      await rawRequest(endpoint, {
        method: "PUT",
        path: path("counter", "total"),
        body: JSON.stringify({ n: 0 }),
      }),
      204,
      "counter",
    );
    const rssBefore = rssMiB(child.pid!);
    const until = Date.now() + SECONDS * 1000;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(child!.pid!))), 250);
    const results = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(endpoint, i, until)));
    clearInterval(sampler);
    // The whole table against the union of the models.
    const expected = results.flatMap(({ model }, i) =>
      [...model].map(([rk, { v }]) => `c${String(i).padStart(2, "0")}/${rk}=${v}`),
    );
    const actual: string[] = [];
    let query = `Soak()?$filter=${encodeURIComponent("PartitionKey ne 'counter'")}`;
    for (;;) {
      const page = await rawRequest(endpoint, { path: query });
      expectStatus(page, 200, "final scan");
      for (const e of (page.json() as { value: { PartitionKey: string; RowKey: string; v: number }[] })
        .value) {
        actual.push(`${e.PartitionKey}/${e.RowKey}=${e.v}`);
      }
      const nextPk = page.headers["x-ms-continuation-nextpartitionkey"];
      if (!nextPk) break;
      query = `Soak()?$filter=${encodeURIComponent("PartitionKey ne 'counter'")}&NextPartitionKey=${encodeURIComponent(String(nextPk))}&NextRowKey=${encodeURIComponent(String(page.headers["x-ms-continuation-nextrowkey"]))}`;
    }
    expect(actual.sort()).toEqual(expected.sort());
    const counter = await rawRequest(endpoint, { path: path("counter", "total") });
    expect((counter.json() as { n: number }).n).toBe(results.reduce((sum, r) => sum + r.increments, 0));
    expect(expected.length).toBeGreaterThan(CLIENTS);
    expect(peak).toBeLessThan(300);
    child.kill("SIGTERM");
    expect((await done).code).toBe(0);
  });
});
