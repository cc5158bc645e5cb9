import { openStore } from "../src/index.js";
import { blobTargetFromStore, runBlobConformance } from "./conformance/blobs/index.js";
import { startAzurite } from "./support/azurite.js";

// The blob suite, unchanged, against Azurite's blob service (127.0.0.1, in memory, telemetry off),
// through the same azure: connection string that names the table and queue endpoints.
runBlobConformance({
  name: "azure (Azurite)",
  open: async () => {
    const azurite = await startAzurite();
    try {
      const store = await openStore(`azure:${azurite.connectionString}`);
      return blobTargetFromStore("azure (Azurite)", store, async () => {
        await store.close();
        await azurite.stop();
      });
    } catch (err) {
      await azurite.stop();
      throw err;
    }
  },
});
