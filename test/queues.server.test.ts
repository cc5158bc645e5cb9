import { openStore } from "../src/index.js";
import { queueTargetFromStore, runQueueConformance } from "./conformance/queues/index.js";
import { startTablekitServer } from "./support/tablekit-server.js";

// The queue conformance suite, unchanged, through the azure backend (native Queue service, no
// emulator workarounds) against `tablekit serve`'s Queue service on 127.0.0.1, in memory.
runQueueConformance({
  name: "azure (tablekit serve queues)",
  open: async () => {
    // The suite re-creates names on purpose (state goes with the resource), which Azure refuses for
    // about 30 s and serve by default too: the hold is off here, and tested on serve in
    // test/server/deleted-names.test.ts.
    const server = await startTablekitServer({ deletedNameHold: 0 });
    try {
      const store = await openStore(server.storeUrl, server.storeOptions);
      return queueTargetFromStore("azure (tablekit serve queues)", store, {
        openStore: (core) => openStore(server.storeUrl, { ...server.storeOptions, ...core }),
        release: async () => {
          await store.close();
          await server.stop();
        },
      });
    } catch (err) {
      await server.stop();
      throw err;
    }
  },
});
