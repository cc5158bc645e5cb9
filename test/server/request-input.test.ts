/**
 * Input the service refuses, and request sizes it takes: bodies that are not UTF-8 and numbers past
 * a Double's range are 400 InvalidInput with the service's error body and write nothing; a `$batch`
 * body is limited to 4 MiB as received (annotations the client never sent are not counted), a
 * single entity's body past 4 MiB is 413 RequestBodyTooLarge. Each limit is crossed by one byte.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type TransactionAction } from "../../src/index.js";
import { startServer } from "../../src/server/index.js";
import { batchBody, batchPart } from "../support/raw-batch.js";
import { type RawResponse, rawRequest } from "../support/raw-table-client.js";

const TABLE = "Inputs";
const MiB = 1024 * 1024;
let endpoint: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  const server = await startServer({ port: 0 });
  endpoint = server.url;
  stop = server.stop;
  const r = await rawRequest(endpoint, {
    method: "POST",
    path: "Tables",
    body: JSON.stringify({ TableName: TABLE }),
  });
  expect(r.status).toBe(201);
  const seed = await rawRequest(endpoint, {
    method: "PUT",
    path: `${TABLE}(PartitionKey='p',RowKey='seed')`,
    body: JSON.stringify({ x: "before" }),
  });
  expect(seed.status).toBe(204);
});
afterAll(() => stop?.());

async function partition(pk: string): Promise<{ RowKey: string; x?: unknown }[]> {
  const r = await rawRequest(endpoint, { path: `${TABLE}()?$filter=PartitionKey%20eq%20'${pk}'` });
  expect(r.status).toBe(200);
  return (r.json() as { value: { RowKey: string; x?: unknown }[] }).value;
}

function expectServiceError(r: RawResponse, status: number, code: string): void {
  expect([r.status, r.code]).toEqual([status, code]);
  expect(r.json()).toMatchObject({ "odata.error": { code, message: { lang: "en-US" } } });
}

/** A body with `bytes` in place of `@`. */
const withBytes = (text: string, bytes: number[]) => {
  const [before, after] = text.split("@") as [string, string];
  return Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
};

const NOT_UTF8: readonly number[][] = [
  [0xff],
  [0x80],
  [0xc0, 0xaf], // an overlong "/"
  [0xe2, 0x82], // truncated
  [0xed, 0xa0, 0x80], // an encoded surrogate
  [0xf4, 0x90, 0x80, 0x80], // past U+10FFFF
];

describe("tablekit serve: bodies that are not UTF-8", () => {
  it("in a value, a property name or a key, for every write: 400 InvalidInput, nothing written", async () => {
    for (const bytes of NOT_UTF8) {
      for (const template of [
        '{"PartitionKey":"p","RowKey":"u","x":"a@b"}',
        '{"PartitionKey":"p","RowKey":"u","x@":"a"}',
        '{"PartitionKey":"p","RowKey":"u@","x":"a"}',
      ]) {
        const body = withBytes(template, bytes);
        for (const [method, path] of [
          ["POST", TABLE],
          ["PUT", `${TABLE}(PartitionKey='p',RowKey='u')`],
          ["MERGE", `${TABLE}(PartitionKey='p',RowKey='u')`],
          ["PUT", `${TABLE}(PartitionKey='p',RowKey='seed')`],
        ] as const) {
          const r = await rawRequest(endpoint, { method, path, body });
          expectServiceError(r, 400, "InvalidInput");
        }
      }
    }
    expect(await partition("p")).toEqual([expect.objectContaining({ RowKey: "seed", x: "before" })]);
  });

  it("in a batch or a table's name: 400 InvalidInput, nothing written", async () => {
    const text = batchBody("batch_u", "changeset_u", [
      batchPart("POST", `http://127.0.0.1/devstoreaccount1/${TABLE}`, '{"PartitionKey":"p","RowKey":"b1"}'),
      batchPart(
        "POST",
        `http://127.0.0.1/devstoreaccount1/${TABLE}`,
        '{"PartitionKey":"p","RowKey":"b2","x":"@"}',
      ),
    ]);
    const batch = await rawRequest(endpoint, {
      method: "POST",
      path: "$batch",
      body: withBytes(text, [0xff]),
      headers: { "content-type": "multipart/mixed; boundary=batch_u" },
    });
    expectServiceError(batch, 400, "InvalidInput");
    const table = await rawRequest(endpoint, {
      method: "POST",
      path: "Tables",
      body: withBytes('{"TableName":"Bad@"}', [0xff]),
    });
    expectServiceError(table, 400, "InvalidInput");
    expect(await partition("p")).toHaveLength(1);
  });

  it("valid UTF-8 of every length still round-trips", async () => {
    const x = "a\u00e9\u20ac\u{1f600}";
    const r = await rawRequest(endpoint, {
      method: "POST",
      path: TABLE,
      body: JSON.stringify({ PartitionKey: "v", RowKey: "1", x }),
    });
    expect(r.status).toBe(201);
    expect((await partition("v"))[0]?.x).toBe(x);
  });
});

