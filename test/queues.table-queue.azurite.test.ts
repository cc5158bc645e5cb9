import { queueTargetOnServer, runQueueConformance } from "./conformance/queues/index.js";
import { startAzurite } from "./support/azurite.js";

// Only the table endpoint: the store has no queue service of its own, so the table-backed queue is its default.
runQueueConformance({
  name: "table-queue on Azurite's table service",
  open: () =>
    queueTargetOnServer("table-queue on Azurite tables", startAzurite, (server) => server.storeUrl, {
      concurrencyMessages: 300,
    }),
});
