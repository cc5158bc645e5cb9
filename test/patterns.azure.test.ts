import { runPatterns } from "./patterns/index.js";
import { startAzurite } from "./support/azurite.js";
import { targetOnServer } from "./support/server-target.js";

// Every pattern suite, unchanged, against Azurite (127.0.0.1, in memory, telemetry off).
runPatterns({ name: "azure (Azurite)", open: () => targetOnServer("azure (Azurite)", startAzurite) });
