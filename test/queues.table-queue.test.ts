import { openStore } from "../src/index.js";
import { queueTargetFromStore, runQueueConformance } from "./conformance/queues/index.js";

// The table-backed queue, built only on the table port, runs the queue conformance suite on the
// embedded engine (here), on Azurite's table service and on DynamoDB Local (their own files, so
// the servers start in parallel workers).
const TABLE = { queues: "table" } as const;

const memory = "memory:table-queue-conformance";
runQueueConformance({
  name: "table-queue on embedded",
  open: async () =>
    queueTargetFromStore("table-queue on embedded", await openStore(memory, TABLE), {
      openStore: (core) => openStore(memory, { ...TABLE, ...core }),
    }),
});
