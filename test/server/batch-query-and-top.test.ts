/**
 * Two query forms clients send: a `$batch` whose only operation is one GET (a single retrieve,
 * standing alone outside any changeset, as the service takes it), and `$top=0` (Storage Explorer
 * sends it), which asks for no entity. Also the paths the service does not serve: a trailing slash.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batchBody, batchPart } from "../support/raw-batch.js";
import { rawRequest } from "../support/raw-table-client.js";
import { serveTables } from "../support/tablekit-server.js";

const TABLE = "Lookups";
let endpoint: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ endpoint, stop } = await serveTables([TABLE]));
  for (const rk of ["1", "2", "3"]) {
    const put = await rawRequest(endpoint, {
      method: "PUT",
      path: `${TABLE}(PartitionKey='p',RowKey='${rk}')`,
      body: JSON.stringify({ n: Number(rk), s: `row ${rk}` }),
    });
    expect(put.status).toBe(204);
  }
});
afterAll(() => stop?.());

/** A batch holding `part` directly, outside any changeset. */
const loneQuery = (part: string) =>
  rawRequest(endpoint, {
    method: "POST",
    path: "$batch",
    body: ["--batch_q", part, "--batch_q--", ""].join("\r\n"),
    headers: { "content-type": "multipart/mixed; boundary=batch_q" },
  });
const get = (path: string, headers: Record<string, string> = {}) =>
  batchPart("GET", `http://127.0.0.1/devstoreaccount1/${path}`, "", headers);

describe("tablekit serve: a $batch whose only operation is one GET", () => {
  it("retrieves the entity as the batch's one part, with its ETag, $select and metadata level", async () => {
    const r = await loneQuery(
      get(`${TABLE}(PartitionKey='p',RowKey='2')?$select=n`, { Accept: "application/json;odata=nometadata" }),
    );
    expect(r.status).toBe(202);
    expect(r.headers["content-type"]).toMatch(/^multipart\/mixed; boundary=batchresponse_/);
    expect(r.text).not.toContain("changesetresponse_");
    expect(r.text).toMatch(/HTTP\/1.1 200 OK/);
    const etag = /ETag: (.*)/.exec(r.text)?.[1];
    const direct = await rawRequest(endpoint, { path: `${TABLE}(PartitionKey='p',RowKey='2')` });
    expect(etag).toBe(direct.headers.etag);
    const body = JSON.parse(/^\{.*\}$/m.exec(r.text)![0]) as Record<string, unknown>;
    expect(body).toEqual({ n: 2 });
  });

  it("a missing entity or table is the part's 404 with the operation's index", async () => {
    const missing = await loneQuery(get(`${TABLE}(PartitionKey='p',RowKey='9')`));
    expect(missing.status).toBe(202);
    expect(missing.text).toMatch(/HTTP\/1.1 404 Not Found/);
    expect(missing.text).toContain('"value":"0:The specified resource does not exist.');
    const noTable = await loneQuery(get("Nowhere(PartitionKey='p',RowKey='1')"));
    expect(noTable.text).toMatch(/HTTP\/1.1 404 Not Found/);
    expect(noTable.text).toContain('"code":"TableNotFound"');
  });

  it("only a single retrieve: a query of many, a query beside writes, or a write outside a changeset is refused", async () => {
    const many = await loneQuery(get(`${TABLE}()?$filter=PartitionKey%20eq%20'p'`));
    expect(many.text).toMatch(/HTTP\/1.1 400/);
    const write = await loneQuery(
      batchPart("POST", `http://127.0.0.1/devstoreaccount1/${TABLE}`, '{"PartitionKey":"p","RowKey":"w"}'),
    );
    expect([write.status, write.code]).toEqual([400, "InvalidInput"]);
    const beside = await rawRequest(endpoint, {
      method: "POST",
      path: "$batch",
      body: [
        "--batch_q",
        get(`${TABLE}(PartitionKey='p',RowKey='1')`),
        "--batch_q",
        "Content-Type: multipart/mixed; boundary=changeset_q",
        "",
        batchBody("unused", "changeset_q", [
          batchPart(
            "POST",
            `http://127.0.0.1/devstoreaccount1/${TABLE}`,
            '{"PartitionKey":"p","RowKey":"w"}',
          ),
        ])
          .split("\r\n")
          .slice(3)
          .join("\r\n"),
      ].join("\r\n"),
      headers: { "content-type": "multipart/mixed; boundary=batch_q" },
    });
    expect([beside.status, beside.code]).toEqual([400, "InvalidInput"]);
    const inChangeset = await rawRequest(endpoint, {
      method: "POST",
      path: "$batch",
      body: batchBody("batch_c", "changeset_c", [get(`${TABLE}(PartitionKey='p',RowKey='1')`)]),
      headers: { "content-type": "multipart/mixed; boundary=batch_c" },
    });
    expect(inChangeset.status).toBe(202);
    expect(inChangeset.text).toMatch(/HTTP\/1.1 4\d\d/);
    const listed = await rawRequest(endpoint, { path: `${TABLE}()` });
    expect((listed.json() as { value: unknown[] }).value).toHaveLength(3);
  });
});

describe("tablekit serve: $top", () => {
  it("$top=0 checks the query and answers no entity and no continuation, for entities and tables", async () => {
    const entities = await rawRequest(endpoint, {
      path: `${TABLE}()?$select=&$filter=PartitionKey%20eq%20'p'&$top=0`,
    });
    expect(entities.status).toBe(200);
    expect((entities.json() as { value: unknown[] }).value).toEqual([]);
    expect(entities.headers["x-ms-continuation-nextpartitionkey"]).toBeUndefined();
    const tables = await rawRequest(endpoint, { path: "Tables?$top=0" });
    expect(tables.status).toBe(200);
    expect((tables.json() as { value: unknown[] }).value).toEqual([]);
    expect(tables.headers["x-ms-continuation-nexttablename"]).toBeUndefined();
    // Still a query: a missing table or a bad filter is still an error.
    expect((await rawRequest(endpoint, { path: "Nowhere()?$top=0" })).status).toBe(404);
    expect((await rawRequest(endpoint, { path: `${TABLE}()?$filter=n%20eq&$top=0` })).status).toBe(400);
  });

  it("$top from 1 to 1,000 pages; anything else is 400 naming $top and no internal name", async () => {
    const one = await rawRequest(endpoint, { path: `${TABLE}()?$top=1` });
    expect((one.json() as { value: unknown[] }).value).toHaveLength(1);
    expect(one.headers["x-ms-continuation-nextpartitionkey"]).toBeDefined();
    expect((await rawRequest(endpoint, { path: `${TABLE}()?$top=1000` })).status).toBe(200);
    for (const top of ["1001", "-1", "1.5", "abc", ""]) {
      const r = await rawRequest(endpoint, { path: `${TABLE}()?$top=${top}` });
      expect([top, r.status, r.code]).toEqual([top, 400, "InvalidInput"]);
      expect(r.text).toContain("$top");
      expect(r.text).not.toMatch(/maxPageSize/);
    }
  });
});

describe("tablekit serve: paths the service does not serve", () => {
  it("a trailing slash or an empty segment is 400 InvalidUri (the service refuses //$batch too)", async () => {
    for (const path of ["Tables/", `${TABLE}()/`, `${TABLE}(PartitionKey='p',RowKey='1')/`, "/$batch"]) {
      const r = await rawRequest(endpoint, { path });
      expect([path, r.status, r.code]).toEqual([path, 400, "InvalidUri"]);
    }
  });
});
