/**
 * Malformed input and hostile clients: bad JSON, truncated and mis-framed multipart bodies, wrong
 * content types, a 100 MB body, oversized headers and slow clients each get a 4xx with the
 * service's code (or a closed connection) while the server keeps answering everyone else.
 */
import { request } from "node:http";
import { connect } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { rawRequest, signedHeaders } from "../support/raw-table-client.js";

let endpoint: string;
let port: number;
let stop: () => Promise<void>;

beforeAll(async () => {
  const server = await startServer({
    port: 0,
    timeouts: { headersMs: 1_000, requestMs: 3_000 },
    maxBodyBytes: 8 * 1024 * 1024,
  });
  endpoint = server.url;
  port = server.port;
  stop = server.stop;
  await rawRequest(endpoint, {
    method: "POST",
    path: "Tables",
    body: JSON.stringify({ TableName: "Robust" }),
  });
});
afterAll(() => stop?.());

/** The server still answers a well-formed request. */
async function alive(): Promise<void> {
  const r = await rawRequest(endpoint, { path: "Robust()?$top=1" });
  expect(r.status).toBe(200);
}

function batch(boundary: string, changeset: string, parts: string[], close = true): string {
  const lines = [`--${boundary}`, `Content-Type: multipart/mixed; boundary=${changeset}`, ""];
  for (const part of parts) lines.push(`--${changeset}`, part);
  if (close) lines.push(`--${changeset}--`, `--${boundary}--`, "");
  return lines.join("\r\n");
}

const insertPart = (rk: string, body = `{"PartitionKey":"b","RowKey":"${rk}"}`) =>
  [
    "Content-Type: application/http",
    "Content-Transfer-Encoding: binary",
    "",
    `POST http://127.0.0.1/devstoreaccount1/Robust HTTP/1.1`,
    "Content-Type: application/json",
    "Prefer: return-no-content",
    "",
    body,
  ].join("\r\n");

