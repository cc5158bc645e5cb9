import { openStore } from "../src/index.js";
import { runConformance, targetFromStore } from "./conformance/index.js";
import { startAzurite } from "./support/azurite.js";

// The shared suite, unchanged, against Azurite (started on 127.0.0.1, in memory, telemetry off).
runConformance({
  name: "azure (Azurite)",
  open: async () => {
    const server = await startAzurite();
    try {
      const store = await openStore(server.storeUrl);
      return targetFromStore("azure (Azurite)", store, {
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
