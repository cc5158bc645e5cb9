import { openStore } from "../src/index.js";
import { queueTargetFromStore, runQueueConformance } from "./conformance/queues/index.js";
import { startAzurite } from "./support/azurite.js";
import { startDynamoDbLocal } from "./support/dynamodb-local.js";

// The table-backed queue, built only on the table port, runs the queue conformance suite on the
// embedded engine, on Azurite's table service and on DynamoDB Local (where it is the default).
const TABLE = { queues: "table" } as const;

const memory = "memory:table-queue-conformance";
runQueueConformance({
  name: "table-queue on embedded",
  open: async () =>
    queueTargetFromStore("table-queue on embedded", await openStore(memory, TABLE), {
      openStore: () => openStore(memory, TABLE),
    }),
});

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
        concurrencyMessages: 500,
      });
    } catch (err) {
      await server.stop();
      throw err;
    }
  },
});

runQueueConformance({
  name: "table-queue on DynamoDB Local",
  open: async () => {
    const server = await startDynamoDbLocal();
    try {
      const store = await openStore(server.storeUrl);
      return queueTargetFromStore("table-queue on DynamoDB Local", store, {
        openStore: () => openStore(server.storeUrl),
        release: async () => {
          await store.close();
          await server.stop();
        },
        concurrencyMessages: 500,
      });
    } catch (err) {
      await server.stop();
      throw err;
    }
  },
});
