import { describe, expect, it } from "vitest";
import type { NormalizedEntity } from "../../../src/model/index.js";
import { batchBody, parseBatchResponse } from "../../../src/store/backends/azure/table-batch-body.js";
import { entityPath } from "../../../src/store/backends/azure/table-requests.js";
import type { BackendAction } from "../../../src/store/tables/table-backend.js";

const ACCOUNT = "http://127.0.0.1:10002/devstoreaccount1";
const TABLE = `${ACCOUNT}/Orders`;
const ETAG = `W/"datetime'2026-11-22T02%3A49%3A12.9327936Z'"`;
const e = (rowKey: string): NormalizedEntity => ({
  partitionKey: "p",
  rowKey,
  properties: new Map([["n", { type: "Int32", value: 1 }]]),
});

/** The sub-requests of a body: start line, headers and body of each, in order. */
function subRequests(body: string): { start: string; headers: string[]; body: string }[] {
  const changeset = /boundary=(changeset_[^\r\n]+)/.exec(body)![1]!;
  return body
    .split(`--${changeset}`)
    .slice(1, -1)
    .map((part) => {
      // MIME headers, blank line, HTTP start line and headers, blank line, body.
      const [, head = "", content = ""] = part.split("\r\n\r\n");
      const [start = "", ...headers] = head.split("\r\n");
      return { start, headers, body: content.replace(/\r\n$/, "") };
    });
}

describe("azure batch body", () => {
  it("one sub-request per action, in action order, each with its verb, URL, ETag and body", () => {
    const actions: BackendAction[] = [
      { kind: "create", entity: e("a") },
      { kind: "upsert", entity: e("b"), mode: "Replace" },
      { kind: "upsert", entity: e("c"), mode: "Merge" },
      { kind: "update", entity: e("d"), mode: "Replace", etag: ETAG },
      { kind: "update", entity: e("e"), mode: "Merge", etag: "*" },
      { kind: "delete", partitionKey: "p", rowKey: "f", etag: ETAG },
    ];
    const body = batchBody("batch_123", actions, { accountUrl: ACCOUNT, table: "Orders", cosmos: false });
    expect(
      body.startsWith("--batch_123\r\nContent-Type: multipart/mixed; boundary=changeset_123\r\n\r\n"),
    ).toBe(true);
    expect(body.endsWith("--changeset_123--\r\n--batch_123--\r\n")).toBe(true);
    const parts = subRequests(body);
    expect(parts.map((p) => p.start)).toEqual([
      `POST ${TABLE} HTTP/1.1`,
      `PUT ${TABLE}(PartitionKey='p',RowKey='b') HTTP/1.1`,
      `PATCH ${TABLE}(PartitionKey='p',RowKey='c') HTTP/1.1`,
      `PUT ${TABLE}(PartitionKey='p',RowKey='d') HTTP/1.1`,
      `PATCH ${TABLE}(PartitionKey='p',RowKey='e') HTTP/1.1`,
      `DELETE ${TABLE}(PartitionKey='p',RowKey='f') HTTP/1.1`,
    ]);
    const ifMatch = parts.map((p) => p.headers.find((h) => h.startsWith("If-Match: "))?.slice(10));
    expect(ifMatch).toEqual([undefined, undefined, undefined, ETAG, "*", ETAG]);
    expect(parts[0]!.headers).toContain("Prefer: return-no-content");
    expect(JSON.parse(parts[3]!.body)).toEqual({
      PartitionKey: "p",
      RowKey: "d",
      "n@odata.type": "Edm.Int32",
      n: 1,
    });
    expect(parts[5]!.body).toBe("");
  });

  it("Cosmos DB merges are POST with X-HTTP-Method: MERGE", () => {
    const body = batchBody("batch_1", [{ kind: "upsert", entity: e("a"), mode: "Merge" }], {
      accountUrl: ACCOUNT,
      table: "Orders",
      cosmos: true,
    });
    const [part] = subRequests(body);
    expect(part!.start).toBe(`POST ${TABLE}(PartitionKey='p',RowKey='a') HTTP/1.1`);
    expect(part!.headers).toContain("X-HTTP-Method: MERGE");
  });

  it("entity paths double quotes, then percent-encode", () => {
    expect(entityPath("Orders", "O'Brien", "a b%c&ü")).toBe(
      `/Orders(PartitionKey='O''Brien',RowKey='a%20b%25c%26%C3%BC')`,
    );
    expect(entityPath("Orders", "", "")).toBe(`/Orders(PartitionKey='',RowKey='')`);
  });

  it("reads the sub-responses of a batch response, in order, with their status, headers and body", () => {
    const part = (status: string, headers: string[], body = "") =>
      [
        "--changesetresponse_9",
        "Content-Type: application/http",
        "Content-Transfer-Encoding: binary",
        "",
        `HTTP/1.1 ${status}`,
        ...headers,
        "",
        body,
      ].join("\r\n");
    const ok = [
      "--batchresponse_7",
      "Content-Type: multipart/mixed; boundary=changesetresponse_9",
      "",
      part("204 No Content", [`ETag: ${ETAG}`, "DataServiceVersion: 1.0;"]),
      part("204 No Content", []),
      "--changesetresponse_9--",
      "--batchresponse_7--",
      "",
    ].join("\r\n");
    const responses = parseBatchResponse(ok);
    expect(responses.map((r) => r.status)).toEqual([204, 204]);
    expect(responses[0]!.headers.get("etag")).toBe(ETAG);
    expect(responses[1]!.headers.get("etag")).toBeUndefined();
    const error = '{"odata.error":{"code":"EntityAlreadyExists","message":{"value":"1:exists"}}}';
    const failed = [
      "--batchresponse_7",
      "Content-Type: multipart/mixed; boundary=changesetresponse_9",
      "",
      part("409 Conflict", ["Content-Type: application/json;odata=minimalmetadata"], error),
      "--changesetresponse_9--",
      "--batchresponse_7--",
    ].join("\r\n");
    expect(parseBatchResponse(failed)).toEqual([
      {
        status: 409,
        headers: new Map([["content-type", "application/json;odata=minimalmetadata"]]),
        body: error,
      },
    ]);
  });
});
