/**
 * An insert inside `$batch` with `Prefer: return-content`: the service answers that part 201
 * Created with `Preference-Applied: return-content` and the entity as stored (the legacy SDK's
 * `echoContent` batch tests read it); with `return-no-content`, or no preference, 204.
 */
import azure from "azure-storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { batchBody, batchPart } from "../support/raw-batch.js";
import { rawRequest } from "../support/raw-table-client.js";

let server: Awaited<ReturnType<typeof startServer>>;

beforeAll(async () => {
  server = await startServer({ port: 0, services: ["table"] });
  const created = await rawRequest(server.url, {
    method: "POST",
    path: "Tables",
    body: JSON.stringify({ TableName: "Echoes" }),
  });
  expect(created.status).toBe(201);
});
afterAll(() => server?.stop());

const url = (path: string) => `http://127.0.0.1/devstoreaccount1/${path}`;

/** The `application/http` parts of a batch response: status line, headers, body. */
function parts(text: string): { status: string; headers: Record<string, string>; body: string }[] {
  return text
    .split(/\r\n--changesetresponse_[^\r\n]*\r\n/)
    .slice(1)
    .map((chunk) => {
      const http = chunk.split("\r\n\r\n").slice(1).join("\r\n\r\n");
      const [head = "", ...rest] = http.split("\r\n\r\n");
      const [status = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      return {
        status,
        headers,
        body: rest
          .join("\r\n\r\n")
          .split(/\r\n--/)[0]!
          .trim(),
      };
    });
}

describe("tablekit serve: a $batch insert with Prefer: return-content", () => {
  it("answers 201 Created, Preference-Applied: return-content and the entity; the other inserts 204", async () => {
    const insert = (rk: string, prefer?: string) =>
      batchPart(
        "POST",
        url("Echoes"),
        JSON.stringify({ PartitionKey: "p", RowKey: rk, n: 5, "x@odata.type": "Edm.Int64", x: "7" }),
        {
          Accept: "application/json;odata=minimalmetadata",
          ...(prefer ? { Prefer: prefer } : {}),
        },
      );
    const response = await rawRequest(server.url, {
      method: "POST",
      path: "$batch",
      body: batchBody("batch_e", "changeset_e", [
        insert("1", "return-content"),
        insert("2", "return-no-content"),
        insert("3"),
      ]),
      headers: { "content-type": "multipart/mixed; boundary=batch_e" },
    });
    expect(response.status).toBe(202);
    const [echoed, quiet, plain] = parts(response.text);
    expect(echoed!.status).toBe("HTTP/1.1 201 Created");
    expect(echoed!.headers).toMatchObject({
      "preference-applied": "return-content",
      "content-type": "application/json;odata=minimalmetadata;streaming=true;charset=utf-8",
      location: expect.stringMatching(/\/Echoes\(PartitionKey='p',RowKey='1'\)$/),
      dataserviceid: expect.stringMatching(/\/Echoes\(PartitionKey='p',RowKey='1'\)$/),
      etag: expect.stringMatching(/^W\/"datetime'/),
    });
    const body = JSON.parse(echoed!.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      "odata.metadata": expect.stringMatching(/\$metadata#Echoes\/@Element$/),
      "odata.etag": echoed!.headers.etag,
      PartitionKey: "p",
      RowKey: "1",
      n: 5,
      "x@odata.type": "Edm.Int64",
      x: "7",
      Timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/),
    });
    for (const part of [quiet!, plain!]) {
      expect(part.status).toBe("HTTP/1.1 204 No Content");
      expect(part.headers["preference-applied"]).toBe("return-no-content");
      expect(part.body).toBe("");
    }
  });

  it("gives the legacy SDK's echoContent batch insert its entity back", async () => {
    const service = azure.createTableService(server.connectionString);
    const gen = azure.TableUtilities.entityGenerator;
    const batch = new azure.TableBatch();
    batch.insertEntity(
      { PartitionKey: gen.String("q"), RowKey: gen.String("1"), name: gen.String("Ada") },
      { echoContent: true },
    );
    batch.insertEntity(
      { PartitionKey: gen.String("q"), RowKey: gen.String("2"), name: gen.String("Bo") },
      {},
    );
    const results = await new Promise<
      { response: { statusCode: number }; entity?: Record<string, { _: unknown }> }[]
    >((resolve, reject) =>
      service.executeBatch("Echoes", batch, (err, result) => (err ? reject(err) : resolve(result as never))),
    );
    expect(results.map((r) => r.response.statusCode)).toEqual([201, 204]);
    expect(results[0]!.entity?.name?._).toBe("Ada");
  });
});
