import { queueTargetOnServer, runQueueConformance } from "./conformance/queues/index.js";
import { startAzurite } from "./support/azurite.js";

// The queue conformance suite on Azure Queue Storage's emulator: Azurite's queue service, reached
// through the same azure: connection string as its tables (it names all three endpoints).
runQueueConformance({
  name: "azure (Azurite queues)",
  open: () =>
    queueTargetOnServer(
      "azure (Azurite queues)",
      startAzurite,
      (server) => `azure:${server.connectionString}`,
      {
        // Azurite's queue service takes ~60 ms a delete under 8 consumers: fewer messages, same assertions.
        concurrencyMessages: 300,
      },
    ),
});
