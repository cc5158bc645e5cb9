/**
 * Paging through `tablekit serve`: pages fill across partitions by default, as the service
 * usually fills them (100 entities over 20 partitions are one page, as against Azurite), and
 * `pages: "partition"` (the server option, `--pages partition`, or a store URL's
 * `?pages=partition`) ends a page at every partition boundary, for code that wants its paging
 * exercised. Through the raw protocol, the official SDK, the library and the explorer's "(all)"
 * view; the served store's capability says which.
 */
import { AzureNamedKeyCredential, TableClient } from "@azure/data-tables";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExplorer } from "../../src/cli/explorer/start-explorer.js";
import { openStore, type Store } from "../../src/index.js";
import { startServer } from "../../src/server/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";
import { nextPageQuery, rawRequest } from "../support/raw-table-client.js";

const TABLE = "Spread";
const PARTITIONS = 20;
const PER_PARTITION = 5;
type Server = Awaited<ReturnType<typeof startServer>>;
const servers: Server[] = [];

/** 100 entities over 20 partitions, written in one batch per partition. */
async function spread(store: Store): Promise<void> {
  const table = store.table(TABLE);
  await table.createTable();
  for (let p = 0; p < PARTITIONS; p++) {
    await table.submitTransaction(
      Array.from(
        { length: PER_PARTITION },
        (_, r) => ["create", { partitionKey: `p${String(p).padStart(2, "0")}`, rowKey: `r${r}` }] as const,
      ),
    );
  }
}

async function served(options: Parameters<typeof startServer>[0]): Promise<Server> {
  const server = await startServer({ port: 0, services: ["table"], ...options });
  servers.push(server);
  await spread(server.stores.get(AZURITE_ACCOUNT)!);
  return server;
}

/** Every page of a raw query (the continuation headers echoed back), as page sizes. */
async function rawPages(endpoint: string): Promise<number[]> {
  const sizes: number[] = [];
  let next = "";
  do {
    const r = await rawRequest(endpoint, { path: `${TABLE}()${next}` });
    expect(r.status).toBe(200);
    sizes.push((r.json() as { value: unknown[] }).value.length);
    const query = nextPageQuery(r);
    next = query === undefined ? "" : `?${query}`;
  } while (next !== "" && sizes.length <= PARTITIONS + 1);
  return sizes;
}

/** The pages the official SDK reads, as page sizes. */
async function sdkPages(endpoint: string): Promise<number[]> {
  const client = new TableClient(endpoint, TABLE, new AzureNamedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY), {
    allowInsecureConnection: true,
  });
  const sizes: number[] = [];
  for await (const page of client.listEntities().byPage()) sizes.push(page.length);
  return sizes;
}

afterAll(async () => {
  for (const server of servers) await server.stop();
});

describe("tablekit serve: pages", () => {
  it("fill across partitions by default: 100 entities over 20 partitions are one page", async () => {
    const server = await served({});
    expect(server.stores.get(AZURITE_ACCOUNT)!.capabilities.pageEndsAtPartitionBoundary).toBe(false);
    expect(await rawPages(server.url)).toEqual([100]);
    expect(await sdkPages(server.url)).toEqual([100]);
    // $top is a page size across partitions too.
    const top = await rawRequest(server.url, { path: `${TABLE}()?$top=12` });
    expect((top.json() as { value: unknown[] }).value).toHaveLength(12);
    expect(top.headers["x-ms-continuation-nextpartitionkey"]).toBeDefined();
  });

  it("end at every partition boundary with pages: partition, the option or the store URL's parameter", async () => {
    const perPartition = Array.from({ length: PARTITIONS }, () => PER_PARTITION);
    for (const options of [{ pages: "partition" as const }, { storeUrl: "memory:?pages=partition" }]) {
      const server = await served(options);
      expect(server.stores.get(AZURITE_ACCOUNT)!.capabilities.pageEndsAtPartitionBoundary).toBe(true);
      expect(await rawPages(server.url)).toEqual(perPartition);
      expect(await sdkPages(server.url)).toEqual(perPartition);
    }
  });

  it("pages: fill says so explicitly, and the option is the embedded engine's alone", async () => {
    const server = await served({ pages: "fill" });
    expect(await rawPages(server.url)).toEqual([100]);
    await expect(
      startServer({
        port: 0,
        services: ["table"],
        storeUrl: "azure:UseDevelopmentStorage=true",
        pages: "partition",
      }),
    ).rejects.toMatchObject({ code: "InvalidInput" });
  });
});

describe("the library and the explorer over the same entities", () => {
  let fill: Store;
  let partition: Store;
  beforeAll(async () => {
    fill = await openStore("memory:");
    partition = await openStore("memory:?pages=partition");
    await spread(fill);
    await spread(partition);
  });
  afterAll(async () => {
    await fill?.close();
    await partition?.close();
  });

  const libraryPages = async (store: Store) => {
    const sizes: number[] = [];
    for await (const page of store.table(TABLE).listEntities().byPage({ maxPageSize: 1000 }))
      sizes.push(page.length);
    return sizes;
  };

  it("listEntities: one page filled across partitions, or one page a partition", async () => {
    expect(await libraryPages(fill)).toEqual([100]);
    expect(await libraryPages(partition)).toEqual(Array.from({ length: PARTITIONS }, () => PER_PARTITION));
  });

  it("the explorer's (all) view shows a full page from many partitions, also where store pages end at each", async () => {
    for (const store of [fill, partition]) {
      const explorer = await startExplorer({ store, writable: false });
      try {
        const url = new URL(explorer.url);
        const cookie = { cookie: `tablekit_explorer=${url.searchParams.get("token")!}` };
        const view = async (path: string) => {
          const page = await fetch(`${url.origin}${path}`, { headers: cookie });
          expect(page.status).toBe(200);
          return page.text();
        };
        const first = await view(`/t/${TABLE}`);
        expect(first).toMatch(/\b50 entities on this page/);
        const partitions = (html: string) => [
          ...new Set([...html.matchAll(/pk=(p\d\d)&amp;rk=/g)].map((m) => m[1])),
        ];
        expect(partitions(first)).toEqual(
          Array.from({ length: 10 }, (_, i) => `p${String(i).padStart(2, "0")}`),
        );
        const next = /href="([^"]+)" data-test="next-page"/.exec(first)![1]!.replaceAll("&amp;", "&");
        const second = await view(next);
        expect(second).toMatch(/\b50 entities on this page/);
        expect(partitions(second)).toEqual(
          Array.from({ length: 10 }, (_, i) => `p${String(i + 10).padStart(2, "0")}`),
        );
        expect(second).not.toContain('data-test="next-page"');
      } finally {
        await explorer.stop();
      }
    }
  });
});
