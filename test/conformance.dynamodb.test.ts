import { openStore } from "../src/index.js";
import { runConformance, targetFromStore } from "./conformance/index.js";
import { startDynamoDbLocal } from "./support/dynamodb-local.js";

// The shared suite, unchanged, against the real DynamoDB Local jar (in memory, telemetry off).
runConformance({
  name: "dynamodb (DynamoDB Local)",
  open: async () => {
    const server = await startDynamoDbLocal();
    try {
      const store = await openStore(server.storeUrl);
      return targetFromStore("dynamodb (DynamoDB Local)", store, {
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
