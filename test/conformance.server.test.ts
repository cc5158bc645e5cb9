import { runConformance } from "./conformance/index.js";
import { targetOnServer } from "./support/server-target.js";
import { startTablekitServer } from "./support/tablekit-server.js";

// The shared suite, unchanged, through the azure backend against `tablekit serve` (127.0.0.1, in memory).
runConformance({
  name: "azure (tablekit serve)",
  open: () => targetOnServer("azure (tablekit serve)", startTablekitServer),
});