describe("tablekit serve: malformed input", () => {
  it("bad JSON, non-object bodies, duplicated properties, unknown types: 400 with the service's codes", async () => {
    const cases: [string, string][] = [
      ["{not json", "InvalidInput"],
      ["[1,2]", "InvalidInput"],
      ['"text"', "InvalidInput"],
      ['{"PartitionKey":"a","RowKey":"b","x":1,"x":2}', "DuplicatePropertiesSpecified"],
      // Names counted past escaped quotes and backslashes, and with space before the colon.
      [
        '{"PartitionKey":"a","RowKey":"b","x":"say \\"x\\": 1","y\\\\":2,"x" :3}',
        "DuplicatePropertiesSpecified",
      ],
      ['{"PartitionKey":"a","RowKey":"b","x":"1","x@odata.type":"Edm.Nope"}', "InvalidValueType"],
      ['{"PartitionKey":"a","RowKey":"b","x":"abc","x@odata.type":"Edm.Int64"}', "InvalidValueType"],
      ['{"PartitionKey":"a","RowKey":"b","x":{"nested":1}}', "InvalidValueType"],
      ['{"PartitionKey":1,"RowKey":"b"}', "InvalidInput"],
      ['{"RowKey":"b"}', "InvalidInput"],
    ];
    for (const [body, code] of cases) {
      const r = await rawRequest(endpoint, { method: "POST", path: "Robust", body });
      expect([body, r.status, r.code]).toEqual([body, 400, code]);
      expect(r.json()).toMatchObject({ "odata.error": { code } });
    }
    // A value that reads like a name (`"x":` inside a string) is no second name.
    const lookalike = '{"PartitionKey":"a","RowKey":"lookalike","x":"a\\":","y":"\\\\","z":"\\" :"}';
    const accepted = await rawRequest(endpoint, { method: "POST", path: "Robust", body: lookalike });
    expect([accepted.status, accepted.code]).toEqual([201, undefined]);
    await alive();
  });

  it("truncated and mis-framed multipart batches, and batches without multipart: 400, nothing written", async () => {
    const boundary = "batch_x";
    const good = batch(boundary, "changeset_y", [insertPart("1"), insertPart("2")]);
    const bodies: [string, string][] = [
      [good.slice(0, good.length / 2), `multipart/mixed; boundary=${boundary}`],
      [
        good.replaceAll("changeset_y", "changeset_z").replace("boundary=changeset_z", "boundary=changeset_y"),
        `multipart/mixed; boundary=${boundary}`,
      ],
      [good, "multipart/mixed; boundary=batch_other"],
      [good, "application/json"],
      [good, "multipart/mixed"],
      [
        batch(boundary, "changeset_y", [insertPart("1").replace("POST http", "POST")]),
        `multipart/mixed; boundary=${boundary}`,
      ],
      ["", `multipart/mixed; boundary=${boundary}`],
    ];
    for (const [body, contentType] of bodies) {
      const r = await rawRequest(endpoint, {
        method: "POST",
        path: "$batch",
        body,
        headers: { "content-type": contentType },
      });
      if (r.status === 202) {
        // A changeset-level failure (the service answers those inside the multipart response).
        expect(r.text).toMatch(/HTTP\/1.1 400/);
      } else {
        expect([r.status, r.code]).toEqual([400, "InvalidInput"]);
      }
    }
    const listed = await rawRequest(endpoint, { path: "Robust()?$filter=PartitionKey%20eq%20'b'" });
    expect((listed.json() as { value: unknown[] }).value).toEqual([]);
    // The same batch, well formed, with bare LF line endings and no closing delimiter, as old clients send it.
    const lenient = batch(boundary, "changeset_y", [insertPart("1"), insertPart("2")], false).replaceAll(
      "\r\n",
      "\n",
    );
    const ok = await rawRequest(endpoint, {
      method: "POST",
      path: "$batch",
      body: lenient,
      headers: { "content-type": `multipart/mixed; boundary=${boundary}` },
    });
    expect(ok.status).toBe(202);
    expect(ok.text.match(/HTTP\/1.1 204/g)).toHaveLength(2);
    await alive();
  });

  it("Atom is refused with 415 AtomFormatNotSupported; unknown $format and verbs are 4xx", async () => {
    const atom = await rawRequest(endpoint, {
      path: "Robust()",
      headers: { accept: "application/atom+xml" },
    });
    expect([atom.status, atom.code]).toEqual([415, "AtomFormatNotSupported"]);
    const format = await rawRequest(endpoint, { path: "Robust()?$format=text/csv" });
    expect(format.status).toBe(400);
    const verb = await rawRequest(endpoint, { method: "PATCH", path: "Tables" });
    expect([verb.status, verb.code]).toEqual([405, "UnsupportedHttpVerb"]);
    const uri = await rawRequest(endpoint, { path: "Robust(PartitionKey='a')" });
    expect([uri.status, uri.code]).toEqual([400, "InvalidUri"]);
  });

  it("a 100 MB body is refused with 413 RequestBodyTooLarge, streamed or declared, and the server stays up", async () => {
    const declared = await rawRequest(endpoint, {
      method: "POST",
      path: "Robust",
      body: Buffer.alloc(9 * 1024 * 1024, 0x20),
    });
    expect([declared.status, declared.code]).toEqual([413, "RequestBodyTooLarge"]);
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const stream = Readable.from(
      (function* () {
        while (sent < 100) {
          sent++;
          yield chunk;
        }
      })(),
    );
    // The server answers 413 as soon as the excess arrives and closes the connection; the client may
    // still be writing, so its socket can be reset before it reads the answer (then: status 0).
    const status = await new Promise<number>((resolve) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path: "/devstoreaccount1/Robust",
          method: "POST",
          headers: { "content-type": "application/json", ...signedHeaders("Robust") },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", () => resolve(0));
      stream.pipe(req);
    });
    expect([0, 413]).toContain(status);
    expect(sent).toBeLessThan(100);
    await alive();
  });

  it("a $batch body past 4 MiB is 413 RequestBodyTooLarge, nothing written, though maxBodyBytes is 8 MiB", async () => {
    const MiB = 1024 * 1024;
    /** A batch of inserts into partition `pk` whose body is exactly `size` bytes. */
    const batchOfSize = (pk: string, size: number): string => {
      // Two Strings an entity, each within 64 KiB (UTF-16).
      const part = (i: number, pad: number) => {
        const [s, t] = ["x".repeat(Math.ceil(pad / 2)), "y".repeat(Math.floor(pad / 2))];
        return insertPart(`${i}`, `{"PartitionKey":"${pk}","RowKey":"${i}","s":"${s}","t":"${t}"}`);
      };
      const count = Math.ceil(size / 60_000);
      const empty = Buffer.byteLength(
        batch(
          "batch_z",
          "changeset_z",
          Array.from({ length: count }, (_, i) => part(i, 0)),
        ),
      );
      const left = size - empty;
      const share = Math.floor(left / count);
      const parts = Array.from({ length: count }, (_, i) =>
        part(i, i === 0 ? left - share * (count - 1) : share),
      );
      const body = batch("batch_z", "changeset_z", parts);
      expect(Buffer.byteLength(body)).toBe(size);
      return body;
    };
    const send = (body: string) =>
      rawRequest(endpoint, {
        method: "POST",
        path: "$batch",
        headers: { "content-type": "multipart/mixed; boundary=batch_z" },
        body,
      });
    const over = await send(batchOfSize("over", 4 * MiB + 1));
    expect([over.status, over.code]).toEqual([413, "RequestBodyTooLarge"]);
    const stored = await rawRequest(endpoint, { path: "Robust()?$filter=PartitionKey%20eq%20'over'" });
    expect((stored.json() as { value: unknown[] }).value).toEqual([]);
    const within = await send(batchOfSize("within", 3 * MiB));
    expect(within.status).toBe(202);
    const written = await rawRequest(endpoint, { path: "Robust()?$filter=PartitionKey%20eq%20'within'" });
    expect((written.json() as { value: unknown[] }).value).toHaveLength(Math.ceil((3 * MiB) / 60_000));
    await alive();
  });

  it("bytes past a request's Content-Length: the request is answered, then the connection closed", async () => {
    const body = JSON.stringify({ TableName: "PastLength" });
    const headers = {
      ...signedHeaders("Tables"),
      "content-type": "application/json",
      accept: "application/json",
    };
    const head = [
      "POST /devstoreaccount1/Tables HTTP/1.1",
      `Host: 127.0.0.1:${port}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      `Content-Length: ${Buffer.byteLength(body)}`,
      "",
      "",
    ].join("\r\n");
    const socket = connect(port, "127.0.0.1");
    const answer = await new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (d) => {
        text += d.toString();
      });
      socket.on("close", () => resolve(text));
      socket.write(`${head}${body}\x01\x02 these bytes are no request\r\n\r\n`);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    expect(answer).not.toMatch(/HTTP\/1\.1 400/);
    const listed = await rawRequest(endpoint, { path: "Tables('PastLength')" });
    expect(listed.status).toBe(200);
    await alive();
  });

  it("headers over the limit: 400 and the connection closed", async () => {
    const r = await rawRequest(endpoint, {
      path: "Robust()",
      headers: { "x-ms-padding": "x".repeat(40_000) },
    });
    expect(r.status).toBe(400);
    expect(r.code).toBe("InvalidHeaderValue");
    await alive();
  });

  it("a client that never finishes its headers is cut off; others are served meanwhile", async () => {
    const socket = connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write("GET /devstoreaccount1/Robust() HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    const closed = new Promise<number>((resolve) => {
      const started = Date.now();
      socket.on("close", () => resolve(Date.now() - started));
      socket.on("error", () => undefined);
      socket.resume();
    });
    await alive();
    const elapsed = await closed;
    expect(elapsed).toBeLessThan(10_000);
  });

  /**
   * A client that keeps its side open and never reads: the server must destroy its socket, not
   * only end it (an ended socket stays half open, its descriptor pinned, while the client keeps
   * writing). The client writes a byte every 100 ms: only a destroyed socket answers with a reset.
   */
  async function freedByServer(firstBytes: string): Promise<number> {
    const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.pause(); // never reads what the server sends
    const started = Date.now();
    socket.write(firstBytes);
    const closed = new Promise<number>((resolve) => {
      socket.on("error", () => undefined);
      socket.on("close", () => resolve(Date.now() - started));
    });
    const poke = setInterval(() => {
      if (socket.writable) socket.write("x");
    }, 100);
    const limit = new Promise<number>((resolve) =>
      setTimeout(() => resolve(Number.POSITIVE_INFINITY), 9_000),
    );
    const elapsed = await Promise.race([closed, limit]);
    clearInterval(poke);
    socket.destroy();
    return elapsed;
  }

  it("a half-open client that sent part of its headers and never reads is destroyed after headersMs", async () => {
    const elapsed = await freedByServer("GET /devstoreaccount1/Robust() HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    expect(elapsed).toBeLessThan(8_000);
    await alive();
  });

  it("a half-open client that never finishes its body is destroyed after requestMs", async () => {
    const head = [
      "POST /devstoreaccount1/Robust HTTP/1.1",
      "Host: 127.0.0.1",
      "Content-Type: application/json",
      "Content-Length: 100000",
      "",
      '{"PartitionKey":"slow","RowKey":"',
    ].join("\r\n");
    const elapsed = await freedByServer(head);
    expect(elapsed).toBeLessThan(8_000);
    const r = await rawRequest(endpoint, { path: "Robust(PartitionKey='slow',RowKey='x')" });
    expect(r.status).toBe(404);
  });

  it("a client sending bytes that are not HTTP, then keeping its side open, is answered 400 and destroyed", async () => {
    const elapsed = await freedByServer("NOT HTTP AT ALL\r\n\r\n");
    expect(elapsed).toBeLessThan(8_000);
    await alive();
  });
});