describe("tablekit serve: numbers past a Double's range", () => {
  it("unannotated, annotated, as a string, in a batch: 400, nothing written", async () => {
    for (const x of ["1e400", "-1e400", "1.5e309", "17976931348623159e292"]) {
      for (const body of [
        `{"PartitionKey":"n","RowKey":"1","x":${x}}`,
        `{"PartitionKey":"n","RowKey":"1","x":${x},"x@odata.type":"Edm.Double"}`,
        `{"PartitionKey":"n","RowKey":"1","x@odata.type":"Edm.Double","x":"${x}"}`,
      ]) {
        const r = await rawRequest(endpoint, { method: "POST", path: TABLE, body });
        expect([body, r.status]).toEqual([body, 400]);
        expect(["InvalidInput", "InvalidValueType"]).toContain(r.code);
        expect(r.json()).toMatchObject({ "odata.error": { code: r.code } });
      }
      const batch = await rawRequest(endpoint, {
        method: "POST",
        path: "$batch",
        body: batchBody("batch_n", "changeset_n", [
          batchPart(
            "POST",
            `http://127.0.0.1/devstoreaccount1/${TABLE}`,
            '{"PartitionKey":"n","RowKey":"0"}',
          ),
          batchPart(
            "POST",
            `http://127.0.0.1/devstoreaccount1/${TABLE}`,
            `{"PartitionKey":"n","RowKey":"2","x":${x}}`,
          ),
        ]),
        headers: { "content-type": "multipart/mixed; boundary=batch_n" },
      });
      expect(batch.status).toBe(202);
      expect(batch.text).toMatch(/HTTP\/1.1 400/);
      expect(batch.text).toContain('"value":"1:');
    }
    expect(await partition("n")).toEqual([]);
  });

  it("the largest Doubles, written out, are still Doubles", async () => {
    const body = `{"PartitionKey":"m","RowKey":"1","x":1.7976931348623157e308,"y":-1.7976931348623157e308,"z":5e-324}`;
    expect((await rawRequest(endpoint, { method: "POST", path: TABLE, body })).status).toBe(201);
    const [stored] = await partition("m");
    expect(stored).toMatchObject({ x: Number.MAX_VALUE, y: -Number.MAX_VALUE, z: 5e-324 });
  });
});

/** `count` inserts into partition `pk`, `properties` Strings each, padded so the whole body is exactly `size` bytes. */
function batchOfSize(pk: string, size: number, count: number, properties: number): string {
  const body = (length: number, extra: number) => {
    let left = extra;
    const parts = Array.from({ length: count }, (_, i) => {
      const entity: Record<string, string> = { PartitionKey: pk, RowKey: String(i).padStart(3, "0") };
      for (let p = 0; p < properties; p++) {
        entity[`p${p}`] = "v".repeat(length + (left-- > 0 ? 1 : 0));
      }
      return batchPart("POST", `http://127.0.0.1/devstoreaccount1/${TABLE}`, JSON.stringify(entity));
    });
    return batchBody("batch_s", "changeset_s", parts);
  };
  const empty = Buffer.byteLength(body(0, 0));
  const length = Math.floor((size - empty) / (count * properties));
  const text = body(length, size - Buffer.byteLength(body(length, 0)));
  expect(Buffer.byteLength(text)).toBe(size);
  return text;
}

const sendBatch = (body: string) =>
  rawRequest(endpoint, {
    method: "POST",
    path: "$batch",
    body,
    headers: { "content-type": "multipart/mixed; boundary=batch_s" },
  });

describe("tablekit serve: request sizes", () => {
  it("a $batch of 100 inserts × 250 Strings: 4 MiB as received is accepted, one byte more is 413", {
    timeout: 60_000,
  }, async () => {
    const within = await sendBatch(batchOfSize("w", 4 * MiB, 100, 250));
    expect(within.status).toBe(202);
    expect(within.text.match(/HTTP\/1.1 204/g)).toHaveLength(100);
    expect(await partition("w")).toHaveLength(100);
    const over = await sendBatch(batchOfSize("o", 4 * MiB + 1, 100, 250));
    expectServiceError(over, 413, "RequestBodyTooLarge");
    expect(await partition("o")).toEqual([]);
  });

  it("the library keeps its own bound for the same batch: counted as the Azure backend writes it, it is too large", async () => {
    const store = await openStore("memory:");
    try {
      await store.createTable(TABLE);
      const text = batchOfSize("l", 4 * MiB, 100, 250);
      const actions = [...text.matchAll(/^\{.*\}$/gm)].map(
        ([json]) => ["create", JSON.parse(json!) as { PartitionKey: string; RowKey: string }] as const,
      );
      expect(actions).toHaveLength(100);
      const entities: TransactionAction[] = actions.map(([, { PartitionKey, RowKey, ...rest }]) => [
        "create",
        { partitionKey: PartitionKey, rowKey: RowKey, ...rest },
      ]);
      await expect(store.table(TABLE).submitTransaction(entities)).rejects.toMatchObject({
        code: "RequestBodyTooLarge",
      });
    } finally {
      await store.close();
    }
  });

  it("a single entity's body: 4 MiB is the entity's own limit (400), one byte more is 413 RequestBodyTooLarge", async () => {
    const ofSize = (size: number) => {
      const props: Record<string, string> = { PartitionKey: "e", RowKey: "1" };
      const count = 250;
      const empty = Buffer.byteLength(
        JSON.stringify({
          ...props,
          ...Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, ""])),
        }),
      );
      const each = Math.floor((size - empty) / count);
      let left = size - empty - each * count;
      for (let i = 0; i < count; i++) props[`p${i}`] = "v".repeat(each + (left-- > 0 ? 1 : 0));
      const text = JSON.stringify(props);
      expect(Buffer.byteLength(text)).toBe(size);
      return text;
    };
    for (const [method, path] of [
      ["POST", TABLE],
      ["PUT", `${TABLE}(PartitionKey='e',RowKey='1')`],
      ["MERGE", `${TABLE}(PartitionKey='e',RowKey='1')`],
    ] as const) {
      const at = await rawRequest(endpoint, { method, path, body: ofSize(4 * MiB) });
      expectServiceError(at, 400, "EntityTooLarge");
      const over = await rawRequest(endpoint, { method, path, body: ofSize(4 * MiB + 1) });
      expectServiceError(over, 413, "RequestBodyTooLarge");
    }
    expect(await partition("e")).toEqual([]);
  });
});
