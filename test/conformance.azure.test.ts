import { runConformance } from "./conformance/index.js";
import { startAzurite } from "./support/azurite.js";
import { targetOnServer } from "./support/server-target.js";

// The shared suite, unchanged, against Azurite (started on 127.0.0.1, in memory, telemetry off).
runConformance({ name: "azure (Azurite)", open: () => targetOnServer("azure (Azurite)", startAzurite) });
