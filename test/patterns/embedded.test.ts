import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { embeddedTarget } from "../support/embedded-target.js";
import { runPatterns } from "./index.js";

// The long randomized runs at full size on file: (2,000 operations, worker processes SIGKILLed);
// CI-sized on memory: (workers halted in this process) and on the servers.
runPatterns({ name: "embedded memory:", open: () => embeddedTarget("embedded memory:", "memory") });

const dir = mkdtempSync(join(tmpdir(), "tablekit-patterns-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runPatterns({
  name: "embedded file:",
  open: () => embeddedTarget("embedded file:", { file: join(dir, "patterns.db") }),
  randomOperations: 2000,
});
