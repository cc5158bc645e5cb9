/**
 * One Node story: `engines`, the README and the Node that runs this suite (CI's) agree, and every
 * package the lockfile installs accepts the oldest Node we support, so `npm ci` there prints no
 * EBADENGINE warning.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const json = (file: string) => JSON.parse(readFileSync(join(root, file), "utf8")) as Record<string, unknown>;
// semver ships no types: the slice used here.
const semver = createRequire(import.meta.url)("semver") as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

const engines = (json("package.json").engines as { node: string }).node;
const oldest = semver.minVersion(engines)!.version;

describe("the Node versions tablekit supports", () => {
  it("engines names a minimum with require(esm) (20.19), which CommonJS consumers need", () => {
    expect(semver.satisfies("20.19.0", engines)).toBe(true);
    expect(semver.satisfies("20.18.3", engines)).toBe(false);
  });

  it("the README states the same minimum", () => {
    const [major, minor] = oldest.split(".");
    expect(readFileSync(join(root, "README.md"), "utf8")).toContain(`Node ${major}.${minor} or newer`);
  });

  it("the Node running this suite (CI's) is one engines accepts", () => {
    expect(semver.satisfies(process.versions.node, engines), process.version).toBe(true);
  });

  it("every package of the lockfile installs on the oldest supported Node without EBADENGINE", () => {
    const packages = (json("package-lock.json").packages ?? {}) as Record<
      string,
      { version?: string; engines?: { node?: string } | string[] }
    >;
    const refusing = Object.entries(packages)
      .filter(([path, p]) => path !== "" && !Array.isArray(p.engines) && p.engines?.node)
      .filter(([, p]) => !semver.satisfies(oldest, (p.engines as { node: string }).node))
      .map(([path, p]) => `${path}@${p.version} wants node ${(p.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
