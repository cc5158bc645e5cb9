import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { openStore } from "../src/index.js";
import { blobTargetFromStore, runBlobConformance } from "./conformance/blobs/index.js";

const MEMORY = "memory:blob-conformance";
runBlobConformance({
  name: "embedded memory:",
  // Named, so a second store of the process shares it ("another process").
  open: async () =>
    blobTargetFromStore("embedded memory:", await openStore(MEMORY), undefined, (core) =>
      openStore(MEMORY, core),
    ),
});

const dir = mkdtempSync(join(tmpdir(), "tablekit-blobs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runBlobConformance({
  name: "embedded file:",
  open: async () => {
    const file = `file:${join(dir, "blobs.db")}`;
    return blobTargetFromStore("embedded file:", await openStore(file), undefined, (core) =>
      openStore(file, core),
    );
  },
});
