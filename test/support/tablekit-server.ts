import { type ServerOptions, startServer } from "../../src/server/index.js";
import { rawRequest } from "./raw-table-client.js";
import type { TestServer } from "./server-target.js";

/**
 * `tablekit serve` started in this process on 127.0.0.1, its Table, Queue and Blob services on free
 * ports, in memory, serving the development account; its connection string names all three. The store connects with `emulator: false`: the server is held to the
 * service's semantics, so the azure backend applies none of its Azurite workarounds.
 */
export async function startTablekitServer(
  options: Pick<ServerOptions, "deletedNameHold"> = {},
): Promise<TestServer & { connectionString: string; url: string }> {
  const server = await startServer({ port: 0, services: ["table", "queue", "blob"], ...options });
  return {
    storeUrl: `azure:${server.connectionString}`,
    storeOptions: { emulator: false },
    connectionString: server.connectionString,
    url: server.url,
    stop: () => server.stop(),
  };
}

/**
 * The Table service of `tablekit serve` alone, in this process on a free port, with `tables`
 * created: for tests that speak the protocol byte by byte (`rawRequest(endpoint, …)`).
 */
export async function serveTables(
  tables: readonly string[],
  options: ServerOptions = {},
): Promise<{ endpoint: string; port: number; stop: () => Promise<void> }> {
  const server = await startServer({ port: 0, services: ["table"], ...options });
  for (const name of tables) {
    const created = await rawRequest(server.url, {
      method: "POST",
      path: "Tables",
      body: JSON.stringify({ TableName: name }),
    });
    if (created.status !== 201) throw new Error(`creating ${name}: ${created.status} ${created.text}`);
  }
  return { endpoint: server.url, port: server.port, stop: () => server.stop() };
}

/** The Queue and Blob services of `tablekit serve`, on free ports, serving `accounts` (each its own store). */
export async function serveStorageAccounts(
  accounts: readonly { name: string; key: string }[],
): Promise<{ queueUrl: string; blobUrl: string; stop: () => Promise<void> }> {
  const server = await startServer({
    port: 0,
    services: ["queue", "blob"],
    accounts: accounts.map(({ name, key }) => ({ name, keys: [key] })),
  });
  return {
    queueUrl: server.endpoints.queue!.url,
    blobUrl: server.endpoints.blob!.url,
    stop: () => server.stop(),
  };
}
