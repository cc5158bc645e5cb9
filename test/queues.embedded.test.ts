import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { openStore } from "../src/index.js";
import { queueTargetFromStore, runQueueConformance } from "./conformance/queues/index.js";

// The queue conformance suite on the embedded engine's own queues, in memory and on a file. A named
// in-memory store is shared by every store of the process opened with its name ("another process").
const memory = "memory:queue-conformance";
runQueueConformance({
  name: "embedded memory:",
  open: async () =>
    queueTargetFromStore("embedded memory:", await openStore(memory), {
      openStore: (core) => openStore(memory, core),
    }),
});

const dir = mkdtempSync(join(tmpdir(), "tablekit-queues-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = `file:${join(dir, "queues.db")}`;

runQueueConformance({
  name: "embedded file:",
  open: async () =>
    queueTargetFromStore("embedded file:", await openStore(file), {
      openStore: (core) => openStore(file, core),
    }),
});
