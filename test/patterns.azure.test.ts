import { runPatterns } from "./patterns/index.js";
import { targetOnServer } from "./support/server-target.js";
import { startAzureWorld } from "./support/worlds.js";

// Every pattern suite, unchanged, against Azurite's tables, queues and blobs (127.0.0.1, in memory, telemetry off).
runPatterns({ name: "azure (Azurite)", open: () => targetOnServer("azure (Azurite)", startAzureWorld) });
