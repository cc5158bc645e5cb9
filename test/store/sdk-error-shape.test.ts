/**
 * The same failures through `@azure/data-tables` (against Azurite) and through tablekit (embedded,
 * and its azure backend on the same Azurite): the fields SDK code reads — `statusCode`,
 * `details.odataError.code`, `details.errorCode`, a transaction's `code` and index prefix — agree,
 * so `if (err.statusCode === 404)` keeps matching after the import changes.
 */
import { TableClient, type TransactionAction } from "@azure/data-tables";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/index.js";
import { type Azurite, startAzurite } from "../support/azurite.js";

let azurite: Azurite;
let embedded: Store;
let azure: Store;

beforeAll(async () => {
  azurite = await startAzurite();
  embedded = await openStore("memory:");
  azure = await openStore(azurite.storeUrl);
}, 60_000);
afterAll(async () => {
  await embedded?.close();
  await azure?.close();
  await azurite?.stop();
});

/** What SDK code reads of an error, from either side. */
interface Shape {
  statusCode: unknown;
  odataCode: unknown;
  errorCode: unknown;
}
const shape = (err: unknown): Shape => {
  const e = err as {
    statusCode?: unknown;
    details?: { odataError?: { code?: unknown }; errorCode?: unknown };
  };
  return {
    statusCode: e.statusCode,
    odataCode: e.details?.odataError?.code,
    errorCode: e.details?.errorCode,
  };
};
async function failure(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a failure");
}

/** One scenario, written once per client: make `table` (created, holding `p/r`), then fail. */
interface Scenario {
  name: string;
  sdk(client: TableClient): Promise<unknown>;
  tablekit(store: Store, table: string): Promise<unknown>;
}

const SCENARIOS: Scenario[] = [
  {
    name: "a missing entity",
    sdk: (c) => c.getEntity("p", "absent"),
    tablekit: (s, t) => s.table(t).getEntity("p", "absent"),
  },
  {
    name: "a duplicate create",
    sdk: (c) => c.createEntity({ partitionKey: "p", rowKey: "r" }),
    tablekit: (s, t) => s.table(t).createEntity({ partitionKey: "p", rowKey: "r" }),
  },
  {
    name: "a stale ETag",
    sdk: (c) =>
      c.updateEntity({ partitionKey: "p", rowKey: "r" }, "Merge", {
        etag: "W/\"datetime'2020-01-01T00%3A00%3A00.0000000Z'\"",
      }),
    tablekit: (s, t) =>
      s.table(t).updateEntity({ partitionKey: "p", rowKey: "r" }, "Merge", {
        etag: "W/\"datetime'2020-01-01T00%3A00%3A00.0000000Z'\"",
      }),
  },
  {
    name: "a missing table",
    sdk: (c) =>
      TableClient.fromConnectionString(azurite.tableConnectionString, `${c.tableName}x`, {
        allowInsecureConnection: true,
      }).getEntity("p", "r"),
    tablekit: (s, t) => s.table(`${t}x`).getEntity("p", "r"),
  },
];

let n = 0;
async function prepared(kind: "sdk" | "embedded" | "azure"): Promise<{ table: string; client: TableClient }> {
  const table = `Shape${kind}${n++}`;
  const client = TableClient.fromConnectionString(azurite.tableConnectionString, table, {
    allowInsecureConnection: true,
  });
  if (kind === "sdk") await client.createTable();
  else await (kind === "embedded" ? embedded : azure).createTable(table);
  if (kind === "sdk") await client.createEntity({ partitionKey: "p", rowKey: "r" });
  else
    await (kind === "embedded" ? embedded : azure)
      .table(table)
      .createEntity({ partitionKey: "p", rowKey: "r" });
  return { table, client };
}

describe("errors read as @azure/data-tables' RestError", () => {
  for (const scenario of SCENARIOS) {
    it(`${scenario.name}: statusCode, details.odataError.code and details.errorCode as the SDK's`, async () => {
      const sdk = await prepared("sdk");
      const expected = shape(await failure(() => scenario.sdk(sdk.client)));
      expect(expected.statusCode).toBeTypeOf("number");
      for (const [kind, store] of [
        ["embedded", embedded],
        ["azure", azure],
      ] as const) {
        const { table } = await prepared(kind);
        expect(shape(await failure(() => scenario.tablekit(store, table))), kind).toEqual(expected);
      }
    });
  }

  it("a failed transaction: statusCode, code and the index before the message, as the SDK's", async () => {
    const sdk = await prepared("sdk");
    const actions: TransactionAction[] = [
      ["create", { partitionKey: "p", rowKey: "a" }],
      ["create", { partitionKey: "p", rowKey: "r" }],
    ];
    const sdkErr = (await failure(() => sdk.client.submitTransaction(actions))) as Record<string, unknown>;
    const read = (e: Record<string, unknown>) => ({
      statusCode: e.statusCode,
      code: e.code,
      indexed: /^1:/.test(String(e.message)),
    });
    expect(read(sdkErr)).toEqual({ statusCode: 409, code: "EntityAlreadyExists", indexed: true });
    for (const store of [embedded, azure]) {
      const { table } = await prepared(store === embedded ? "embedded" : "azure");
      const err = (await failure(() =>
        store.table(table).submitTransaction([
          ["create", { partitionKey: "p", rowKey: "a" }],
          ["create", { partitionKey: "p", rowKey: "r" }],
        ]),
      )) as Record<string, unknown>;
      expect(read(err)).toEqual(read(sdkErr));
    }
  });
});
