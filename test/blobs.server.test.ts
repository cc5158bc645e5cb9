import { openStore } from "../src/index.js";
import { blobTargetOnServer, runBlobConformance } from "./conformance/blobs/index.js";
import { startTablekitServer } from "./support/tablekit-server.js";

// The blob conformance suite, unchanged, through the azure backend (no emulator workarounds)
// against `tablekit serve`'s Blob service on 127.0.0.1, in memory.
runBlobConformance({
  name: "azure (tablekit serve blobs)",
  open: () =>
    blobTargetOnServer("azure (tablekit serve blobs)", startTablekitServer, (server, core) =>
      openStore(server.storeUrl, { ...server.storeOptions, ...core }),
    ),
});
