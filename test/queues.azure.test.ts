import { openStore } from "../src/index.js";
import { queueTargetFromStore, runQueueConformance } from "./conformance/queues/index.js";
import { startAzurite } from "./support/azurite.js";

// The queue conformance suite on Azure Queue Storage's emulator: Azurite's queue service, reached
// through the same azure: connection string as its tables (it names all three endpoints).
runQueueConformance({
  name: "azure (Azurite queues)",
  open: async () => {
    const server = await startAzurite();
    try {
      const url = `azure:${server.connectionString}`;
      const store = await openStore(url);
      return queueTargetFromStore("azure (Azurite queues)", store, {
        openStore: () => openStore(url),
        release: async () => {
          await store.close();
          await server.stop();
        },
        // Azurite's queue service takes ~60 ms a delete under 8 consumers: fewer messages, same assertions.
        concurrencyMessages: 300,
      });
    } catch (err) {
      await server.stop();
      throw err;
    }
  },
});
