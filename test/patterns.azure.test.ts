import { openStore } from "../src/index.js";
import { targetFromStore } from "./conformance/factory.js";
import { runPatterns } from "./patterns/index.js";
import { startAzurite } from "./support/azurite.js";

// Every pattern suite, unchanged, against Azurite (127.0.0.1, in memory, telemetry off).
runPatterns({
  name: "azure (Azurite)",
  open: async () => {
    const server = await startAzurite();
    try {
      const store = await openStore(server.storeUrl);
      const target = targetFromStore("azure (Azurite)", store, {
        release: async () => {
          await store.close();
          await server.stop();
        },
      });
      return { ...target, sharedUrl: server.storeUrl };
    } catch (err) {
      await server.stop();
      throw err;
    }
  },
});
