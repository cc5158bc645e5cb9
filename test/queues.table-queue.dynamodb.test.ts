import { queueTargetOnServer, runQueueConformance } from "./conformance/queues/index.js";
import { startDynamoDbLocal } from "./support/dynamodb-local.js";

// On a dynamodb: store the table-backed queue is the default queue port.
runQueueConformance({
  name: "table-queue on DynamoDB Local",
  open: () =>
    queueTargetOnServer("table-queue on DynamoDB Local", startDynamoDbLocal, (server) => server.storeUrl, {
      concurrencyMessages: 300,
    }),
});
