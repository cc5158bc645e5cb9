/** The published package as a user imports it: every `exports` entry resolves to built files. */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  exports: Record<string, string | { types: string; default: string }>;
  bin?: Record<string, string>;
};

describe("package exports (built dist/, as `npm test` builds first)", () => {
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target === "string") continue;
    it(`${subpath} resolves to JavaScript and declarations`, async () => {
      expect(existsSync(join(root, target.types)), target.types).toBe(true);
      const mod = await import(pathToFileURL(join(root, target.default)).href);
      expect(Object.keys(mod).length).toBeGreaterThan(0);
    });
  }

  it("the root export is reachable by the package's own name", async () => {
    const require = createRequire(join(root, "package.json"));
    const resolved = require.resolve("tablekit/package.json");
    expect(resolved).toBe(join(root, "package.json"));
    const mod = await import(
      pathToFileURL(
        join(root, pkg.exports["."] && typeof pkg.exports["."] !== "string" ? pkg.exports["."].default : ""),
      ).href
    );
    expect(typeof mod.openStore).toBe("function");
  });

  it("declares every bin as a built file with a shebang", () => {
    for (const file of Object.values(pkg.bin ?? {})) {
      const path = join(root, file);
      expect(existsSync(path), file).toBe(true);
      expect(readFileSync(path, "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
    }
  });
});
