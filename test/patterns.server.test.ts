import { runPatterns } from "./patterns/index.js";
import { targetOnServer } from "./support/server-target.js";
import { startTablekitServer } from "./support/tablekit-server.js";

// Every pattern suite, unchanged, through the azure backend against `tablekit serve`. Two cases
// delete a pattern's own container or queue and create it again at once (retrying, for Azure's
// ~30 s hold, longer than a test should wait): serve's deleted-name hold is off here.
runPatterns({
  name: "azure (tablekit serve)",
  open: () => targetOnServer("azure (tablekit serve)", () => startTablekitServer({ deletedNameHold: 0 })),
});
