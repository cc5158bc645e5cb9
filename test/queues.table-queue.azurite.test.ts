import { openStore } from "../src/index.js";
import { queueTargetFromStore, runQueueConformance } from "./conformance/queues/index.js";
import { startAzurite } from "./support/azurite.js";

runQueueConformance({
  name: "table-queue on Azurite's table service",
  open: async () => {
    const server = await startAzurite();
    try {
      // Only the table endpoint: the store has no queue service of its own, so the table-backed queue is its default.
      const store = await openStore(server.storeUrl);
      return queueTargetFromStore("table-queue on Azurite tables", store, {
        openStore: () => openStore(server.storeUrl),
        release: async () => {
          await store.close();
          await server.stop();
        },
        concurrencyMessages: 300,
      });
    } catch (err) {
      await server.stop();
      throw err;
    }
  },
});
