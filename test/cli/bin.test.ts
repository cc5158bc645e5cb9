/**
 * The bin as a user runs it (`npx tablekit …`, a shell, the package's bin link): the file itself,
 * through its shebang, not `node dist/cli/main.js` as the other CLI tests start it. The build
 * recreates dist/, so this fails when a rebuild (`npm run build`, `npm test`, `npm pack`) loses the
 * exec bit.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { newestMtime } from "../support/newest-mtime.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  version: string;
  bin: Record<string, string>;
};

describe("the package's bin after a build", () => {
  it("is built from the current sources (npm test builds first)", () => {
    const main = join(root, pkg.bin.tablekit!);
    expect(existsSync(main), "run `npm run build` first").toBe(true);
    expect(statSync(main).mtimeMs, "dist/ is older than src/: run `npm run build`").toBeGreaterThanOrEqual(
      newestMtime(join(root, "src")),
    );
  });

  it.each(Object.entries(pkg.bin))("%s (%s) is executable and runs through its shebang", (_name, target) => {
    const path = join(root, target);
    expect(readFileSync(path, "utf8")).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect((statSync(path).mode & 0o111).toString(8)).toBe("111");
    // Spawned as the file itself: without the exec bit this is EACCES ("Permission denied").
    const version = execFileSync(path, ["--version"], { cwd: root, encoding: "utf8" });
    expect(version.trim()).toBe(pkg.version);
  });
});
