import { startServer } from "../../src/server/index.js";
import type { TestServer } from "./server-target.js";

/**
 * `tablekit serve` started in this process on 127.0.0.1, its Table, Queue and Blob services on free
 * ports, in memory, serving the development account; its connection string names all three. The store connects with `emulator: false`: the server is held to the
 * service's semantics, so the azure backend applies none of its Azurite workarounds.
 */
export async function startTablekitServer(): Promise<TestServer & { connectionString: string; url: string }> {
  const server = await startServer({ port: 0, services: ["table", "queue", "blob"] });
  return {
    storeUrl: `azure:${server.connectionString}`,
    storeOptions: { emulator: false },
    connectionString: server.connectionString,
    url: server.url,
    stop: () => server.stop(),
  };
}
