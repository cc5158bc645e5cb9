import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { openStore } from "../src/index.js";
import { blobTargetFromStore, runBlobConformance } from "./conformance/blobs/index.js";

runBlobConformance({
  name: "embedded memory:",
  open: async () => blobTargetFromStore("embedded memory:", await openStore("memory:")),
});

const dir = mkdtempSync(join(tmpdir(), "tablekit-blobs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runBlobConformance({
  name: "embedded file:",
  open: async () => blobTargetFromStore("embedded file:", await openStore(`file:${join(dir, "blobs.db")}`)),
});
