import { openStore } from "../src/index.js";
import { blobTargetOnServer, runBlobConformance } from "./conformance/blobs/index.js";
import { startS3rver } from "./support/s3rver.js";

// The blob suite, unchanged, on S3 through @aws-sdk/client-s3 against s3rver (127.0.0.1, a
// scratch directory), as the blob port of an embedded store: `{ s3 }` works on any store.
runBlobConformance({
  name: "s3 (s3rver)",
  open: () =>
    blobTargetOnServer("s3 (s3rver)", startS3rver, (server, core) =>
      openStore("memory:", { s3: { endpoint: server.endpoint, bucketPrefix: "tk-" }, ...core }),
    ),
});
