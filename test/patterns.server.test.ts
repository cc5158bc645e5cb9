import { runPatterns } from "./patterns/index.js";
import { targetOnServer } from "./support/server-target.js";
import { startTablekitServer } from "./support/tablekit-server.js";

// Every pattern suite, unchanged, through the azure backend against `tablekit serve`.
runPatterns({
  name: "azure (tablekit serve)",
  open: () => targetOnServer("azure (tablekit serve)", startTablekitServer),
});
