import { openStore } from "../src/index.js";
import { blobTargetOnServer, runBlobConformance } from "./conformance/blobs/index.js";
import { startAzurite } from "./support/azurite.js";

// The blob suite, unchanged, against Azurite's blob service (127.0.0.1, in memory, telemetry off),
// through the same azure: connection string that names the table and queue endpoints.
runBlobConformance({
  name: "azure (Azurite)",
  open: () =>
    blobTargetOnServer("azure (Azurite)", startAzurite, (azurite, core) =>
      openStore(`azure:${azurite.connectionString}`, core),
    ),
});
