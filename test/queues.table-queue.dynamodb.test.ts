import { openStore } from "../src/index.js";
import { queueTargetFromStore, runQueueConformance } from "./conformance/queues/index.js";
import { startDynamoDbLocal } from "./support/dynamodb-local.js";

// On a dynamodb: store the table-backed queue is the default queue port.
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
        concurrencyMessages: 300,
      });
    } catch (err) {
      await server.stop();
      throw err;
    }
  },
});
