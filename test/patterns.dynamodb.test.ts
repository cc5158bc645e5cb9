import { openStore } from "../src/index.js";
import { targetFromStore } from "./conformance/factory.js";
import { runPatterns } from "./patterns/index.js";
import { startDynamoDbLocal } from "./support/dynamodb-local.js";

// Every pattern suite, unchanged, against the real DynamoDB Local jar (in memory, telemetry off).
runPatterns({
  name: "dynamodb (DynamoDB Local)",
  open: async () => {
    const server = await startDynamoDbLocal();
    try {
      const store = await openStore(server.storeUrl);
      const target = targetFromStore("dynamodb (DynamoDB Local)", store, {
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
