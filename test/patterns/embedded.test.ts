import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { openStore } from "../../src/index.js";
import { targetFromStore } from "../conformance/factory.js";
import { runPatterns } from "./index.js";

runPatterns({
  name: "embedded memory:",
  open: async () => targetFromStore("embedded memory:", await openStore("memory:")),
});

const dir = mkdtempSync(join(tmpdir(), "tablekit-patterns-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runPatterns({
  name: "embedded file:",
  open: async () => {
    const url = `file:${join(dir, "patterns.db")}`;
    return { ...targetFromStore("embedded file:", await openStore(url)), sharedUrl: url };
  },
});
