import { openStore } from "../src/index.js";
import { blobTargetFromStore, runBlobConformance } from "./conformance/blobs/index.js";
import { startS3rver } from "./support/s3rver.js";

// The blob suite, unchanged, on S3 through @aws-sdk/client-s3 against s3rver (127.0.0.1, a
// scratch directory), as the blob port of an embedded store: `{ s3 }` works on any store.
runBlobConformance({
  name: "s3 (s3rver)",
  open: async () => {
    const server = await startS3rver();
    try {
      const store = await openStore("memory:", { s3: { endpoint: server.endpoint, bucketPrefix: "tk-" } });
      return blobTargetFromStore("s3 (s3rver)", store, async () => {
        await store.close();
        await server.stop();
      });
    } catch (err) {
      await server.stop();
      throw err;
    }
  },
});
