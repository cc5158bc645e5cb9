import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { runConformance } from "./conformance/index.js";
import { embeddedTarget } from "./support/embedded-target.js";

runConformance({ name: "embedded memory:", open: () => embeddedTarget("embedded memory:", "memory") });

const dir = mkdtempSync(join(tmpdir(), "tablekit-conformance-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runConformance({
  name: "embedded file:",
  open: () => embeddedTarget("embedded file:", { file: join(dir, "conf.db") }),
});
