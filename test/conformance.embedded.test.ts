import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { openStore } from "../src/index.js";
import { runConformance, targetFromStore } from "./conformance/index.js";

runConformance({
  name: "embedded memory:",
  open: async () => targetFromStore("embedded memory:", await openStore("memory:")),
});

const dir = mkdtempSync(join(tmpdir(), "tablekit-conformance-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runConformance({
  name: "embedded file:",
  open: async () => targetFromStore("embedded file:", await openStore(`file:${join(dir, "conf.db")}`)),
});
