import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { filterSemanticsSuite } from "./conformance/filter-semantics.js";
import { runConformance } from "./conformance/index.js";
import { queriesAndPagingSuite } from "./conformance/queries-and-paging.js";
import { embeddedTarget } from "./support/embedded-target.js";

runConformance({ name: "embedded memory:", open: () => embeddedTarget("embedded memory:", "memory") });

const dir = mkdtempSync(join(tmpdir(), "tablekit-conformance-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runConformance({
  name: "embedded file:",
  open: () => embeddedTarget("embedded file:", { file: join(dir, "conf.db") }),
});

// Pages fill across partitions by default; the paging suites also run with pages that end at every
// partition boundary (`pages: "partition"`), as code that wants its paging exercised opens it.
runConformance(
  {
    name: "embedded memory: (pages: partition)",
    open: () => embeddedTarget("embedded memory: (pages: partition)", "memory", { pages: "partition" }),
  },
  [queriesAndPagingSuite, filterSemanticsSuite],
);
