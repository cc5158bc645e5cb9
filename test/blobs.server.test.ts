import { openStore } from "../src/index.js";
import { blobTargetOnServer, runBlobConformance } from "./conformance/blobs/index.js";
import { startTablekitServer } from "./support/tablekit-server.js";

// The blob conformance suite, unchanged, through the azure backend (no emulator workarounds)
// against `tablekit serve`'s Blob service on 127.0.0.1, in memory.
runBlobConformance({
  name: "azure (tablekit serve blobs)",
  open: () =>
    // The suite re-creates names on purpose (state goes with the resource), which Azure refuses
    // for about 30 s and serve by default too: the hold is off here, and tested on serve in
    // test/server/deleted-names.test.ts.
    blobTargetOnServer(
      "azure (tablekit serve blobs)",
      () => startTablekitServer({ deletedNameHold: 0 }),
      (server, core) => openStore(server.storeUrl, { ...server.storeOptions, ...core }),
    ),
});
